"""A person at a real terminal running `tableref run --confirm` on a recorded game: a pseudo-
terminal carries every key one at a time, with a person's pauses; the person reads the screen
(the last full redraw) once it has been still for a moment, and answers what it asks from the
game's truth and the journal so far: Enter when the camera saw right, `u` then `x <card>` when
it misread, the name of a card it cannot read, and every input the camera cannot give. At
the end of a hand the person lets the video show the hands and checks what the screen says
the camera read for each: Enter when it is the hand, else the hand typed."""
from __future__ import annotations

import os
import pathlib
import pty
import random
import re
import select
import subprocess
import sys
import time
from typing import Any

from app_person import correction, due_lines, game_events, is_card
from tableref.game_script import _typed
from app_run_driver import journal_records

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")
CLEAR = "\x1b[H\x1b[2J"
QUIET_S = 0.4  # the screen has been still this long: the program waits for the person
OFFER = re.compile(r"\(seat (\d+)\) read as: ([^\n]*?) -- Enter accepts")


class PtyPerson:
    def __init__(self, args: list[str], journal: pathlib.Path, expected: list[dict[str, Any]], seed: int = 0) -> None:
        self.journal = journal
        self.expected = expected
        self.rng = random.Random(seed)
        self.out = ""
        self.ended = False        # the screen said the video is over
        self.typed: list[str] = []
        self.undone: str | None = None  # a misread card just undone: its right name comes next
        self.hands_accepted: list[int] = []  # seats whose hand the camera read right (Enter)
        self.hands_typed: list[int] = []     # ... and read wrong (the hand typed instead)
        master, slave = pty.openpty()
        self.master = master
        env = dict(os.environ, TERM="xterm", PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([TABLEREF, "run", *args], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                                     env=env, start_new_session=True)
        os.close(slave)

    # -- the terminal ------------------------------------------------------------------------
    def _read(self, timeout: float) -> bool:
        """Read what the program wrote within `timeout`; False once it has closed the terminal."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program ended
            return False
        if not data:
            return False
        self.out = (self.out + data.decode(errors="replace"))[-200_000:]
        return True

    def screen(self) -> str:
        return self.out.rsplit(CLEAR, 1)[-1]

    def type(self, line: str) -> None:
        """One key at a time, as a person types, then Enter."""
        self.typed.append(line)
        for ch in line + "\r":
            try:
                os.write(self.master, ch.encode())
            except OSError:  # the program has ended (after q)
                return
            time.sleep(self.rng.uniform(0.02, 0.09))

    # -- the person --------------------------------------------------------------------------
    def decide(self, screen: str) -> str | None:
        """The next line to type for this screen, or None to keep watching."""
        prompt = screen.rstrip().splitlines()[-2:] if screen.strip() else []
        confirming = any(ln.startswith("confirm?") for ln in prompt)
        paused = any(ln.startswith("video paused") for ln in prompt)
        if "end of the video" in screen:
            self.ended = True
        if not (confirming or paused or self.ended):
            return None
        done = game_events(journal_records(self.journal))
        fix = correction(self.expected, done)
        if fix:
            self.undone = fix[1]
            return fix[0]
        if done != self.expected[:len(done)]:
            raise AssertionError(f"the journal left the game at event {len(done)}:\n{screen}")
        if len(done) == len(self.expected):
            return "q" if self.ended else ("" if confirming else None)
        nxt = self.expected[len(done)]
        offer = OFFER.search("\n".join(prompt))
        if offer is not None:
            return self.check_hand(int(offer.group(1)), offer.group(2).split(), nxt)
        if nxt["type"] == "reveal" and not self.ended:
            return "" if confirming else None  # the hands are shown to the camera: watch
        if not is_card(nxt):
            return due_lines(self.expected, done)[0]
        if self.undone is not None or "WHICH CARD?" in screen or self.ended:
            self.undone = None
            return f"x {nxt['card']}"  # the misread card's right name, or one the camera could not read
        return ""  # the next card comes from the pile: Enter lets the video go on

    def check_hand(self, seat: int, read: list[str], nxt: dict[str, Any]) -> str:
        """The hand the camera read for `seat`: Enter when it is the hand, else the hand typed."""
        assert nxt["type"] == "reveal" and nxt["seat"] == seat, f"offered seat {seat}'s hand, expected {nxt}"
        if sorted(read) == sorted(nxt["cards"]):
            self.hands_accepted.append(seat)
            return ""
        self.hands_typed.append(seat)
        return _typed(nxt)

    def drive(self, timeout_s: float = 900.0) -> int:
        deadline = time.monotonic() + timeout_s
        still_since = time.monotonic()
        while True:
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError("tableref run did not finish in time; screen:\n" + self.screen())
            size = len(self.out)
            if not self._read(0.05):
                break
            if len(self.out) != size:
                still_since = time.monotonic()
                continue
            if time.monotonic() - still_since < QUIET_S:
                continue
            line = self.decide(self.screen())
            if line is not None:
                self.type(line)
            still_since = time.monotonic()
        os.close(self.master)
        return self.proc.wait(timeout=30)
