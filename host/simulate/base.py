"""What every game simulator shares: the seeded RNG, the event/truth log, the stop rule."""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

Event = dict[str, Any]
Truth = dict[str, Any]


@dataclass
class SimGame:
    """One simulated game: the record header, the observable events, and per event the truth."""

    header: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    truth: list[Truth] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """True when the game reached its end (not cut off by max_events)."""
        return bool(self.truth) and bool(self.truth[-1]["game_over"])


class EventBudgetSpent(Exception):
    """Raised inside a simulator when max_events is reached; the game is cut there."""


class GameSim:
    SEATLESS = 0.25  # share of in-turn card events sent without their seat
    """Base of the per-family simulators.

    Subclasses keep the full hidden state (hands, draw pile), call `emit` for every event a
    referee would be fed, and implement `truth()`: the referee-visible state the spec says
    must hold after that event.
    """

    def __init__(self, game: str, players: int, seed: int, options: dict[str, Any],
                 misplay_rate: float, max_events: int) -> None:
        self.game = game
        self.n = players
        self.rng = random.Random(seed)
        self.options = options
        self.misplay_rate = misplay_rate
        self.max_events = max_events
        self.events: list[Event] = []
        self.truths: list[Truth] = []
        # the table both families keep; subclasses fill `deck` and deal into these
        self.deck: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.draw_pile: list[str] = []
        self.discard: list[str] = []
        self.direction = 1
        self.eliminated: set[int] = set()
        self.dealer = 0
        self.hand_no = 1
        self.game_over = False
        self.winner: int | None = None

    # -- to be provided by subclasses
    def play(self) -> None:
        raise NotImplementedError

    def truth(self) -> Truth:
        raise NotImplementedError

    def deck_size(self) -> int:
        return len(self.deck)

    def card_locations(self) -> dict[str, int]:
        """How many cards sit in each place (hands, draw pile, discard, ...); used by tests."""
        return {"hands": sum(len(h) for h in self.hands), "draw": len(self.draw_pile),
                "discard": len(self.discard)}

    # -- shared
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def misplay_now(self, weight: float = 1.0) -> bool:
        return self.rng.random() < self.misplay_rate * weight

    def emit(self, event: Event, illegal: dict[str, Any] | None = None) -> None:
        if len(self.events) >= self.max_events:
            raise EventBudgetSpent
        if event["type"] == "card" and self.truths and self.chance(self.SEATLESS):
            expected = self.truths[-1]["current_seat"]
            if expected is not None and event["seat"] == expected:
                # 1.5: a camera without seat zones cannot tell who played; the referee
                # attributes the card to the seat it expects
                event = {k: v for k, v in event.items() if k != "seat"}
                if self.chance(0.5):
                    event["seat"] = None
        self.events.append(event)
        t = self.truth()
        t["illegal"] = copy.deepcopy(illegal)
        t["cards"] = self.card_locations()
        self.truths.append(t)

    def run(self, header: dict[str, Any]) -> SimGame:
        try:
            self.play()
        except EventBudgetSpent:
            pass
        return SimGame(header=header, events=self.events, truth=self.truths)
