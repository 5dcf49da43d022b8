"""A simulated table on the venue's broker: a seeded simulated game (tableref.simulate) put
through a real TableController, journal and MqttOutput, one input per step(). For rehearsing
a game night, the MQTT tests and bench/bench_scoreboard.py; no camera, no board."""
from __future__ import annotations

import pathlib
from typing import Any, Callable

from ..simulate import simulate_game
from ..rules import ruleset_class
from ..table import TableSession, make_header
from ..table_app import TableController
from .publisher import MqttOutput


class Quiet:
    """An output that shows nothing (the table's screen is not looked at)."""

    def update(self, u: Any) -> None:
        pass

    def notice(self, text: str) -> None:
        pass


class SimTable:
    def __init__(self, url: str | MqttOutput, journal: pathlib.Path, game: str = "ono99_2022", players: int = 4,
                 seed: int = 0, names: list[str] | None = None, say: Callable[[str], None] = print,
                 max_events: int = 5000) -> None:
        """`url`: where to publish, or the output of the table's previous game (its next game
        goes out on the same connection)."""
        short = {"target_score": 100} if "target_score" in ruleset_class(game).option_specs else {}  # short games
        sim = simulate_game(game, players, seed, short,
                            max_events=max_events)
        self.events = [dict(e) for e in sim.events]
        header = make_header(game, players, sim.header["options"], names=names)
        self.ctrl = TableController(TableSession.new(header, journal), Quiet(), None, list(names or []))
        self.output = url if isinstance(url, MqttOutput) else MqttOutput.start(url, say)
        self.ctrl.feed.subscribe(self.output)
        self.ctrl.publish(None)
        self.done = 0

    @property
    def finished(self) -> bool:
        return self.done >= len(self.events)

    def step(self) -> None:
        """The next input; an illegal card is taken back, as at a real table."""
        out = self.ctrl.submit(self.events[self.done])
        self.done += 1
        if out is not None and out.verdict is not None and out.verdict.illegal is not None:
            self.ctrl.removed()

    def close(self, output: bool = True) -> None:
        if output:
            self.output.close()
        self.ctrl.session.close()
