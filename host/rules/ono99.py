"""O'NO 99 (1980/1987, `ono99_classic`) and ONO 99 (Mattel 2022, `ono99_2022`): spec 3 and 4.

The two games share the running total, the two-play obligation (Double Play / Play 2) and the
bust test; they differ in what a bust costs (a token and a new hand vs. elimination), in the
-10 floor, and in which card answers pass the obligation on.
"""
from __future__ import annotations

from typing import Any

from ..cards import CLASSIC_CODES, CLASSIC_DECK, ONO2022_CODES, ONO2022_DECK, number_value
from .base import Ruleset
from .options import CLASSIC_OPTIONS, ONO2022_OPTIONS
from .state import GameState

# The quad ONO discard is handled as a card worth 0 with no other effect.
QUAD = "quad_ono99"


class Ono99Rules(Ruleset):
    """Everything the two 99 games share; subclasses fill in the differences."""

    family = "ninety_nine"
    give_up = "out"  # no voluntary draw in the 99 games: "I cannot play" is `out`
    two_play_card = ""

    def start(self, st: GameState, setup: dict[str, Any]) -> None:
        st.current = st.adv(st.dealer, 1, direction=1)
        st.lead = not any(k in setup for k in ("total", "current_seat", "pending"))

    # --- event dispatch -------------------------------------------------------------------
    def apply(self, st: GameState, ev: dict[str, Any]) -> None:
        etype = ev["type"]
        seat = ev.get("seat")
        if st.quad is not None and not (etype == "card" and ev["card"] == "ono99"
                                        and (seat is None or seat == st.quad[0])):
            # C15: anything but the next ONO card from the same seat breaks the set.
            qseat = st.quad[0]
            st.quad = None
            st.drop_awaiting(QUAD)
            st.flag(qseat, "ono99_unplayable")
        if etype == "card":
            self._card(st, st.current if seat is None else seat, ev["card"])
        elif etype == "out":
            s = st.current if seat is None else seat
            if st.game_over or s is None or s != st.current:
                st.flag(s, "wrong_seat")
            else:
                self.lose(st, s)
        elif etype == "draw":
            pass  # refilling the hand is not observable and changes nothing (3.3)
        else:
            st.flag(seat, "wrong_seat")

    def _card(self, st: GameState, s: int | None, card: str) -> None:
        if st.game_over or s is None or s != st.current:
            st.flag(s, "out_of_turn")
            return
        if card == "ono99":
            self.ono99(st, s)
            return
        if not self.may_lead(st, card):
            st.flag(s, "no_match")
            return
        self.play(st, s, card)

    # --- the turn -------------------------------------------------------------------------
    def busts(self, total: int) -> bool:
        if self.opt["bust_on"] == "reach":
            return total >= self.opt["bust_threshold"]
        return total > self.opt["bust_threshold"]

    def play(self, st: GameState, s: int, card: str) -> None:
        new_total = self.new_total(st.total, card)
        if self.busts(new_total):
            self.bust(st, s, new_total)
            return
        st.total = new_total
        st.lead = False
        two = st.active_count() == 2
        pend = st.pending
        if pend is not None and pend[2] >= 2:
            if self.passes_obligation(card, two):
                if card == "reverse" and not two:
                    st.direction = -st.direction
                nxt = st.adv(s, 1)
                st.pending = ("play", nxt, 2)
                st.current = nxt
                return
            if card == "reverse" and not two:
                st.direction = -st.direction  # counts as the first play, still flips
            st.pending = ("play", s, 1)
            st.current = s
            return
        if card == self.two_play_card:
            nxt = st.adv(s, 1)
            st.pending = ("play", nxt, 2)
            st.current = nxt
            return
        if card == "reverse" and not two:
            st.direction = -st.direction
        st.pending = None
        st.current = st.adv(s, 1)

    def new_total(self, total: int, card: str) -> int:
        value = number_value(card)
        if value is not None:
            return total + value
        if card == "minus10":
            floor = self.minus10_floor()
            return total - 10 if floor is None else max(total - 10, min(total, floor))
        return total

    # --- hooks ----------------------------------------------------------------------------
    def minus10_floor(self) -> int | None:
        raise NotImplementedError

    def passes_obligation(self, card: str, two_active: bool) -> bool:
        raise NotImplementedError

    def may_lead(self, st: GameState, card: str) -> bool:
        return True

    def ono99(self, st: GameState, s: int) -> None:
        raise NotImplementedError

    def bust(self, st: GameState, s: int, new_total: int) -> None:
        raise NotImplementedError

    def lose(self, st: GameState, s: int) -> None:
        raise NotImplementedError

    def end_game(self, st: GameState) -> None:
        st.game_over = True
        st.hand_over = True
        st.winner = st.active_seats()[0] if st.active_count() == 1 else None
        st.current = None
        st.pending = None


