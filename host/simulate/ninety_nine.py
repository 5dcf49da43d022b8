"""Full-information simulator for O'NO 99 (classic, spec 3) and ONO 99 (2022, spec 4)."""
from __future__ import annotations

from typing import Any

from .base import GameSim, Truth
from .cards import number_value, ono99_2022_deck, ono99_classic_deck

HAND_SIZE = 4


class NinetyNineSim(GameSim):
    """Plays a whole 99 game: real shuffled deck, 4-card hands, refills, reshuffles.

    Players play a random card that does not bust when they have one; otherwise they press
    `out` (or, in the classic game, play the losing card). Misplays: a card from a seat that
    is not on turn, a lone O'NO 99 card, and (2022) a card that busts instead of `out`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.classic = self.game == "ono99_classic"
        o = self.options
        self.threshold: int = o["bust_threshold"]
        self.bust_on: str = o["bust_on"]
        self.deck = ono99_classic_deck() if self.classic else ono99_2022_deck()
        self.dead: list[str] = []  # 2022: hands of eliminated seats, laid face up
        self.total = 0
        self.current: int | None = 1 % self.n
        self.owed = 0  # plays still owed by `current` under Double Play / Play 2 (0: ordinary)
        self.tokens = [o.get("tokens_per_player", 3)] * self.n
        self.last_hand_loser: int | None = None
        self.quad_seat: int | None = None  # 2022: seat laying an ONO 99 set

    # ------------------------------------------------------------ bookkeeping
    def card_locations(self) -> dict[str, int]:
        return {**super().card_locations(), "dead": len(self.dead)}

    def truth(self) -> Truth:
        t: Truth = {
            "total": self.total,
            "current_seat": self.current,
            "direction": "cw" if self.direction == 1 else "ccw",
            "pending": ({"kind": "play", "seat": self.current, "count": self.owed}
                        if self.owed and self.current is not None else None),
            "awaiting": ([{"kind": "quad_ono99", "seat": self.quad_seat}]
                         if self.quad_seat is not None else []),
            "eliminated": sorted(self.eliminated),
            "active": self.n - len(self.eliminated),
            "game_over": self.game_over,
            "winner": self.winner,
            "hands": [list(h) for h in self.hands],
            "hand": self.hand_no,  # 2022: one long hand
        }
        if self.classic:
            t["tokens"] = list(self.tokens)
            t["last_hand_loser"] = self.last_hand_loser
        return t

    def active(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.eliminated]

    def adv(self, seat: int, k: int = 1, direction: int | None = None) -> int:
        d = self.direction if direction is None else direction
        s = seat
        for _ in range(k):
            s = (s + d) % self.n
            while s in self.eliminated:
                s = (s + d) % self.n
        return s

    def busts(self, total: int) -> bool:
        return total >= self.threshold if self.bust_on == "reach" else total > self.threshold

    def total_after(self, card: str) -> int:
        v = number_value(card)
        if v is not None:
            return self.total + v
        if card == "minus10":
            if self.classic:
                return self.total - 10 if self.options["allow_negative_total"] else max(0, self.total - 10)
            floor = self.options["minus10_floor"]
            if floor is None:
                return self.total - 10
            return max(self.total - 10, min(self.total, floor))  # spec C17
        return self.total

    def draw_one(self) -> str | None:
        if not self.draw_pile and len(self.discard) > 1:
            # spec 5.5 / common practice: reshuffle the discard pile except its top card
            top = self.discard.pop()
            self.draw_pile = self.discard
            self.rng.shuffle(self.draw_pile)
            self.discard = [top]
        return self.draw_pile.pop() if self.draw_pile else None

    def refill(self, seat: int) -> None:
        while len(self.hands[seat]) < HAND_SIZE:
            card = self.draw_one()
            if card is None:
                return
            self.hands[seat].append(card)

    def deal(self, leader: int) -> None:
        cards = list(self.deck)
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(self.n)]
        for _ in range(HAND_SIZE):
            for s in self.active():
                self.hands[s].append(cards.pop())
        self.draw_pile, self.discard = cards, []
        self.total, self.direction, self.owed, self.current = 0, 1, 0, leader

    # ------------------------------------------------------------ the game
    def play(self) -> None:
        self.deal(leader=1 % self.n)  # dealer 0, the seat to its left leads
        while not self.game_over:
            self.maybe_out_of_turn()
            self.take_turn()

    def maybe_out_of_turn(self) -> None:
        if self.misplay_now(0.1):  # `out` pressed at a seat that is not on turn
            seat = self.rng.choice([s for s in self.active() if s != self.current])
            self.emit({"type": "out", "seat": seat}, {"seat": seat, "reason": "wrong_seat"})
        if not self.misplay_now(0.5):
            return
        others = [s for s in self.active() if s != self.current
                  and any(c != "ono99" for c in self.hands[s])]
        if not others:
            return
        seat = self.rng.choice(others)
        card = self.rng.choice([c for c in self.hands[seat] if c != "ono99"])
        self.emit({"type": "card", "seat": seat, "card": card},
                  {"seat": seat, "reason": "out_of_turn"})

    def take_turn(self) -> None:
        seat = self.current
        assert seat is not None
        hand = self.hands[seat]
        playable = [c for c in hand if c != "ono99"]
        safe = [c for c in playable if not self.busts(self.total_after(c))]
        quad_rule = self.options.get("quad_ono99", "disabled")
        quad = not self.classic and quad_rule != "disabled" and hand.count("ono99") == 4
        lone_ono = "ono99" in hand and not quad and self.misplay_now()

        if self.classic or (lone_ono and quad_rule == "disabled"):
            if lone_ono:
                self.emit({"type": "card", "seat": seat, "card": "ono99"},
                          {"seat": seat, "reason": "ono99_unplayable"})
            if not self.classic:
                lone_ono = False  # (2022, quad_ono99 = disabled: flagged at once, as classic)
            else:
                if safe:
                    self.play_card(seat, self.rng.choice(safe))
                elif playable and self.chance(0.5):
                    self.play_card(seat, self.rng.choice(playable))  # busts: loses the hand
                else:
                    self.emit_out(seat)
                return

        if quad and (not safe or self.chance(0.7)):
            self.play_quad(seat, free=quad_rule == "free_then_play")
        elif safe:
            if lone_ono:
                # C15: the lone ONO card waits for a set; the next card voids it.
                self.quad_seat = seat
                self.emit({"type": "card", "seat": seat, "card": "ono99"})
            self.play_card(seat, self.rng.choice(safe), voids_ono=lone_ono)
        elif playable and self.misplay_now():
            card = self.rng.choice(playable)
            # spec 4.4, bust_card = not_counted: flagged, seat out, total unchanged
            self.eliminate_2022(seat)
            self.emit({"type": "card", "seat": seat, "card": card},
                      {"seat": seat, "reason": "bust_should_declare_out"})
        else:
            self.eliminate_2022(seat)
            self.emit({"type": "out", "seat": seat})

    def emit_out(self, seat: int) -> None:
        self.lose_hand(seat)
        self.emit({"type": "out", "seat": seat})

    def play_quad(self, seat: int, free: bool) -> None:
        """Four ONO 99 cards laid together (4.5): one play worth 0, or (free_then_play) no
        play at all, after which the same seat still plays."""
        for i in range(4):
            if i == 3:
                self.quad_seat = None
                for _ in range(4):
                    self.hands[seat].remove("ono99")
                    self.discard.append("ono99")
                if not free:
                    self.after_play(seat, "num-0", pass_on=False)
                self.refill(seat)
            else:
                self.quad_seat = seat
            self.emit({"type": "card", "seat": seat, "card": "ono99"})

    def play_card(self, seat: int, card: str, voids_ono: bool = False) -> None:
        self.quad_seat = None
        self.hands[seat].remove(card)
        self.discard.append(card)
        new_total = self.total_after(card)
        if self.busts(new_total):  # classic only: the 2022 bust is handled before
            self.total = new_total
            self.lose_hand(seat)
            self.emit({"type": "card", "seat": seat, "card": card})
            return
        self.total = new_total
        self.after_play(seat, card, pass_on=self.passes_obligation(card))
        self.refill(seat)
        illegal = {"seat": seat, "reason": "ono99_unplayable"} if voids_ono else None
        self.emit({"type": "card", "seat": seat, "card": card}, illegal)

    def passes_obligation(self, card: str) -> bool:
        """Does this card, as the first of two owed plays, hand the obligation on? (3.5, 4.3)"""
        two = len(self.active()) == 2
        if self.classic:
            if not self.options["hold_reverse_pass_double_play"]:
                return card == "double_play"  # double_play_on_double_play = pass_on
            return card in ("hold", "reverse", "double_play")
        if card == "play2":
            return True
        if card == "reverse":
            return not two or self.options["two_player_reverse"] == "pass_play2_back"
        return card == "num-0" and self.options["zero_passes_play2"]

    def after_play(self, seat: int, card: str, pass_on: bool) -> None:
        if card == "reverse" and len(self.active()) > 2:
            self.direction = -self.direction
        if self.owed == 2 and pass_on:
            self.current, self.owed = self.adv(seat), 2
        elif self.owed == 2:
            self.owed = 1
        elif card in ("double_play", "play2"):
            self.current, self.owed = self.adv(seat), 2
        else:
            self.current, self.owed = self.adv(seat), 0

    # ------------------------------------------------------------ losing
    def lose_hand(self, seat: int) -> None:
        """Classic: the seat loses the hand (3.4); tokens, elimination, next hand."""
        if self.options["elimination"] == "loss_with_no_tokens":
            if self.tokens[seat] == 0:
                self.eliminated.add(seat)
            else:
                self.tokens[seat] -= 1
        else:
            self.tokens[seat] -= 1
            if self.tokens[seat] <= 0:
                self.eliminated.add(seat)
        self.last_hand_loser = seat
        self.owed = 0
        if len(self.active()) == 1:
            self.game_over, self.winner, self.current = True, self.active()[0], None
            return  # C9: total, direction and hand stay as they were
        self.hand_no += 1
        if self.options["next_hand_leader"] == "left_of_dealer":
            # the deal passes one seat to the left each hand (engine's reading); the seat
            # left of the dealer leads
            self.dealer = self.adv(self.dealer, 1, direction=1)
            leader = self.adv(self.dealer, 1, direction=1)
        else:
            leader = seat if seat not in self.eliminated else self.adv(seat, 1, direction=1)
        self.deal(leader)

    def eliminate_2022(self, seat: int) -> None:
        """2022: the seat is out (4.4); its cards leave play; no reset; obligation dies."""
        self.eliminated.add(seat)
        self.dead += self.hands[seat]
        self.hands[seat] = []
        self.owed = 0  # 4.4: the obligation goes with the seat (play2_dies_with_eliminated_seat)
        self.quad_seat = None
        if self.options["reset_total_on_elimination"]:
            self.total = 0
        if len(self.active()) == 1:
            self.game_over, self.winner, self.current = True, self.active()[0], None
        else:
            self.current = self.adv(seat)
