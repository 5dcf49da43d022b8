"""The table's one stream of outputs: every snapshot of the table and every journal record,
fanned out to whatever subscribed (terminal, board, JSON lines, live page, MQTT, ...).

The TableController publishes here after each change (the record is already on disk); it
knows nothing about who listens, so adding an output touches nothing upstream. Publishing is
synchronous and in the referee's thread: an output that does network I/O must hand the
update to its own thread or queue and return at once, and keep its own faults to itself
(one notice line, never an exception into the referee).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Protocol

from .board_view import board_snapshot


@dataclass(frozen=True)
class TableUpdate:
    """The table at one moment, as every output may show it.

    `index` counts the journal's records so far (record k is the k-th line after the header,
    the header itself is index 0); `new_records` are the (index, record) pairs journaled since
    the previous update, in order, so an output that forwards records sees each exactly once.
    """
    game: str
    players: int
    names: tuple[str, ...]
    header: dict[str, Any]
    game_id: str                    # stable for one journal (a resumed game keeps it)
    state: dict[str, Any]
    asking: bool                    # the referee waits for the table to name an unreadable card
    credit: int | None              # the seat the camera credited with the last out-of-turn card
    illegal_id: int                 # id of the outstanding illegal input (0: none)
    line: str | None                # what just happened, in words (None: a redraw only)
    waiting: tuple[str, ...]        # what the referee waits for from a person, each with its key
    recent: tuple[str, ...]
    index: int
    last: dict[str, Any] | None     # the newest record in the journal
    new_records: tuple[tuple[int, dict[str, Any]], ...]
    offer: tuple[str, ...] = ()     # while asking: the camera's likeliest code, then its runner-up


class Output(Protocol):
    def update(self, u: TableUpdate) -> None: ...

    def notice(self, text: str) -> None: ...


def game_id(header: dict[str, Any], where: str) -> str:
    """A short id for one game's journal: the same file and header give the same id."""
    text = json.dumps(header, sort_keys=True) + "\n" + where
    return hashlib.sha1(text.encode()).hexdigest()[:12]


class TableFeed:
    """subscribe(output); the controller calls publish(...) and notice(...)."""

    def __init__(self) -> None:
        self.outputs: list[Output] = []
        self.sent = 0               # records already handed to the outputs

    def subscribe(self, output: Output) -> Output:
        self.outputs.append(output)
        return output

    def publish(self, u: TableUpdate) -> None:
        self.sent = u.index
        self._each("update", u)

    def notice(self, text: str) -> None:
        self._each("notice", text)

    def pending(self, records: list[dict[str, Any]]) -> tuple[tuple[int, dict[str, Any]], ...]:
        """The records not yet published, with their journal indices (1-based)."""
        return tuple((i + 1, records[i]) for i in range(self.sent, len(records)))

    def _each(self, method: str, arg: Any) -> None:
        for out in self.outputs:
            getattr(out, method)(arg)


class BoardOutput:
    """The board in the middle of the table: each update becomes a tablelink Snapshot (the link
    sends nothing when the board already shows it)."""

    def __init__(self, link: Any) -> None:
        self.link = link

    def update(self, u: TableUpdate) -> None:
        self.link.show(board_snapshot(u.state, u.game, u.players, u.illegal_id, asking=u.asking, credit=u.credit,
                                       offer=u.offer))

    def notice(self, text: str) -> None:
        pass