class ClassicRules(Ono99Rules):
    game = "ono99_classic"
    title = "O'NO 99 (1980/87)"
    codes = CLASSIC_CODES
    option_specs = CLASSIC_OPTIONS
    player_range = (2, 8)  # 24 tokens, 3 each
    token_hands = True
    two_play_card = "double_play"

    def deck(self) -> tuple[str, ...]:
        return tuple(sorted(set(CLASSIC_DECK)))

    def start(self, st: GameState, setup: dict[str, Any]) -> None:
        super().start(st, setup)
        if "tokens" in setup:
            st.tokens = tuple(self._int_list(setup, "tokens"))
        else:
            st.tokens = (self.opt["tokens_per_player"],) * self.players

    def minus10_floor(self) -> int | None:
        return None if self.opt["allow_negative_total"] else 0

    def passes_obligation(self, card: str, two_active: bool) -> bool:
        if card == "double_play":
            return True  # double_play_on_double_play = pass_on: never four
        return card in ("hold", "reverse") and self.opt["hold_reverse_pass_double_play"]

    def may_lead(self, st: GameState, card: str) -> bool:
        return not (self.opt["lead_must_be_number"] and st.lead and number_value(card) is None)

    def ono99(self, st: GameState, s: int) -> None:
        st.flag(s, "ono99_unplayable")

    def bust(self, st: GameState, s: int, new_total: int) -> None:
        st.total = new_total  # C9: if the game ends here the busting total stays visible
        self.lose(st, s)

    def lose(self, st: GameState, s: int) -> None:
        """Seat `s` loses the hand (3.4): a token, maybe its place, then a new hand."""
        tokens = list(st.tokens)
        if self.opt["elimination"] == "loss_with_no_tokens":
            if tokens[s] <= 0:
                st.eliminate(s)
            else:
                tokens[s] -= 1
        else:
            if tokens[s] > 0:
                tokens[s] -= 1
            if tokens[s] <= 0:
                st.eliminate(s)
        st.tokens = tuple(tokens)
        st.last_hand_loser = s
        st.pending = None
        if st.active_count() <= 1:
            self.end_game(st)
            return
        st.total = 0
        st.direction = 1
        st.hand += 1
        st.lead = True
        if self.opt["next_hand_leader"] == "loser":
            st.current = s if st.active(s) else st.adv(s, 1)
        else:
            # the deal passes to the left each hand; the seat left of the new dealer leads
            st.dealer = st.adv(st.dealer, 1)
            st.current = st.adv(st.dealer, 1)


class Ono2022Rules(Ono99Rules):
    game = "ono99_2022"
    title = "ONO 99 (2022)"
    codes = ONO2022_CODES
    option_specs = ONO2022_OPTIONS
    two_play_card = "play2"

    def deck(self) -> tuple[str, ...]:
        return tuple(sorted(ONO2022_DECK))

    def minus10_floor(self) -> int | None:
        return self.opt["minus10_floor"]

    def passes_obligation(self, card: str, two_active: bool) -> bool:
        if card == "play2":
            return True
        if card == "reverse":
            return not two_active or self.opt["two_player_reverse"] == "pass_play2_back"
        return card == "num-0" and self.opt["zero_passes_play2"]

    def ono99(self, st: GameState, s: int) -> None:
        mode = self.opt["quad_ono99"]
        if mode == "disabled":
            st.flag(s, "ono99_unplayable")
            return
        count = 1 if st.quad is None else st.quad[1] + 1
        if count == 1:
            st.set_awaiting(QUAD, s)
        if count < 4:
            st.quad = (s, count)
            return
        st.quad = None
        st.drop_awaiting(QUAD)
        if mode == "counts_as_play":
            self.play(st, s, QUAD)  # worth 0, one play (A10)
        # free_then_play: the discard is free and the same seat still plays a card

    def playable(self, before: GameState, after: GameState) -> bool:
        # a lone ONO 99 card counts only inside a set already begun (4.5, C15)
        return after.illegal is None and (before.quad is not None or not after.awaits(QUAD))

    def bust(self, st: GameState, s: int, new_total: int) -> None:
        st.flag(s, "bust_should_declare_out")
        if self.opt["bust_card"] == "counted":
            st.total = new_total
        self.lose(st, s)

    def lose(self, st: GameState, s: int) -> None:
        """Seat `s` is out (4.4): eliminated, play continues from it, no reset by default."""
        pend = st.pending
        st.eliminate(s)
        st.quad = None
        st.drop_awaiting(QUAD)
        if self.opt["reset_total_on_elimination"]:
            st.total = 0
        if st.active_count() <= 1:
            self.end_game(st)
            return
        nxt = st.adv(s, 1)
        st.current = nxt
        st.pending = None
        if (pend is not None and pend[1] == s and pend[2] >= 2
                and not self.opt["play2_dies_with_eliminated_seat"]):
            st.pending = ("play", nxt, pend[2])
