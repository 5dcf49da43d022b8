"""The keyboard at the table: typed commands (pure parsing) and a non-blocking reader.

On a terminal each single key acts at once (`d`, `p`, `u`, ...); keys that need more (`c red`,
`k 2`, `x red-5`, a seat digit first) collect a line until Enter. From a pipe every line is one
command. Both give the same `Command`, which tableref.actions turns into an event.
"""
from __future__ import annotations

import os
import select
import sys
from dataclasses import dataclass
from typing import IO, Any

from .actions import COLOURS, KEYS

COLOUR_KEYS = {c[0]: c for c in COLOURS}  # r, y, g, b
# keys that act the moment they are pressed on a terminal (the rest collect a line until Enter)
INSTANT = {k for k, (_, needs) in KEYS.items() if needs in (None, "guilty", "innocent")} | set(COLOUR_KEYS) | {"q", "?"}


@dataclass(frozen=True)
class Command:
    action: str                 # an actions.KEYS action, or "quit" / "help"
    seat: int | None = None     # seat digit typed first: act for that seat
    arg: Any = None


class CommandError(ValueError):
    """A typed line that means nothing; the message says what was expected."""


def _seat(token: str, what: str) -> int:
    if not token.isdigit():
        raise CommandError(f"{what}: expected a seat number, got {token!r}")
    return int(token)


def parse_command(line: str) -> Command | None:
    """One typed command (`d`, `2 d`, `d 4`, `c red`, `k 1`, `x red-5`, `v red-5 wild`, `q`).

    None for an empty line; CommandError for a line that means nothing.
    """
    tokens = line.split()
    if not tokens:
        return None
    seat = None
    if tokens[0].isdigit():
        seat = int(tokens.pop(0))
        if not tokens:
            raise CommandError(f"seat {seat}: which key? ({'/'.join(sorted(INSTANT - {'q', '?'}))} ...)")
    key, rest = tokens[0], tokens[1:]
    if key in ("q", "quit"):
        return Command("quit")
    if key in ("?", "h?", "help"):
        return Command("help")
    if key in COLOUR_KEYS and not rest:
        return Command("color", seat, COLOUR_KEYS[key])
    if key not in KEYS:
        raise CommandError(f"unknown key {key!r} (? for help)")
    action, needs = KEYS[key]
    if needs is None:
        if action == "draw" and rest:
            if not rest[0].isdigit() or int(rest[0]) < 1:
                raise CommandError(f"d: expected a number of cards, got {rest[0]!r}")
            return Command(action, seat, int(rest[0]))
        if action == "new_hand" and rest:
            return Command(action, _seat(rest[0], "w (dealer)"))
        if rest:
            raise CommandError(f"{key}: takes nothing after it")
        return Command(action, seat)
    if needs in ("guilty", "innocent"):
        return Command(action, seat, needs)
    if needs == "colour":
        colour = rest[0] if rest else COLOUR_KEYS.get(key)
        colour = COLOUR_KEYS.get(colour, colour) if colour else None
        if colour not in COLOURS:
            raise CommandError(f"c: expected a colour ({', '.join(COLOURS)})")
        return Command("color", seat, colour)
    if not rest:
        raise CommandError(f"{key}: needs a {needs} after it")
    if needs == "seat":
        return Command(action, seat, _seat(rest[0], key))
    if needs == "card":
        return Command(action, seat, rest[0])
    return Command(action, seat, list(rest))  # cards (reveal)


class KeyReader:
    """Reads commands from stdin without blocking the loop.

    On a terminal: cbreak mode, single keys act at once, others build a line (echoed in the
    prompt by the view). From a pipe or file: one command per line.
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        try:
            self.fd: int | None = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None
        self.interactive = self.fd is not None and os.isatty(self.fd)
        self.buffer = ""       # the line being typed (interactive)
        self.closed = self.fd is None
        self._pending = b""
        self._saved: Any = None
        if self.interactive:
            import termios
            import tty
            assert self.fd is not None
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)

    def restore(self) -> None:
        if self._saved is not None and self.fd is not None:
            import termios
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def _ready(self, timeout: float) -> bool:
        if self.closed or self.fd is None:
            return False
        try:
            ready, _, _ = select.select([self.fd], [], [], timeout)
        except (OSError, ValueError):
            self.closed = True
            return False
        return bool(ready)

    def read_lines(self, timeout: float = 0.0) -> list[str]:
        """Complete lines typed since the last call (not yet parsed; "" is Enter alone)."""
        out: list[str] = []
        while self._ready(timeout):
            timeout = 0.0
            assert self.fd is not None
            data = os.read(self.fd, 1024)
            if not data:
                self.closed = True
                break
            if self.interactive:
                out += self._keys(data.decode(errors="replace"))
            else:
                self._pending += data
                *lines, self._pending = self._pending.split(b"\n")
                out += [ln.decode(errors="replace").strip() for ln in lines]
        if self.closed and self._pending.strip():
            out.append(self._pending.decode(errors="replace").strip())
            self._pending = b""
        return out  # an empty line (Enter alone) is kept: it confirms, when the loop asks for that

    def _keys(self, text: str) -> list[str]:
        out = []
        for ch in text:
            if ch in ("\n", "\r"):
                out.append(self.buffer)
                self.buffer = ""
            elif ch in ("\x7f", "\b"):
                self.buffer = self.buffer[:-1]
            elif ch == "\x1b":
                self.buffer = ""
            elif not self.buffer and ch in INSTANT:
                out.append(ch)
            elif ch.isprintable():
                self.buffer += ch
        return out
