"""UNO (`uno`, spec 5 and 6), and the base of UNO Show 'Em No Mercy (no_mercy.py) and Ena
(ena.py), which differ from it through the small overridable hooks below.

Vocabulary: the *victim* owes a draw (`pending`), a *side penalty* does not change the turn
(`penalty`), an *accepted* action is a legal card or a turn draw (it closes UNO windows, C2).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..cards import (UNO_CODES, UnoCard, draw_value, is_number_rank, parse_uno,
                     uno_card_set, uno_points)
from .base import Ruleset
from .options import UNO_OPTIONS, ConfigError
from .state import GameState

HAND_SIZE = 7
BLOCKING = ("target", "challenge_result", "reflip")  # inputs a card cannot stand in for


class UnoRules(Ruleset):
    game = "uno"
    title = "UNO"
    family = "uno"
    codes = UNO_CODES
    option_specs = UNO_OPTIONS

    @classmethod
    def vision_deck(cls, options: Mapping[str, Any]) -> str:
        return "uno" if str(options.get("deck", "108")) == "108" else "uno112"

    def deck(self) -> tuple[str, ...]:
        return uno_card_set(self.opt.get("deck", "108"))

    # --- setup ----------------------------------------------------------------------------
    def start(self, st: GameState, setup: dict[str, Any]) -> None:
        n = self.players
        st.hand_counts = self._int_list(setup, "hand_counts") if "hand_counts" in setup \
            else [HAND_SIZE] * n
        for s in st.eliminated:
            st.hand_counts[s] = 0
        st.scores = self._int_list(setup, "scores") if "scores" in setup else [0] * n
        top = setup.get("top")
        if top is None:
            return  # the first event must be a flip
        if top not in self.codes:
            raise ConfigError(f"bad setup top {top!r} (not a {self.game} card code)")
        card = parse_uno(top)
        st.top = top
        st.color = setup.get("color") or card.colour
        st.flipped = True
        st.current = st.adv(st.dealer, 1)
        value = draw_value(card.rank)
        if value:
            st.stack_rank, st.stack_value = card.rank, value

    def _pending(self, value: Any) -> tuple[str, int, int]:
        pend = super()._pending(value)
        if pend[0] == "play":
            raise ConfigError(f"bad setup pending {value!r} (UNO family: draw or roulette)")
        return pend

    # --- option views (the three games name some rules differently) -----------------------
    def stacking_mode(self) -> str:
        return self.opt["stacking"]

    def jump_enabled(self, card: UnoCard) -> bool:
        return self.opt["jump_in"] and (card.colour is not None or self.opt["jump_in_wilds"])

    def jump_adds_draws(self) -> bool:
        return self.opt["jump_in_action"] == "cumulative"

    def jump_cancels(self) -> bool:
        return self.opt["jump_in_action"] == "cancel_and_replace"

    def seven_zero(self) -> bool:
        return self.opt["seven_zero"]

    def must_play_drawn(self) -> bool:
        return self.opt["draw_until_playable"]

    def catch_penalty(self) -> int:
        return self.opt["uno_penalty"]

    def misplay_penalty(self) -> int:
        return self.opt["illegal_play_penalty"]

    def challenge_allowed(self) -> bool:
        return self.opt["wd4_challenge"]

    # --- dispatch -------------------------------------------------------------------------
    def apply(self, st: GameState, ev: dict[str, Any]) -> None:
        etype = ev["type"]
        seat = ev.get("seat")
        owner = self.open_turn_owner(st)
        if etype != "end_turn" and owner is not None:
            # a multi-card turn closes on any event by another seat (6, 7.2)
            actor = seat if seat is not None else (st.current if etype == "card" else None)
            if actor != owner:
                self.close_open_turn(st)
        handler = getattr(self, "on_" + etype, None)
        if handler is None:
            st.flag(seat, "wrong_seat")  # `out` is a 99-game button
            return
        handler(st, ev)

    # --- multi-card turns: same number, Discard All, several stacked draw cards ------------
    @staticmethod
    def open_turn_owner(st: GameState) -> int | None:
        if st.multi_seat is not None:
            return st.multi_seat
        if st.absorb is not None:
            return st.absorb[0]
        return st.stack_seat

    @staticmethod
    def close_open_turn(st: GameState) -> None:
        st.multi_seat = None
        st.absorb = None
        st.stack_seat = None

    def adds_to_own_stack(self, st: GameState, s: int | None, card: UnoCard) -> bool:
        """stack_one_per_turn=false: the last stacker may add more draw cards to the count it
        has just passed on (the victim stays the seat after it)."""
        pend = st.pending
        return (s is not None and st.stack_seat == s and pend is not None and pend[0] == "draw"
                and not st.hand_over and self.stack_error(st, card) is None)

    # --- cards ----------------------------------------------------------------------------
    def on_card(self, st: GameState, ev: dict[str, Any]) -> None:
        code = ev["card"]
        card = parse_uno(code)
        s = ev.get("seat")
        if s is None:
            s = st.current
        if st.absorb is not None and s == st.absorb[0] and card.colour == st.absorb[1]:
            self.shed(st, st.absorb[0])  # Discard All: same-colour cards leave the hand without effect
            return
        if (st.multi_seat is not None and s == st.multi_seat and is_number_rank(card.rank)
                and card.colour is not None and st.top is not None
                and parse_uno(st.top).rank == card.rank):
            st.top = code
            st.color = card.colour
            self.shed(st, st.multi_seat)
            return
        if self.adds_to_own_stack(st, s, card):
            self.stack(st, s, card)  # type: ignore[arg-type]
            return
        if st.game_over or st.hand_over or not st.flipped or s is None or not st.active(s):
            st.flag(s, "out_of_turn")
            return
        if any(st.awaits(kind) for kind in BLOCKING):
            self.misplay(st, s, "awaiting_input")
            return
        if self.may_jump(st, s, card):
            self.jump_in(st, s, card)
            return
        if s != st.current:
            self.misplay(st, s, self.out_of_turn_reason())
            return
        pend = st.pending
        if pend is not None and pend[1] == s:
            if pend[0] == "roulette":
                if self.opt.get("roulette_stackable") and code == "wild_color_roulette":
                    self.play(st, s, card)  # passes the roulette on to the next seat
                else:
                    self.misplay(st, s, "must_draw")
                return
            reason = self.stack_error(st, card)
            if reason is not None:
                self.misplay(st, s, reason)
                return
            self.stack(st, s, card)
            return
        if st.awaits("color"):
            if not self.opt["infer_color_from_next_card"]:
                self.misplay(st, s, "awaiting_input")
                return
        elif not self.matches(st, card):
            self.misplay(st, s, "no_match")
            return
        self.play(st, s, card)

    def out_of_turn_reason(self) -> str:
        return "out_of_turn"

    def matches(self, st: GameState, card: UnoCard) -> bool:
        if card.colour is None or st.color is None or card.colour == st.color:
            return True
        return st.top is not None and parse_uno(st.top).rank == card.rank

    def misplay(self, st: GameState, s: int, reason: str) -> None:
        st.flag(s, reason)
        st.add_penalty(s, self.misplay_penalty())

    def accept(self, st: GameState, s: int) -> None:
        """Bookkeeping of every accepted turn action by seat `s` (C2, C3)."""
        if st.uno_vulnerable is not None and st.uno_vulnerable != s:
            st.uno_vulnerable = None
        if st.uno_called is not None and st.uno_called != s:
            st.uno_called = None
        st.drop_awaiting("play_or_pass")
        st.last_flip = False

    def land(self, st: GameState, s: int, card: UnoCard) -> bool:
        """The card is on the pile and out of the hand. Returns True if the hand is empty."""
        self.accept(st, s)
        st.drop_awaiting("color")  # a colour still owed for the previous wild is moot now
        st.top = card.code
        st.color = card.colour
        st.hand_counts[s] -= 1
        if st.hand_counts[s] == 1 and st.uno_called != s:
            st.uno_vulnerable = s
        return st.hand_counts[s] <= 0

    def shed(self, st: GameState, s: int) -> None:
        """A card that leaves the hand with no effect of its own (Discard All, multi-number)."""
        st.hand_counts[s] -= 1
        if st.hand_counts[s] == 1 and st.uno_called != s:
            st.uno_vulnerable = s
        if st.hand_counts[s] <= 0:
            self.end_hand(st, s)

    def play(self, st: GameState, s: int, card: UnoCard, draw_total: int | None = None) -> None:
        last = self.land(st, s, card)
        st.pending = None
        self.effect(st, s, card, last, draw_total)
        if st.hand_over:
            return  # the effect itself ended the hand (C18, mercy rule)
        if st.hand_counts[s] <= 0 and not st.awaits("target", s):
            self.end_hand(st, s)  # gone out (a Shuffle Hands redeal may have refilled it)
        elif card.colour is None and card.rank != "wild_color_roulette":
            st.set_awaiting("color", s)  # the roulette's colour is named in effect()

    def effect(self, st: GameState, s: int, card: UnoCard, last: bool,
               draw_total: int | None) -> None:
        """Apply a played card's effect and move the turn (5.3, 6, 7.2)."""
        rank = card.rank
        two = st.active_count() == 2
        st.stack_rank, st.stack_value, st.stacked, st.wd4_by = None, 0, False, None
        if is_number_rank(rank):
            st.current = st.adv(s, 1)
            if self.seven_zero() and not last:
                if rank == "7":
                    st.set_awaiting("target", s)
                elif rank == "0":
                    self.rotate_hands(st)
            if self.opt.get("multi_same_number"):
                st.multi_seat = s
        elif rank == "skip":
            st.current = st.adv(s, 2)
        elif rank == "skip_all":
            st.current = s
        elif rank == "reverse":
            if two:
                st.current = s
            else:
                self.flip_direction(st)
                st.current = st.adv(s, 1)
        elif rank == "discard_all":
            st.absorb = (s, card.colour)  # type: ignore[assignment]
            st.current = st.adv(s, 1)
        elif rank == "wild_color_roulette":
            st.current = st.adv(s, 1)
            if not last:
                victim = st.current
                st.pending = ("roulette", victim, 0)
                chooser = victim if self.opt.get("roulette_chooser", "victim") == "victim" else s
                st.set_awaiting("color", chooser)
        elif rank == "wild_shuffle_hands":
            st.current = st.adv(s, 1)
            if not (last and self.opt.get("shuffle_hands_last_card") == "goes_out"):
                self.shuffle_hands(st, s)
        elif rank == "wild_swap_hands":
            st.current = st.adv(s, 1)
            if not (last and self.opt.get("swap_hands_last_card", "goes_out") == "goes_out"):
                st.set_awaiting("target", s)
        elif draw_value(rank):
            if rank == "wild_reverse_draw4" and not two:
                self.flip_direction(st)
            self.start_draw(st, s, rank, draw_total or draw_value(rank))
            if not last and self.opt.get("stack_one_per_turn", True) is False \
                    and self.stacking_mode() != "none":
                st.stack_seat = s  # may add more draw cards before the next seat acts
        else:  # plain wild, customizable wild
            st.current = st.adv(s, 1)

    def flip_direction(self, st: GameState) -> None:
        st.direction = -st.direction
        st.last_flip = True

    def start_draw(self, st: GameState, s: int, rank: str, count: int) -> None:
        victim = st.adv(s, 1)
        st.pending = ("draw", victim, count)
        st.current = victim
        st.stack_rank, st.stack_value = rank, draw_value(rank)
        st.wd4_by = s if rank == "wild_draw4" else None

    # --- stacking -------------------------------------------------------------------------
    def stack_error(self, st: GameState, card: UnoCard) -> str | None:
        """Why `card` may not answer the pending draw (None: it may)."""
        mode = self.stacking_mode()
        if mode == "none":
            return "must_draw"
        if st.challenge is not None:
            return "cannot_stack"  # a lost challenge: the six cards are owed, no stacking
        rank = card.rank
        if not draw_value(rank):
            return "cannot_stack"
        last = st.stack_rank
        if mode == "same_type" and rank != last:
            return "cannot_stack"
        if mode == "draw2_into_draw4" and not (rank == last or (last == "draw2"
                                                               and rank == "wild_draw4")):
            return "cannot_stack"
        return None

    def stack(self, st: GameState, s: int, card: UnoCard) -> None:
        """The victim answers its pending draw with a draw card: the count passes on."""
        owed = st.pending[2] if st.pending else 0
        self.play(st, s, card, draw_total=owed + draw_value(card.rank))
        if st.pending is not None and st.pending[0] == "draw":
            st.stacked = True

    # --- jump-in (UNO house rule) / overtaking (Ena) --------------------------------------
    def may_jump(self, st: GameState, s: int, card: UnoCard) -> bool:
        if st.top != card.code or not self.jump_enabled(card):
            return False
        if s != st.current:
            return True
        # The victim of a draw answering with the identical card: when in-turn stacking takes
        # it, it stacks; otherwise it is a jump-in / overtake (C12, C13).
        pend = st.pending
        return (pend is not None and pend[0] == "draw" and pend[1] == s
                and self.stack_error(st, card) is not None)

    def jump_in(self, st: GameState, s: int, card: UnoCard) -> None:
        """Play continues from the jumper as if it had played in turn (6, 8.3, C12, C13)."""
        pend = st.pending
        extra = 0
        if pend is not None and pend[0] == "draw" and draw_value(card.rank) and self.jump_adds_draws():
            extra = pend[2]
        if self.jump_cancels() and st.last_flip:
            st.direction = -st.direction  # the first Reverse is cancelled, the jumper's applies
        st.pending = None
        st.challenge = None
        st.drop_awaiting("play_or_pass")
        total = extra + draw_value(card.rank) if draw_value(card.rank) else None
        self.play(st, s, card, draw_total=total)
        if extra and st.pending is not None:
            st.stacked = True

    # --- hand exchanges (7-0, Shuffle Hands, Swap Hands) ----------------------------------
    def rotate_hands(self, st: GameState) -> None:
        old = list(st.hand_counts)
        for s in st.active_seats():
            st.hand_counts[st.adv(s, 1)] = old[s]
        st.uno_vulnerable = None  # C5
        self.mercy(st)

    def shuffle_hands(self, st: GameState, s: int) -> None:
        seats = st.active_seats()
        pool = sum(st.hand_counts[a] for a in seats)
        first = st.adv(s, 1, direction=1)
        order = [first]
        while len(order) < len(seats):
            order.append(st.adv(order[-1], 1, direction=1))
        share, rest = divmod(pool, len(seats))
        for i, seat in enumerate(order):
            st.hand_counts[seat] = share + (1 if i < rest else 0)
        st.uno_vulnerable = None  # C5
        if share == 0:
            # C18: a seat dealt nothing has gone out: the first such seat in play order
            seat = s
            for _ in range(len(seats)):
                seat = st.adv(seat, 1)
                if st.hand_counts[seat] == 0:
                    self.end_hand(st, seat)
                    return

    def on_target(self, st: GameState, ev: dict[str, Any]) -> None:
        seat = ev.get("seat")
        owners = [a[1] for a in st.awaiting if a[0] == "target"]
        s = seat if seat is not None else (owners[0] if owners else None)
        target = ev["target"]
        if s is None or s not in owners or target == s or not st.active(target):
            st.flag(s, "wrong_seat")
            return
        st.drop_awaiting("target", s)
        counts = st.hand_counts
        counts[s], counts[target] = counts[target], counts[s]
        if st.uno_vulnerable in (s, target):
            st.uno_vulnerable = None  # C5
        for seat_ in (target, s):
            if counts[seat_] == 0 and not st.hand_over:
                self.end_hand(st, seat_)  # Swap Hands as last card with swap_hands_last_card=swap
                return
        self.mercy(st)

    # --- end of hand, scoring -------------------------------------------------------------
    def end_hand(self, st: GameState, winner: int) -> None:
        st.hand_over = True
        st.hand_winner = winner
        st.current = None
        st.awaiting = tuple(a for a in st.awaiting if a[0] == "challenge_result")
        if st.top is not None and parse_uno(st.top).colour is None:
            st.color = None  # C8: a final wild names no colour
        st.uno_vulnerable = None
        self.close_open_turn(st)
        st.revealed = ()
        if st.pending is not None and st.pending[0] != "draw":
            st.pending = None  # C6: nothing but a draw is owed after the last card
        if not self.opt.get("wd4_final_card_challenge", False):
            st.wd4_by = None
        if self.opt.get("scoring") == "none":
            st.game_over = True  # C4
            st.winner = winner

    def on_reveal(self, st: GameState, ev: dict[str, Any]) -> None:
        s = ev["seat"]
        if not st.hand_over or s == st.hand_winner or s in st.revealed or not st.active(s):
            st.flag(s, "wrong_seat")
            return
        st.revealed = st.revealed + (s,)
        points = sum(uno_points(code) for code in ev["cards"])
        scoring = self.opt.get("scoring")
        if scoring == "winner_collects" and st.hand_winner is not None:
            st.scores[st.hand_winner] += points
        elif scoring == "cumulative_low":
            st.scores[s] += points
        self.check_game_end(st)

    def check_game_end(self, st: GameState) -> None:
        if st.game_over:
            return
        target = self.opt["target_score"]
        scoring = self.opt.get("scoring")
        w = st.hand_winner
        seats = st.active_seats()
        if any(a != w and a not in st.revealed for a in seats):
            return  # C22: the hand is scored when every loser has revealed
        if scoring == "winner_collects" and w is not None:
            if st.scores[w] >= target:
                st.game_over, st.winner = True, w
        elif scoring == "cumulative_low":
            if max(st.scores[a] for a in seats) >= target:
                low = min(st.scores[a] for a in seats)
                best = [a for a in seats if st.scores[a] == low]
                if len(best) == 1:  # C10: a tie plays on
                    st.game_over, st.winner = True, best[0]

    def on_new_hand(self, st: GameState, ev: dict[str, Any]) -> None:
        if not st.hand_over or st.game_over:
            st.flag(ev.get("seat"), "wrong_seat")
            return
        dealer = ev.get("dealer")
        st.dealer = dealer if dealer is not None else st.adv(st.dealer, 1, direction=1)
        st.hand += 1
        st.direction = 1
        st.current = None
        st.pending = None
        st.awaiting = ()
        st.penalty = {}
        st.top = None
        st.color = None
        st.hand_counts = [0 if not st.active(s) else HAND_SIZE for s in range(self.players)]
        st.uno_vulnerable = None
        st.uno_called = None
        st.hand_over = False
        st.hand_winner = None
        st.revealed = ()
        st.flipped = False
        st.challenge = None
        st.wd4_by = None
        st.stack_rank, st.stack_value, st.stacked = None, 0, False
        st.last_flip = False
        self.close_open_turn(st)

    # --- the starting card ----------------------------------------------------------------
    def reflips(self, card: UnoCard) -> bool:
        if card.rank == "wild_draw4":
            return True
        if card.rank in ("wild_shuffle_hands", "wild_swap_hands", "wild_custom"):
            if self.opt["first_special_wild"] == "reflip":
                return True
            return self.opt["first_wild"] == "reflip"
        return card.rank == "wild" and self.opt["first_wild"] == "reflip"

    def on_flip(self, st: GameState, ev: dict[str, Any]) -> None:
        if not (st.awaits("reflip") or (not st.flipped and not st.hand_over and st.top is None)):
            st.flag(None, "wrong_seat")
            return
        st.drop_awaiting("reflip")
        card = parse_uno(ev["card"])
        if self.reflips(card):
            st.top = st.color = None
            st.current = None
            st.flipped = False
            st.set_awaiting("reflip", st.dealer)
            return
        st.flipped = True
        st.top = card.code
        st.color = card.colour
        st.pending = None
        dealer = st.dealer
        first = st.adv(dealer, 1)
        rank = card.rank
        if rank == "skip":
            st.current = st.adv(dealer, 2)
        elif rank == "reverse":
            if st.active_count() == 2:
                st.current = dealer  # C1: as a Skip, direction stays cw
            else:
                st.direction = -st.direction
                st.current = dealer if self.first_reverse() == "dealer_first" \
                    else st.adv(dealer, 1)
        elif draw_value(rank):
            st.current = first
            self.start_draw(st, dealer, rank, draw_value(rank))
            st.wd4_by = None  # nobody played it: nothing to challenge
            if card.colour is None:
                st.set_awaiting("color", dealer)
        elif card.colour is None:
            st.current = first
            st.set_awaiting("color", self.first_wild_chooser(st, first))
        else:
            st.current = first

    def first_reverse(self) -> str:
        return self.opt["first_reverse"]

    def first_wild_chooser(self, st: GameState, first: int) -> int:
        return first

    # --- buttons --------------------------------------------------------------------------
    def gain(self, st: GameState, s: int, count: int) -> None:
        """Seat `s` takes `count` cards: an earlier UNO call no longer covers it (C3)."""
        st.hand_counts[s] += count
        if st.uno_called == s:
            st.uno_called = None
        if st.uno_vulnerable == s and st.hand_counts[s] != 1:
            st.uno_vulnerable = None

    def expected_drawer(self, st: GameState) -> int | None:
        if st.pending is not None:
            return st.pending[1]
        if st.current is not None:
            return st.current
        owing = [s for s, c in st.penalty.items() if c > 0]
        return owing[0] if len(owing) == 1 else None

    def on_draw(self, st: GameState, ev: dict[str, Any]) -> None:
        seat = ev.get("seat")
        s = seat if seat is not None else self.expected_drawer(st)
        if s is None or not st.active(s):
            st.flag(s, "wrong_seat")
            return
        owed_penalty = st.penalty.get(s, 0)
        pend = st.pending if st.pending is not None and st.pending[1] == s else None
        count = ev.get("count")
        if count is None:
            owed_turn = pend[2] if pend is not None and pend[0] == "draw" else 0
            count = (owed_penalty + owed_turn) or 1
        if owed_penalty:
            paid = min(count, owed_penalty)  # 2.3: the side penalty is paid first
            st.penalty[s] = owed_penalty - paid
            if not st.penalty[s]:
                del st.penalty[s]
            self.gain(st, s, paid)
            count -= paid
            if count == 0:
                self.mercy(st)
                return
        if pend is not None:
            if st.awaits("challenge_result"):
                st.flag(s, "wrong_seat")
                return
            if not st.hand_over:
                self.accept(st, s)
            self.gain(st, s, count)
            left = pend[2] - count if pend[0] == "draw" else 0
            if left > 0:
                st.pending = ("draw", s, left)
            else:
                st.pending = None
                st.challenge = None
                st.wd4_by = None
                st.stack_rank, st.stack_value, st.stacked = None, 0, False
                if not st.hand_over:
                    st.current = st.adv(s, 1)
            self.mercy(st)
            return
        if st.hand_over or s != st.current or any(st.awaits(k) for k in BLOCKING):
            if owed_penalty:
                self.gain(st, s, count)  # more than the penalty: trust the count
                self.mercy(st)
            else:
                st.flag(s, "wrong_seat")
            return
        self.accept(st, s)
        self.gain(st, s, count)
        if not self.must_play_drawn():
            st.set_awaiting("play_or_pass", s)  # C21: only where a pass answers the draw
        self.mercy(st)

    def on_pass(self, st: GameState, ev: dict[str, Any]) -> None:
        seat = ev.get("seat")
        s = seat if seat is not None else st.current
        if s is None or st.hand_over or s != st.current:
            st.flag(s, "wrong_seat")
            return
        if not st.awaits("play_or_pass", s) or self.must_play_drawn() or (
                st.pending is not None and st.pending[1] == s):
            st.flag(s, "pass_not_allowed")
            return
        st.drop_awaiting("play_or_pass", s)
        st.current = st.adv(s, 1)

    def on_color(self, st: GameState, ev: dict[str, Any]) -> None:
        seat = ev.get("seat")
        owners = [a[1] for a in st.awaiting if a[0] == "color"]
        s = seat if seat is not None else (owners[0] if owners else None)
        if s is None or s not in owners:
            st.flag(s, "wrong_seat")
            return
        st.drop_awaiting("color", s)
        st.color = ev["color"]

    def on_uno(self, st: GameState, ev: dict[str, Any]) -> None:
        seat = ev.get("seat")
        s = seat if seat is not None else st.current
        if s is None:
            st.flag(None, "wrong_seat")
            return
        st.uno_called = s
        if st.uno_vulnerable == s:
            st.uno_vulnerable = None

    def on_catch(self, st: GameState, ev: dict[str, Any]) -> None:
        catcher = ev.get("seat")
        target = ev["target"]
        if st.uno_vulnerable == target and catcher != target and not st.hand_over:
            st.add_penalty(target, self.catch_penalty())
            st.uno_vulnerable = None
            return
        st.flag(catcher, "invalid_catch")
        if catcher is not None:
            st.add_penalty(catcher, self.opt["false_catch_penalty"])

    def on_challenge(self, st: GameState, ev: dict[str, Any]) -> None:
        pend = st.pending
        seat = ev.get("seat")
        s = seat if seat is not None else (pend[1] if pend is not None else None)
        ok = (self.challenge_allowed() and pend is not None and pend[0] == "draw"
              and pend[1] == s and st.wd4_by is not None and st.challenge is None
              and (not st.stacked or self.opt.get("wd4_challenge_in_stack", False)))
        player = st.wd4_by
        if not ok or s is None or player is None:
            st.flag(s, "wrong_seat")
            return
        st.challenge = (s, player)
        st.set_awaiting("challenge_result", player)

    def on_challenge_result(self, st: GameState, ev: dict[str, Any]) -> None:
        if st.challenge is None or not st.awaits("challenge_result"):
            st.flag(ev.get("seat"), "wrong_seat")
            return
        challenger, player = st.challenge
        st.drop_awaiting("challenge_result")
        st.wd4_by = None
        if ev["guilty"]:
            st.add_penalty(player, 4)
            st.pending = None
            st.challenge = None
            st.stack_rank, st.stack_value, st.stacked = None, 0, False
            if not st.hand_over:
                st.current = challenger if self.opt["wd4_guilty_next"] == "challenger_plays" \
                    else st.adv(challenger, 1)
        else:
            owed = st.pending[2] if st.pending is not None else 4
            st.pending = ("draw", challenger, owed + 2)
            # st.challenge stays set: the victim must now draw, no stacking (stack_error)

    def on_end_turn(self, st: GameState, ev: dict[str, Any]) -> None:
        seat = ev.get("seat")
        owner = self.open_turn_owner(st)
        if owner is None or (seat is not None and seat != owner):
            st.flag(seat, "wrong_seat")
            return
        self.close_open_turn(st)

    # --- No Mercy's mercy rule (a no-op elsewhere) ------------------------------------------
    def mercy(self, st: GameState) -> None:
        return
