"""The keyboard at the table: typed commands (pure parsing), the rule that turns keystrokes
into command lines (pure), and a non-blocking reader for each kind of stdin.

On a terminal a key that takes nothing after it acts at once (`p`, `u`, `r`, ...), and the
Enter a person types after it out of habit ends that key's line: it is not a lone Enter,
which in --confirm mode means "right". Every other command is a line ended by Enter: `d`
and `d 4`, `w` and `w 2`, `c red`, `k 2`, `x red-5`, a seat digit first. From a pipe every
line is one command. Each gives the same `Command`, which tableref.actions turns into an event.

Readers: a POSIX terminal (termios cbreak, select), the Windows console (msvcrt), and any
other stream (a pipe, a file; a thread reads its lines). The POSIX modules are imported only
on the POSIX terminal's path, so the reader works where they do not exist.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import IO, Any

from .actions import COLOURS, KEYS

COLOUR_KEYS = {c[0]: c for c in COLOURS}  # r, y, g, b
TAKES_A_NUMBER = {"d", "w"}  # `d 4` (cards), `w 2` (dealer): typed as lines
# keys that act the moment they are pressed on a terminal (the rest collect a line until Enter)
INSTANT = ({k for k, (_, needs) in KEYS.items() if needs in (None, "guilty", "innocent")} - TAKES_A_NUMBER) \
    | set(COLOUR_KEYS) | {"q", "?"}


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
    if needs == "cards" and not rest:
        return Command(action, seat)  # `v` alone: read the hand shown to the camera
    if not rest:
        raise CommandError(f"{key}: needs a {needs} after it")
    if needs == "seat":
        return Command(action, seat, _seat(rest[0], key))
    if needs == "card":
        return Command(action, seat, rest[0])
    return Command(action, seat, list(rest))  # cards (reveal)


class LineEditor:
    """Keystrokes -> command lines on a terminal (pure; see the module's docstring)."""

    def __init__(self) -> None:
        self.buffer = ""        # the line being typed
        self._acted = False     # the last key acted at once: an Enter now ends it, confirms nothing

    def feed(self, text: str) -> list[str]:
        """The complete lines in `text` ("" is a lone Enter)."""
        out = []
        for ch in text:
            if ch == "\x03":
                raise KeyboardInterrupt  # Ctrl-C arrives as a key on the Windows console
            acted, self._acted = self._acted, False
            if ch in ("\n", "\r"):
                if self.buffer or not acted:
                    out.append(self.buffer)
                self.buffer = ""
            elif ch in ("\x7f", "\b"):
                self.buffer = self.buffer[:-1]
            elif ch == "\x1b":
                self.buffer = ""
            elif not self.buffer and ch in INSTANT:
                out.append(ch)
                self._acted = True
            elif ch.isprintable():
                self.buffer += ch
        return out


class _PosixTerminal:
    """A POSIX terminal in cbreak mode: keys as they are typed."""

    def __init__(self, fd: int) -> None:
        import termios
        import tty
        self.fd = fd
        self._saved: Any = termios.tcgetattr(fd)
        tty.setcbreak(fd)

    def read(self, timeout: float) -> str | None:
        """Keys typed within `timeout` ("" if none); None at the end of input."""
        import select
        try:
            ready, _, _ = select.select([self.fd], [], [], timeout)
        except (OSError, ValueError):
            return None
        if not ready:
            return ""
        data = os.read(self.fd, 1024)
        return data.decode(errors="replace") if data else None

    def restore(self) -> None:
        if self._saved is not None:
            import termios
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None


class _WindowsConsole:
    """The Windows console: msvcrt gives each key as it is pressed."""

    POLL_S = 0.01

    def __init__(self) -> None:
        import msvcrt
        self.msvcrt: Any = msvcrt  # (typeshed knows its functions on Windows only)

    def read(self, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        while not self.msvcrt.kbhit():
            if time.monotonic() >= deadline:
                return ""
            time.sleep(self.POLL_S)
        out = ""
        while self.msvcrt.kbhit():
            ch = self.msvcrt.getwch()
            if ch in ("\x00", "\xe0"):
                self.msvcrt.getwch()  # an arrow or function key: its second half means nothing here
                continue
            out += ch
        return out

    def restore(self) -> None:
        return


class _StreamLines:
    """A pipe or a file: a thread reads whole lines, so nothing blocks and nothing POSIX is needed."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True, name="tableref-keys").start()

    def _pump(self) -> None:
        try:
            for line in self.stream:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def read(self, timeout: float) -> str | None:
        try:
            first = self._lines.get(timeout=timeout) if timeout > 0 else self._lines.get_nowait()
        except queue.Empty:
            return ""
        out = ""
        line: str | None = first
        while line is not None:
            out += line if line.endswith("\n") else line + "\n"
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return out
        self._lines.put(None)  # the end of input: said again on every later read
        return out or None

    def restore(self) -> None:
        return


class KeyReader:
    """Reads commands from stdin without blocking the loop.

    On a terminal (POSIX or the Windows console): single keys act at once, others build a
    line (echoed in the prompt by the view). From a pipe or file: one command per line.
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        try:
            fd: int | None = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            fd = None
        self.interactive = fd is not None and os.isatty(fd)
        self.closed = fd is None
        self._editor = LineEditor()
        self._source: Any = None
        if self.closed:
            return
        if self.interactive and sys.platform == "win32":
            self._source = _WindowsConsole()
        elif self.interactive:
            assert fd is not None
            self._source = _PosixTerminal(fd)
        else:
            self._source = _StreamLines(self.stream)

    @property
    def buffer(self) -> str:
        """The line being typed (interactive)."""
        return self._editor.buffer

    def restore(self) -> None:
        if self._source is not None:
            self._source.restore()

    def read_lines(self, timeout: float = 0.0) -> list[str]:
        """Complete lines typed since the last call (not yet parsed; "" is Enter alone)."""
        if self.closed:
            return []
        text = self._source.read(timeout)
        if text is None:
            self.closed = True
            text = ""
        if self.interactive:
            return self._editor.feed(text)
        return [line.strip() for line in text.splitlines()]  # an empty line (Enter alone) is kept
