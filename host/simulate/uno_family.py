"""Full-information simulator for UNO (spec 5), UNO Show 'Em No Mercy (spec 7) and Ena (spec 8).

The simulator holds every hand and the draw pile, plays by a simple policy (match colour or
symbol, stack when it can, pick the colour it holds most), and now and then misplays: a card
that does not match, a card out of turn, a card that does not answer a pending draw, a pass
without a draw, a wrong catch; it also forgets to call UNO and gets caught, and challenges Wild
Draw Fours whose truth (guilty or not) comes from the real hand.
"""
from __future__ import annotations

from typing import Any

from .base import EventBudgetSpent, GameSim, Truth
from .cards import (COLORS, color_of, draw_value, is_number, is_wild, no_mercy_deck, points,
                    rank_of, uno_deck)

DEAL = 7


class UnoFamilySim(GameSim):

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        o = self.options
        self.nomercy = self.game == "uno_no_mercy"
        self.ena = self.game == "ena"
        self.deck = no_mercy_deck() if self.nomercy else uno_deck(o.get("deck", "108"))
        if self.ena:
            self.mistake_penalty = o["mistake_penalty"]
            self.call_penalty = self.mistake_penalty if o["ena_call_penalty"] is None else o["ena_call_penalty"]
        elif self.nomercy:
            self.call_penalty, self.mistake_penalty = 2, 0
        else:
            self.call_penalty, self.mistake_penalty = o["uno_penalty"], o["illegal_play_penalty"]
        self.challenges = (not self.nomercy) and o.get("wd4_challenge", True)
        self.false_catch_penalty: int = 0 if self.ena else o.get("false_catch_penalty", 0)
        # UNO house rules (spec 6); No Mercy makes 7-0 and drawing until playable official
        self.stacking: str = o.get("stacking", "none")
        self.jump_in: bool = o.get("jump_in", False)
        self.seven_zero: bool = self.nomercy or o.get("seven_zero", False)
        self.draw_until: bool = self.nomercy or o.get("draw_until_playable", False)
        self.top: str | None = None
        self.color: str | None = None
        self.top_from_flip = False
        self.top_fresh = False  # no turn action has happened since the top card landed
        self.last_player: int | None = None  # who laid the top card
        self.next_card: tuple[int, str] | None = None  # a card that will show a wild's colour
        self.current: int | None = None
        # {"kind": "draw", "seat", "count", "last" (value of the last draw card), "rank",
        #  "wd4_by" (challengeable WD4 player or None), "guilty", "answerable"}
        # or {"kind": "roulette", "seat"}
        self.pending: dict[str, Any] | None = None
        self.penalty: dict[int, int] = {}
        self.awaiting: list[dict[str, Any]] = []
        self.scores = [0] * self.n
        self.vulnerable: int | None = None
        self.hand_over = False
        self.hand_winner: int | None = None

    # ------------------------------------------------------------ bookkeeping
    def truth(self) -> Truth:
        p = self.pending
        return {
            "current_seat": self.current,
            "direction": "cw" if self.direction == 1 else "ccw",
            "pending": ({k: p[k] for k in ("kind", "seat", "count") if k in p} if p else None),
            "awaiting": [dict(a) for a in self.awaiting],
            "penalty_draws": {str(s): k for s, k in sorted(self.penalty.items()) if k},
            "eliminated": sorted(self.eliminated),
            "active": self.n - len(self.eliminated),
            "top": self.top,
            "color": self.color,
            "hand_counts": [len(h) for h in self.hands],
            "uno_vulnerable": self.vulnerable,
            "hand_over": self.hand_over,
            "hand_winner": self.hand_winner,
            "scores": list(self.scores),
            "hand": self.hand_no,
            "game_over": self.game_over,
            "winner": self.winner,
            "hands": [sorted(h) for h in self.hands],
        }

    def active(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.eliminated]

    def adv(self, seat: int, k: int = 1) -> int:
        s = seat
        for _ in range(k):
            s = (s + self.direction) % self.n
            while s in self.eliminated:
                s = (s + self.direction) % self.n
        return s

    def matches(self, card: str) -> bool:
        if is_wild(card):
            return True
        if color_of(card) == self.color:
            return True
        return self.top is not None and not is_wild(self.top) and rank_of(card) == rank_of(self.top)

    def draw_one(self) -> str:
        if not self.draw_pile and len(self.discard) > 1:
            # spec 5.5: shuffle the discard pile except its top card; the state is unchanged
            top = self.discard.pop()
            self.draw_pile = self.discard
            self.rng.shuffle(self.draw_pile)
            self.discard = [top]
        if not self.draw_pile:
            raise EventBudgetSpent  # every card is in a hand: nothing sensible left to simulate
        return self.draw_pile.pop()

    def choose_color(self, seat: int) -> str:
        held = [color_of(c) for c in self.hands[seat] if not is_wild(c)]
        if not held:
            return self.rng.choice(COLORS)
        best = max(held.count(c) for c in COLORS)
        return self.rng.choice([c for c in COLORS if held.count(c) == best])

    # ------------------------------------------------------------ hands
    def play(self) -> None:
        self.start_hand(first=True)
        while not self.game_over:
            if self.hand_over:
                self.finish_hand()
                continue
            self.between_turns()
            if not (self.hand_over or self.game_over):
                self.take_turn()

    def start_hand(self, first: bool) -> None:
        cards = list(self.deck)
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(self.n)]
        for _ in range(DEAL):
            for s in self.active():
                self.hands[s].append(cards.pop())
        self.draw_pile, self.discard = cards, []
        self.top = self.color = None
        self.current, self.direction, self.pending = None, 1, None
        self.penalty, self.awaiting, self.vulnerable = {}, [], None
        self.hand_over, self.hand_winner = False, None
        if not first:
            self.dealer = (self.dealer + 1) % self.n  # the deal passes left (8.1)
            self.hand_no += 1
            self.emit({"type": "new_hand", "dealer": self.dealer})
        self.flip()

    def needs_reflip(self, card: str) -> bool:
        if self.nomercy:
            return not is_number(card)  # spec 7.2: flip again until a number card
        if self.ena:
            return False
        if card == "wild_draw4":
            return True
        if is_wild(card) and card != "wild" and self.options["first_special_wild"] == "reflip":
            return True
        if is_wild(card):  # a plain Wild, or a special one treated as a plain Wild (as_wild)
            return self.options["first_wild"] == "reflip"
        return False

    def flip(self) -> None:
        dealer = self.dealer
        while True:
            card = self.draw_one()
            if not self.needs_reflip(card):
                break
            self.awaiting = [{"kind": "reflip", "seat": dealer}]
            # the card goes back into the deck, which is shuffled (5.2, 7.2)
            self.draw_pile.insert(self.rng.randrange(len(self.draw_pile) + 1), card)
            self.emit({"type": "flip", "card": card})
        self.awaiting = []
        self.discard.append(card)
        self.top, self.color, self.top_from_flip = card, color_of(card), True
        first = self.adv(dealer)
        rank = rank_of(card)
        chooser: int | None = None
        self.current = first
        if rank == "skip":
            self.current = self.adv(dealer, 2)
        elif rank == "reverse":
            if len(self.active()) == 2:
                self.current = dealer  # C1: as a Skip, direction stays cw
            else:
                self.direction = -1
                dealer_first = (not self.ena) and self.options["first_reverse"] == "dealer_first"
                self.current = dealer if dealer_first else self.adv(dealer)
        elif rank == "draw2":
            self.pending = self.new_draw(first, 2, card, None)
        elif is_wild(card):
            chooser = dealer if self.ena else first
            if card == "wild_draw4":  # Ena only: dealer names the colour, first player draws 4
                self.pending = self.new_draw(first, 4, card, None)
            self.awaiting = [{"kind": "color", "seat": chooser}]
        self.emit({"type": "flip", "card": card})
        if chooser is not None:
            self.name_color(chooser)

    def new_draw(self, victim: int, count: int, card: str, wd4_by: int | None,
                 guilty: bool = False) -> dict[str, Any]:
        return {"kind": "draw", "seat": victim, "count": count, "last": draw_value(card),
                "rank": rank_of(card), "wd4_by": wd4_by, "guilty": guilty,
                "answerable": not self.top_from_flip}

    def name_color(self, seat: int) -> None:
        color = self.choose_color(seat)
        self.color = color
        self.awaiting = [a for a in self.awaiting if a["kind"] != "color"]
        self.emit({"type": "color", "seat": seat, "color": color})

    def finish_hand(self) -> None:
        p = self.pending
        if p and p["kind"] == "draw" and not self.game_over:
            # 5.5: the victim of a final Draw Two / Wild Draw Four still draws; it scores
            self.do_draw(p["seat"], p["count"], pays_pending=True)
        if self.game_over:
            return
        winner = self.hand_winner
        assert winner is not None
        revealers = [s for s in self.active() if s != winner]
        if not self.mistake_penalty and self.misplay_now():
            # a card laid after the hand is over: nobody is on turn (1.7 out_of_turn)
            seat = self.rng.choice(revealers)
            self.illegal_card(seat, self.rng.choice(self.hands[seat]), "out_of_turn")
        for i, seat in enumerate(revealers):
            pts = sum(points(c) for c in self.hands[seat])
            if self.options["scoring"] == "winner_collects":
                self.scores[winner] += pts
            else:
                self.scores[seat] += pts
            if i == len(revealers) - 1:
                self.check_game_end(winner)  # C22: once every losing seat has revealed
            self.emit({"type": "reveal", "seat": seat, "cards": sorted(self.hands[seat])})
        if not self.game_over:
            self.start_hand(first=False)

    def check_game_end(self, hand_winner: int) -> None:
        target = self.options["target_score"]
        if self.options["scoring"] == "winner_collects":
            if self.scores[hand_winner] >= target:
                self.game_over, self.winner = True, hand_winner
        elif max(self.scores) >= target:
            low = min(self.scores)
            lowest = [s for s in range(self.n) if self.scores[s] == low]
            if len(lowest) == 1:  # C10: a tie for lowest plays on
                self.game_over, self.winner = True, lowest[0]

    # ------------------------------------------------------------ between turns
    def between_turns(self) -> None:
        if self.awaiting:
            return  # (a roulette colour is owed first; the table waits for it)
        if self.vulnerable is not None and self.chance(0.5):
            target = self.vulnerable
            catcher = self.rng.choice([s for s in self.active() if s != target])
            self.vulnerable = None
            self.add_penalty(target, self.call_penalty)
            self.emit({"type": "catch", "seat": catcher, "target": target})
            self.pay_penalty(target)
            if self.game_over:
                return
        if self.misplay_now(0.2):
            catcher = self.rng.choice(self.active())
            targets = [s for s in self.active() if s not in (catcher, self.vulnerable)]
            if targets:
                target = self.rng.choice(targets)
                self.add_penalty(catcher, self.false_catch_penalty)
                self.emit({"type": "catch", "seat": catcher, "target": target},
                          {"seat": catcher, "reason": "invalid_catch"})
                self.pay_penalty(catcher)
        top = self.top
        if top is not None and self.may_jump_on_top() and self.chance(0.35):
            takers = [s for s in self.active() if s != self.current and top in self.hands[s]]
            if self.options.get("multi_same_number") and is_number(top):
                # (the seat that laid the top number would be adding to its own turn)
                takers = [s for s in takers if s != self.last_player]
            if takers:
                # Ena overtake (8.3) / UNO jump-in (6)
                self.play_card(self.rng.choice(takers), top, jump=True)
                return
        if self.misplay_now(0.5):
            self.out_of_turn_misplay()
        if self.misplay_now(0.15):
            self.button_misplay()

    def button_misplay(self) -> None:
        """A button pressed at a seat that has nothing to do (1.7 wrong_seat; costs nothing)."""
        seats = [s for s in self.active() if s != self.current]
        if self.options.get("multi_same_number"):
            seats = [s for s in seats if s != self.last_player]  # its turn may still be open
        if not seats:
            return
        seat = self.rng.choice(seats)
        kind = self.rng.choice(["challenge", "color", "draw", "pass", "end_turn"])
        event: dict[str, Any] = {"type": kind, "seat": seat}
        if kind == "color":
            event["color"] = self.rng.choice(COLORS)
        self.emit(event, {"seat": seat, "reason": "wrong_seat"})

    def may_jump_on_top(self) -> bool:
        """Could a seat out of turn play a card identical to the top now? (8.3, 6)"""
        if not (self.ena or self.jump_in) or self.top is None or self.top_from_flip:
            return False
        return not is_wild(self.top) or (self.jump_in and self.options["jump_in_wilds"])

    def out_of_turn_misplay(self) -> None:
        others = [s for s in self.active() if s != self.current and self.hands[s]]
        if not others:
            return
        seat = self.rng.choice(others)
        if self.ena:
            cards = [c for c in self.hands[seat] if c != self.top and not is_wild(c)]
            reason = "not_identical_out_of_turn"
        else:
            cards, reason = list(self.hands[seat]), "out_of_turn"
            if self.jump_in:  # an identical card would be a legal jump-in
                cards = [c for c in cards if c != self.top]
            if self.options.get("multi_same_number") and self.top and is_number(self.top):
                # (the seat that laid the top number could legally add one of the same)
                cards = [c for c in cards if rank_of(c) != rank_of(self.top)]
        if cards:
            self.illegal_card(seat, self.rng.choice(cards), reason)

    def illegal_card(self, seat: int, card: str, reason: str) -> None:
        """An illegal card: not played, taken back; Ena charges its mistake penalty (8.5)."""
        self.add_penalty(seat, self.mistake_penalty)
        p = self.pending
        if self.ena and self.options["mistake_ends_turn"] and seat == self.current \
                and not (p and p["seat"] == seat):
            self.current = self.adv(seat)  # the offender's turn is spent (a draw owed stays)
        self.emit({"type": "card", "seat": seat, "card": card}, {"seat": seat, "reason": reason})
        self.pay_penalty(seat)

    def add_penalty(self, seat: int, count: int) -> None:
        if count:
            self.penalty[seat] = self.penalty.get(seat, 0) + count

    def pay_penalty(self, seat: int) -> None:
        owed = self.penalty.pop(seat, 0)
        if owed:
            self.take_cards(seat, owed)
            self.mercy_check(seat)
            self.emit({"type": "draw", "seat": seat, "count": owed})

    # ------------------------------------------------------------ turns
    def take_turn(self) -> None:
        seat = self.current
        assert seat is not None
        if self.next_card is not None:
            # the wild's colour was never pressed: this card shows it (infer_color_from_next_card)
            seat, card = self.next_card
            self.next_card = None
            self.play_card(seat, card)
            return
        p = self.pending
        if p and p["kind"] == "roulette":
            self.resolve_roulette(seat)
        elif p and p["kind"] == "draw":
            self.victim_turn(seat, p)
        else:
            self.normal_turn(seat)

    def normal_turn(self, seat: int) -> None:
        hand = self.hands[seat]
        if self.misplay_now(0.5):
            wrong = [c for c in hand if not self.matches(c)]
            if wrong:
                self.illegal_card(seat, self.rng.choice(wrong), "no_match")
                return
        if self.misplay_now(0.15):
            self.emit({"type": "pass", "seat": seat}, {"seat": seat, "reason": "pass_not_allowed"})
            return
        legal = [c for c in hand if self.matches(c)]
        honest = [c for c in legal if c != "wild_draw4"
                  or not any(color_of(h) == self.color for h in hand)]
        if legal and (self.draw_until or self.chance(0.92)):
            pool = honest if honest and not self.chance(0.3) else legal  # 0.3: sometimes bluff a WD4
            tame = [c for c in pool if not is_wild(c)]
            card = self.rng.choice(tame if tame and self.chance(0.7) else pool)
            if len(hand) == 2 and self.chance(0.15) and not self.exchanges(card):
                self.emit({"type": "uno", "seat": seat})  # called before the card (5.4)
                self.play_card(seat, card, called=True)
            else:
                self.play_card(seat, card)
        elif self.draw_until:
            self.draw_until_playable(seat)
        else:
            self.voluntary_draw(seat)

    def exchanges(self, card: str) -> bool:
        return (self.seven_zero and rank_of(card) in ("7", "0")) or rank_of(card) in (
            "discard_all", "wild_swap_hands", "wild_shuffle_hands")

    def voluntary_draw(self, seat: int) -> None:
        card = self.draw_one()
        self.hands[seat].append(card)
        self.turn_action(seat)
        self.awaiting = [{"kind": "play_or_pass", "seat": seat}]
        self.emit({"type": "draw", "seat": seat} if self.chance(0.5)
                  else {"type": "draw", "seat": seat, "count": 1})
        if self.matches(card) and self.chance(0.85):
            self.awaiting = []
            self.play_card(seat, card)
        else:
            self.awaiting = []
            self.current = self.adv(seat)
            self.emit({"type": "pass", "seat": seat})

    def draw_until_playable(self, seat: int) -> None:
        """No Mercy (7.2) / draw_until_playable (6): draw until a playable card comes, play it."""
        limit = self.options["mercy_limit"] if self.nomercy else 10**9
        single = self.chance(0.3)
        drawn = 0
        while True:
            card = self.draw_one()
            self.hands[seat].append(card)
            drawn += 1
            done = self.matches(card) or len(self.hands[seat]) >= limit
            if single or done:
                self.turn_action(seat)
                # C21: no play_or_pass, a pass is no answer here; the seat just acts again
                self.awaiting = []
                self.mercy_check(seat)
                self.emit({"type": "draw", "seat": seat, "count": drawn})
                drawn = 0
            if done:
                break
        if seat not in self.eliminated and not self.game_over:
            self.play_card(seat, self.hands[seat][-1])  # (play_card clears `awaiting`)

    def stack_cards(self, seat: int, p: dict[str, Any]) -> list[str]:
        """Cards the victim of a pending draw may answer with (6, 7.2, 8.4)."""
        if not p["answerable"]:
            return []
        hand = self.hands[seat]
        if self.nomercy:
            if self.options["stack_rule"] == "any":
                return [c for c in hand if draw_value(c)]
            return [c for c in hand if draw_value(c) >= p["last"]]
        if self.ena:
            rule = self.options["stack_in_turn"]
            if rule == "any_draw":
                return [c for c in hand if rank_of(c) in ("draw2", "wild_draw4")]
            if rule == "none":  # C13: an identical Draw Two is still an overtake that adds up
                return [c for c in hand if c == self.top and rank_of(c) == "draw2"]
            return [c for c in hand if rank_of(c) == p["rank"] and c != "wild_draw4"] \
                if p["rank"] == "draw2" else [c for c in hand if c == p["rank"] == "wild_draw4"]
        ranks = {"none": (), "any_draw": ("draw2", "wild_draw4"),
                 "same_type": (p["rank"],),
                 "draw2_into_draw4": ("draw2", "wild_draw4") if p["rank"] == "draw2"
                 else ("wild_draw4",)}[self.stacking]
        return [c for c in hand if rank_of(c) in ranks]

    def victim_turn(self, seat: int, p: dict[str, Any]) -> None:
        answers = self.stack_cards(seat, p)
        if self.misplay_now(0.5):
            # (an Ena card of the pending draw's own kind would be an overtake or a stack, C13;
            # a jump-in by the victim itself is left alone: spec 6 does not say what it does)
            wrong = [c for c in self.hands[seat] if c not in answers
                     and not (self.ena and rank_of(c) == p["rank"])
                     and not (self.jump_in and c == self.top)]
            if wrong:
                card = self.rng.choice(wrong)
                if self.nomercy:
                    reason = "stack_value_too_low" if draw_value(card) else "cannot_stack"
                else:  # 1.7: must_draw with stacking off, cannot_stack with it on
                    stacking_on = (self.options["stack_in_turn"] != "none") if self.ena \
                        else self.stacking != "none"
                    reason = "cannot_stack" if stacking_on else "must_draw"
                self.illegal_card(seat, card, reason)
                return
        if answers and self.chance(0.7):
            self.play_card(seat, self.rng.choice(answers))
        elif self.challenges and p["wd4_by"] is not None and self.chance(0.35):
            self.challenge(seat, p)
        else:
            self.do_draw(seat, p["count"], pays_pending=True)

    def do_draw(self, seat: int, count: int, pays_pending: bool) -> None:
        if pays_pending and count >= 2 and not self.hand_over and self.chance(0.12):
            # the owed cards taken in two presses: the rest stays owed, the turn stays
            part = self.rng.randint(1, count - 1)
            self.take_cards(seat, part)
            self.turn_action(seat)
            assert self.pending is not None
            self.pending = {**self.pending, "count": count - part}
            self.mercy_check(seat)
            self.emit({"type": "draw", "seat": seat, "count": part})
            if seat in self.eliminated or self.game_over:
                return
            count -= part
        self.take_cards(seat, count)
        self.turn_action(seat)
        self.pending = None
        if not self.hand_over:
            self.current = self.adv(seat)
        self.mercy_check(seat)
        omit = pays_pending and not self.penalty.get(seat) and self.chance(0.25)
        self.emit({"type": "draw", "seat": seat} if omit
                  else {"type": "draw", "seat": seat, "count": count})

    def take_cards(self, seat: int, count: int) -> None:
        for _ in range(count):
            self.hands[seat].append(self.draw_one())
        if self.vulnerable == seat and count:
            self.vulnerable = None  # 1.6: only a seat holding one card can be caught

    def challenge(self, victim: int, p: dict[str, Any]) -> None:
        player = p["wd4_by"]
        self.awaiting = [{"kind": "challenge_result", "seat": player}]
        self.emit({"type": "challenge", "seat": victim})
        self.awaiting = []
        if p["guilty"]:
            self.pending = None
            if self.options.get("wd4_guilty_next") == "challenger_skipped":
                self.current = self.adv(victim)
            # else the challenger takes a normal turn (A14)
            self.add_penalty(player, 4)
            self.emit({"type": "challenge_result", "guilty": True})
            self.pay_penalty(player)
        else:
            self.pending = {**p, "count": p["count"] + 2, "wd4_by": None, "answerable": False}
            self.emit({"type": "challenge_result", "guilty": False})

    def resolve_roulette(self, victim: int) -> None:
        if self.color is None:  # the victim names it (roulette_chooser = victim)
            self.name_color(victim)
        limit = self.options["mercy_limit"]
        count = 0
        while True:
            card = self.draw_one()
            self.hands[victim].append(card)
            count += 1
            if color_of(card) == self.color or len(self.hands[victim]) >= limit:
                break
        self.turn_action(victim)
        self.pending = None
        self.current = self.adv(victim)
        self.mercy_check(victim)
        self.emit({"type": "draw", "seat": victim, "count": count})

    def turn_action(self, actor: int) -> None:
        """A draw or pass that is a seat's turn action (not a side-penalty draw)."""
        self.top_fresh = False
        self.close_window(actor)

    def close_window(self, actor: int) -> None:
        """C2: another seat's accepted turn action closes the UNO-call window; the seat's own
        draw ends it too, as it no longer holds one card (1.6)."""
        v = self.vulnerable
        if v is not None and (v != actor or len(self.hands[v]) != 1):
            self.vulnerable = None

    def mercy_check(self, seat: int) -> None:
        if not self.nomercy or seat in self.eliminated:
            return
        if len(self.hands[seat]) < self.options["mercy_limit"]:
            return
        self.eliminated.add(seat)
        self.draw_pile[:0] = self.hands[seat]  # 7.2: the cards go back under the draw pile
        self.hands[seat] = []
        self.penalty.pop(seat, None)
        if self.vulnerable == seat:
            self.vulnerable = None
        if self.pending and self.pending["seat"] == seat:
            self.pending = None
        left = self.active()
        if len(left) == 1:  # C11
            self.hand_over = self.game_over = True
            self.hand_winner = self.winner = left[0]
            self.current = None
        elif self.current == seat:
            self.current = self.adv(seat)

    # ------------------------------------------------------------ a card is played
    def play_card(self, seat: int, card: str, called: bool = False, jump: bool = False) -> None:
        """A legal card from `seat`: in turn, stacked, or out of turn as an Ena overtake or a
        UNO jump-in (`jump`)."""
        hand = self.hands[seat]
        guilty = card == "wild_draw4" and any(color_of(c) == self.color for c in hand if c != card)
        prev = self.pending if self.pending and self.pending["kind"] == "draw" else None
        # cancel_and_replace cancels what the jumped-on card still has pending; once a seat
        # has acted on it (drawn, passed) its effect is spent (the engine's reading; spec 6
        # says only "cancels the first")
        replaces = (jump and not self.ena and self.top_fresh
                    and self.options["jump_in_action"] == "cancel_and_replace")
        if replaces:
            prev = None  # C12: the jumped-on draw (the whole stack) is cancelled
        hand.remove(card)
        self.discard.append(card)
        self.close_window(seat)
        self.top, self.top_from_flip, self.top_fresh = card, False, True
        self.last_player = seat
        self.color = color_of(card)
        self.awaiting = []
        rank = rank_of(card)
        out = not hand
        if len(hand) == 1 and not called:
            self.vulnerable = seat
        elif self.vulnerable == seat:
            self.vulnerable = None
        two = len(self.active()) == 2
        dv = draw_value(card)
        self.pending = None
        # (a Reverse jumped on a Reverse under cancel_and_replace: the first flip is cancelled
        # and the jumper's applies, so the direction stays as the first one left it)
        if rank in ("reverse", "wild_reverse_draw4") and not two and not replaces:
            self.direction = -self.direction
        if dv:
            victim = self.adv(seat)
            count = dv + (prev["count"] if prev else 0)
            challengeable = seat if card == "wild_draw4" and prev is None and not jump else None
            self.pending = self.new_draw(victim, count, card, challengeable, guilty)
            self.current = victim
        elif rank == "skip":
            self.current = self.adv(seat, 2)
        elif rank == "skip_all":
            self.current = seat
        elif rank == "reverse":
            self.current = seat if two else self.adv(seat)
        elif rank == "wild_color_roulette" and not out:
            victim = self.adv(seat)
            self.pending = {"kind": "roulette", "seat": victim}
            self.current = victim
        else:
            self.current = self.adv(seat)
        if rank == "wild_shuffle_hands":
            # 5.3: the redeal includes the player, so it is never out by it (A16) ...
            out = False
            emptied = self.shuffle_hands(seat)
            if emptied is not None:  # ... unless the deal skips a seat, which wins (C18)
                self.go_out(emptied)
                self.emit({"type": "card", "seat": seat, "card": card})
                return
        if out:
            self.go_out(seat)
            self.emit({"type": "card", "seat": seat, "card": card})
            return
        if rank == "wild_color_roulette":
            self.awaiting = [{"kind": "color", "seat": self.roulette_chooser(seat)}]
        elif rank == "wild_swap_hands":
            self.awaiting = [{"kind": "target", "seat": seat}, {"kind": "color", "seat": seat}]
        elif is_wild(card):
            self.awaiting = [{"kind": "color", "seat": seat}]
        elif self.seven_zero and rank == "7":
            self.awaiting = [{"kind": "target", "seat": seat}]
        elif self.seven_zero and rank == "0":
            self.rotate_hands()
        self.emit({"type": "card", "seat": seat, "card": card})
        if rank == "wild_swap_hands":  # 5.3: target first, then the colour
            self.card_too_early("target")
            self.swap_with_target(seat)
            self.name_color(seat)
        elif is_wild(card) and rank != "wild_color_roulette":
            if not self.defer_color(seat, card):
                self.card_too_early("color")
                self.name_color(seat)
        elif rank == "wild_color_roulette" and self.roulette_chooser(seat) == seat:
            self.name_color(seat)
        elif self.options.get("multi_same_number") and rank.isdigit() and not jump \
                and prev is None and not (self.seven_zero and rank in ("7", "0")):
            self.add_same_numbers(seat, rank)
        elif self.seven_zero and rank == "7":
            self.card_too_early("target")
            self.swap_with_target(seat)
        elif self.nomercy and rank == "discard_all":
            self.discard_all(seat, color_of(card))
        self.maybe_call(seat, called)

    def defer_color(self, seat: int, card: str) -> bool:
        """Sometimes nobody presses the colour of a plain wild and the next seat's card shows
        it (5.6 infer_color_from_next_card). True if the colour event is left out."""
        if not (card in ("wild", "wild_custom") and self.options["infer_color_from_next_card"]
                and self.pending is None and len(self.hands[seat]) > 1 and self.chance(0.25)):
            return False
        nxt = self.current
        assert nxt is not None
        color = self.choose_color(seat)
        follow = [c for c in self.hands[nxt] if color_of(c) == color]
        if not follow:
            return False
        self.next_card = (nxt, self.rng.choice(follow))
        return True

    def card_too_early(self, owed: str) -> None:
        """Misplay: the next seat lays a card before the colour / target it cannot infer has
        been given (1.7 awaiting_input)."""
        if owed == "color" and self.options.get("infer_color_from_next_card", True):
            return  # the card would name the colour
        if self.mistake_penalty or self.pending is not None or not self.misplay_now():
            return  # (a penalty drawn while an input is owed: left alone)
        seat = self.current
        if seat is None or not self.hands[seat]:
            return
        # (an Ena mistake all the same: with mistake_ends_turn the seat's turn is spent, C14)
        self.illegal_card(seat, self.rng.choice(self.hands[seat]), "awaiting_input")

    def roulette_chooser(self, player: int) -> int:
        """Who names the Color Roulette colour (7.3 roulette_chooser)."""
        p = self.pending
        assert p is not None
        return player if self.options["roulette_chooser"] == "player" else p["seat"]

    def add_same_numbers(self, seat: int, rank: str) -> None:
        """multi_same_number (6): the seat adds more cards of the same number, then end_turn."""
        more = [c for c in self.hands[seat] if rank_of(c) == rank]
        if not more or not self.chance(0.7):
            return
        self.rng.shuffle(more)
        for card in more[:self.rng.randint(1, len(more))]:
            self.hands[seat].remove(card)
            self.discard.append(card)
            self.top, self.color = card, color_of(card)
            if not self.hands[seat]:
                self.go_out(seat)
            elif len(self.hands[seat]) == 1:
                self.vulnerable = seat
            self.emit({"type": "card", "seat": seat, "card": card})
            if self.hand_over:
                return
        self.emit({"type": "end_turn", "seat": seat})

    def maybe_call(self, seat: int, called: bool) -> None:
        if self.hand_over or called or self.vulnerable != seat:
            return
        if self.chance(0.75):
            self.vulnerable = None
            self.emit({"type": "uno", "seat": seat})

    def go_out(self, seat: int) -> None:
        """C6/C7: the final card's own effects stand (draws owed), exchanges do not happen."""
        self.hand_over, self.hand_winner = True, seat
        self.vulnerable = None
        self.current = None
        if is_wild(self.top or ""):
            self.color = None  # C8: a final wild names no colour
        if self.nomercy:  # C4: with scoring = none, going out wins the game
            self.game_over, self.winner = True, seat

    def rotate_hands(self) -> None:
        """0 under 7-0 (No Mercy): every hand moves to the next seat in the direction of play."""
        seats = self.active()
        moved = [[] for _ in range(self.n)]  # type: list[list[str]]
        for s in seats:
            moved[self.adv(s)] = self.hands[s]
        self.hands = moved
        self.vulnerable = None  # C5: a hand exchange makes nobody vulnerable

    def shuffle_hands(self, seat: int) -> int | None:
        """Wild Shuffle Hands (5.3): every hand is collected, shuffled and dealt one at a time
        from the player's left neighbour round in seat order. Returns the seat that goes out
        by getting no card (C18: the first in play order after the player), else None."""
        seats = self.active()
        pool = [c for s in seats for c in self.hands[s]]
        self.rng.shuffle(pool)
        order = [s for s in ((seat + 1 + i) % self.n for i in range(self.n)) if s in seats]
        for s in seats:
            self.hands[s] = []
        for i, c in enumerate(pool):
            self.hands[order[i % len(order)]].append(c)
        self.vulnerable = None  # C5
        s = seat
        for _ in seats:
            s = self.adv(s)
            if not self.hands[s]:
                return s
        return None

    def swap_with_target(self, seat: int) -> None:
        others = [s for s in self.active() if s != seat]
        fewest = min(len(self.hands[s]) for s in others)
        target = self.rng.choice([s for s in others if len(self.hands[s]) == fewest]
                                 if self.chance(0.7) else others)
        self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
        self.awaiting = [a for a in self.awaiting if a["kind"] != "target"]
        self.vulnerable = None  # C5
        self.emit({"type": "target", "seat": seat, "target": target})

    def discard_all(self, seat: int, color: str | None) -> None:
        """No Mercy Discard All: the seat lays every other card of that colour; no effect."""
        hand = self.hands[seat]
        for card in [c for c in hand if color_of(c) == color]:
            hand.remove(card)
            self.discard.append(card)
            if not hand:
                self.go_out(seat)
            elif len(hand) == 1:
                self.vulnerable = seat
            self.emit({"type": "card", "seat": seat, "card": card})
            if self.hand_over:
                return
        self.emit({"type": "end_turn", "seat": seat})
