"""`sim://`: a board simulated in-process from the same tablelink code the firmware runs.

The board half is tablelink.board.BoardSession (protocol) plus tablelink.show (what a
snapshot looks like); only the LEDs, display and buzzer are replaced by attributes that say
what they would show. Bytes still go through the real frame codec in both directions.
"""
from __future__ import annotations

import os

from tablelink import show
from tablelink.board import BoardSession
from tablelink.messages import Snapshot

SIM_FW = "sim"


class SimBoard:
    """What a person at the table would see and hear, plus the four buttons."""

    def __init__(self, now_ms: int, pixels: int = 12, boot_id: str | None = None):
        self.pixels = pixels
        self.session = BoardSession(boot_id or os.urandom(4).hex(), "unix", pixels, SIM_FW, now_ms)
        self.now_ms = now_ms
        self.cues: list[str] = []  # every cue sounded, in order
        self._taken: str | None = None  # the code a press just answered an ask with, as the firmware's app
        self._taken_until = 0
        self._outbox = bytearray()

    @property
    def boot_id(self) -> str:
        return self.session.boot_id

    @property
    def shown(self) -> Snapshot | None:
        return self.session.shown

    def lost(self) -> bool:
        return self.session.lost(self.now_ms)

    def digits(self) -> str:
        taken = self._taken if self.now_ms < self._taken_until else None
        return show.digits(self.shown, self.now_ms, self.lost(), taken)

    def ring(self) -> list[tuple[int, int, int]]:
        return show.ring(self.shown, self.now_ms, self.pixels, self.lost())

    def press(self, button: str, press: str = "short", arg: str | None = None) -> None:
        """A press as the firmware's app sends it: while asked, PASS/COLOUR short answer with
        the offered code shown (a `take` cue)."""
        taken = self.shown.answer(button, press) if self.shown is not None and arg is None else None
        if taken is not None:
            arg = taken
            self.cues.append("take")
            self._taken, self._taken_until = taken, self.now_ms + show.TAKEN_MS
        self._outbox += self.session.press(button, press, arg, self.now_ms)

    # -- the wire side, driven by SimTransport --------------------------------------------
    def receive(self, data: bytes, now_ms: int) -> None:
        self.now_ms = max(self.now_ms, now_ms)
        before = self.shown
        self._outbox += self.session.feed(data, self.now_ms)
        if self.shown is not before:
            self.cues += show.cues(before, self.shown)

    def transmit(self, now_ms: int) -> bytes:
        self.now_ms = max(self.now_ms, now_ms)
        self._outbox += self.session.tick(self.now_ms)
        out, self._outbox = bytes(self._outbox), bytearray()
        return out


class SimTransport:
    """The transport for sim://; `board` is the simulated board."""

    def __init__(self, now_ms: int, board: SimBoard | None = None):
        self.name = "sim://"
        self.board = board or SimBoard(now_ms)

    def read(self, now_ms: int, timeout_s: float = 0.0) -> bytes:
        return self.board.transmit(now_ms)

    def write(self, data: bytes, now_ms: int) -> None:
        self.board.receive(data, now_ms)

    def close(self) -> None:
        pass
