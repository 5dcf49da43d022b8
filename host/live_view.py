"""The live screen of `tableref run` / `tableref demo`: redrawn in place on a terminal,
appended line by line otherwise (pipes, logs, CI); or JSON lines (`--json`). Both are outputs
of the table's feed (tableref.feed): they get a TableUpdate after every change."""
from __future__ import annotations

import json
import sys
from typing import IO, Any, Callable, Sequence

from .actions import offer_text
from .feed import TableUpdate
from .rules.describe import describe_state
from .term import colour_ok, cursor_ok
from .terminal_view import Style, render

CLEAR = "\x1b[H\x1b[2J"


def ring_text(ring: Sequence[Sequence[int]]) -> str:
    """An LED ring as letters: the dominant colour of each pixel, `.` when dark."""
    out = []
    for rgb in ring:
        r, g, b = (int(v) for v in rgb[:3])
        top = max(r, g, b)
        if top < 8:
            out.append(".")
        elif r > 0.6 * top and g > 0.6 * top and b > 0.6 * top:
            out.append("W")
        elif r > 0.6 * top and g > 0.4 * top:
            out.append("Y")
        elif top == r:
            out.append("R")
        elif top == g:
            out.append("G")
        else:
            out.append("B")
    return "".join(out)


def sim_board_text(link: Any) -> str | None:
    """What the simulated board (`--port sim://`) shows now: its digits and ring."""
    if getattr(link, "sim", None) is None or link.sim.shown is None:
        return None
    return f"'{link.sim.digits()}' ring {ring_text(link.sim.ring())}"


class LiveView:
    """update(u) after every change; notice(text) for one-off messages."""

    def __init__(self, stream: IO[str] | None = None, interactive: bool | None = None,
                 board_text: Callable[[], str | None] | None = None, prompt: Callable[[], str] | None = None) -> None:
        self.stream = stream or sys.stdout
        self.interactive = cursor_ok(self.stream) if interactive is None else interactive
        self.style = Style(self.interactive and colour_ok())
        self.board_text = board_text
        self.prompt = prompt
        self._notice: str | None = None
        self._last: TableUpdate | None = None

    def notice(self, text: str) -> None:
        if self.interactive:
            self._notice = text if self._notice is None else f"{self._notice}\n{text}"
            if self._last is not None:
                self.update(self._last)  # show it now, under the table
            return
        self._write(f"! {text}\n")

    def update(self, u: TableUpdate) -> None:
        state = u.state
        self._last = u
        line = u.line
        if self.interactive:
            notice = self._notice
            self._notice = None
            if u.asking:
                notice = f"WHICH CARD? {offer_text(u.offer)}or type x <card> (the board shows CArd)"
            screen = render(state, u.game, u.names, list(u.recent), self.style, notice, list(u.waiting))
            board = self.board_text() if self.board_text else None
            if board:
                screen += "\nboard: " + board
            prompt = self.prompt() if self.prompt else ""
            self._write(CLEAR + screen + "\n" + prompt)
            return
        if line is None:
            return
        text = f"{line:<34} {describe_state(state, u.game)}"
        board = self.board_text() if self.board_text else None
        if board:
            text += f"   [board {board}]"
        self._write(text + "\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except BrokenPipeError:
            pass


class JsonView:
    """`--json`: one JSON object per change: {"event": the journaled record (a referee event or
    a table record undo/taken_back), "state": the state after it, "line": the same in words}."""

    def __init__(self, stream: IO[str] | None = None, board_text: Callable[[], str | None] | None = None) -> None:
        self.stream = stream or sys.stdout
        self.board_text = board_text

    def notice(self, text: str) -> None:
        self._emit({"notice": text})

    def update(self, u: TableUpdate) -> None:
        if u.line is None:
            return
        obj: dict[str, Any] = {"event": u.last, "state": u.state, "line": u.line}
        if u.asking:
            obj["asking"] = True
        board = self.board_text() if self.board_text else None
        if board:
            obj["board"] = board
        self._emit(obj)

    def _emit(self, obj: dict[str, Any]) -> None:
        try:
            self.stream.write(json.dumps(obj) + "\n")
            self.stream.flush()
        except BrokenPipeError:
            pass
