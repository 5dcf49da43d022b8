"""UNO Show 'Em No Mercy (`uno_no_mercy`, spec 7): official stacking by draw value, Skip
Everyone, Discard All, Color Roulette, 7-0 always on, no challenges, and the mercy rule."""
from __future__ import annotations

from typing import Any, Mapping

from ..cards import NO_MERCY_CODES, UnoCard, draw_value, is_number_rank
from .options import NO_MERCY_OPTIONS
from .state import GameState
from .uno import UnoRules


class NoMercyRules(UnoRules):
    game = "uno_no_mercy"
    title = "UNO Show 'Em No Mercy"
    codes = NO_MERCY_CODES
    option_specs = NO_MERCY_OPTIONS

    @classmethod
    def vision_deck(cls, options: Mapping[str, Any]) -> str:
        return "uno_no_mercy"

    def deck(self) -> tuple[str, ...]:
        return tuple(sorted(NO_MERCY_CODES))

    def stacking_mode(self) -> str:
        return "no_mercy"

    def stack_error(self, st: GameState, card: UnoCard) -> str | None:
        if card.rank == "skip" and self.opt["skip_dodges_stack"]:
            return None
        value = draw_value(card.rank)
        if not value:
            return "cannot_stack"
        if self.opt["stack_rule"] == "equal_or_higher" and value < st.stack_value:
            return "stack_value_too_low"
        return None

    def stack(self, st: GameState, s: int, card: UnoCard) -> None:
        if card.rank == "skip":
            # skip_dodges_stack: the victim passes the whole stack on to the next seat
            pend = st.pending
            value, rank = st.stack_value, st.stack_rank
            self.play(st, s, card)
            if pend is not None and not st.hand_over:
                victim = st.adv(s, 1)
                st.pending = ("draw", victim, pend[2])
                st.current = victim
                st.stack_rank, st.stack_value, st.stacked = rank, value, True
            return
        super().stack(st, s, card)

    def jump_enabled(self, card: UnoCard) -> bool:
        return False

    def seven_zero(self) -> bool:
        return True

    def must_play_drawn(self) -> bool:
        return True

    def challenge_allowed(self) -> bool:
        return False

    def reflips(self, card: UnoCard) -> bool:
        return not is_number_rank(card.rank)  # first_card_action = reflip

    def first_reverse(self) -> str:
        return "dealer_first"

    def mercy(self, st: GameState) -> None:
        if st.hand_over:
            return  # cards drawn after someone went out only count for the score
        limit = self.opt["mercy_limit"]
        for s in st.active_seats():
            if st.hand_counts[s] < limit:
                continue
            st.eliminate(s)
            st.hand_counts[s] = 0
            if st.uno_vulnerable == s:
                st.uno_vulnerable = None
            st.awaiting = tuple(a for a in st.awaiting if a[1] != s)
            if st.pending is not None and st.pending[1] == s:
                st.pending = None
            if st.current == s:
                st.current = st.adv(s, 1)
        if st.active_count() <= 1 and not st.game_over:
            seats = st.active_seats()
            last = seats[0] if seats else None  # C11
            st.hand_over = st.game_over = True
            st.hand_winner = st.winner = last
            st.current = None
            st.pending = None
            st.awaiting = ()
