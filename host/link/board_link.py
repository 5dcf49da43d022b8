"""BoardLink: the app's handle on the board. Owns a transport and a HostSession.

    link = BoardLink.open("auto", applied=pairs_from_journal, on_status=print)
    link.show(board_snapshot(ref.state, game, players, err_id))
    for ev in link.poll():          # new ButtonEvents, each exactly once
        ...apply and journal ev...  # acknowledged to the board at the next poll()
    link.close()

A port that vanishes (unplug, board reset, pty closed) is reported with one status line; the
link keeps its state, retries with backoff (re-discovering the board for `auto`), and shows
the current snapshot again once the port is back.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Callable, Iterable

from tablelink.host import ButtonEvent, HostSession
from tablelink.messages import Hi, Snapshot

from ..errors import UserError
from .sim import SimBoard, SimTransport
from .transport import PortGone, SerialTransport, Transport
from .urls import PortSpec, parse_port_spec

RETRY_FIRST_MS = 250
RETRY_MAX_MS = 4000
READ_CHUNK_LIMIT = 64  # reads per poll: a chatty board cannot starve the caller


def _print_status(line: str) -> None:
    print(f"tableref: {line}", file=sys.stderr, flush=True)


def monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


def new_epoch() -> str:
    return os.urandom(4).hex()


class BoardLink:
    def __init__(self, spec: PortSpec, session: HostSession, on_status: Callable[[str], None] | None,
                 clock: Callable[[], int]):
        self.spec = spec
        self.session = session
        self.on_status = on_status or _print_status
        self.clock = clock
        self.transport: Transport | None = None
        self.sim: SimBoard | None = None  # the simulated board for sim://
        self.reconnects = 0
        self._retry_at_ms = 0
        self._backoff_ms = RETRY_FIRST_MS
        self._unconfirmed: list[ButtonEvent] = []
        self._closed = False

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, port: str, applied: Iterable[tuple[str, int]] = (), on_status: Callable[[str], None] | None = None,
             *, epoch: str | None = None, clock: Callable[[], int] = monotonic_ms, wait: bool = False,
             sim: SimBoard | None = None) -> "BoardLink":
        """Open the board at `port` (device, pyserial URL, auto, auto:<serial>, sim://).

        applied: (boot_id, n) pairs already applied (from the journal): never delivered again.
        on_status: gets one line per change a person should know about (board found or
        refused, port vanished or back, board silent); default: printed to stderr.
        Raises UserError when the port cannot be opened, unless wait=True (then the link
        starts disconnected and keeps trying, as after an unplug).
        sim: for sim://, an existing SimBoard to talk to (e.g. the one a previous link used).
        """
        spec = parse_port_spec(port)
        now = clock()
        link = cls(spec, HostSession(epoch or new_epoch(), now, applied=set(applied)), on_status, clock)
        link.sim = sim
        try:
            link._connect(now)
        except UserError as exc:
            if not wait:
                raise
            link._status(f"waiting for the board: {exc}")
            link._retry_at_ms = now + link._backoff_ms
        return link

    def _open_transport(self, now_ms: int) -> Transport:
        if self.spec.kind == "sim":
            transport = SimTransport(now_ms, self.sim)
            self.sim = transport.board
            return transport
        if self.spec.kind == "auto":
            from serial.tools import list_ports

            from .discovery import choose_auto

            return SerialTransport(choose_auto(list_ports.comports(), self.spec.serial))
        return SerialTransport(self.spec.target)

    def _connect(self, now_ms: int) -> None:
        self.transport = self._open_transport(now_ms)
        self._backoff_ms = RETRY_FIRST_MS
        self._write(self.session.connected(now_ms), now_ms)

    # -- the app's calls -----------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.transport is not None

    @property
    def board(self) -> Hi | None:
        """The board's last HI (boot_id, board, pixels, fw), None before one arrived."""
        return self.session.board

    @property
    def refused(self) -> str | None:
        """Why the board was refused (it speaks another protocol version), else None."""
        return self.session.refused

    @property
    def port_name(self) -> str:
        return self.transport.name if self.transport is not None else self.spec.describe()

    def show(self, snap: Snapshot, now_ms: int | None = None) -> None:
        """Show `snap` (unstamped, e.g. from board_view) on the board; no-op if unchanged.

        Raises ValueError for a snapshot the protocol cannot carry.
        """
        now = self.clock() if now_ms is None else now_ms
        self._write(self.session.show(snap, now), now)

    def poll(self, now_ms: int | None = None, timeout_s: float = 0.0) -> list[ButtonEvent]:
        """Exchange pending bytes; return the button presses that arrived, each exactly once.

        Presses returned by the previous poll() are acknowledged now: apply and journal them
        before polling again. timeout_s > 0 waits up to that long for the first bytes.
        """
        now = self.clock() if now_ms is None else now_ms
        if self._unconfirmed:
            self._write(self.session.confirm(self._unconfirmed), now)
            self._unconfirmed = []
        if self.transport is None:
            self._maybe_reconnect(now)
            if timeout_s > 0 and self.transport is None:
                time.sleep(min(timeout_s, 0.05))
        if self.transport is not None:
            self._pump(now, timeout_s)
        for line in self.session.take_notices():
            self._status(line)
        events = self.session.take_events()
        self._unconfirmed = list(events)
        return events

    def close(self) -> None:
        """Close the port. Unacknowledged presses stay with the board, which resends them."""
        self._closed = True
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    # -- internals -----------------------------------------------------------------------
    def _pump(self, now: int, timeout_s: float) -> None:
        try:
            for i in range(READ_CHUNK_LIMIT):
                if self.transport is None:
                    return  # a write below found the port gone
                data = self.transport.read(now, timeout_s if i == 0 else 0.0)
                if not data:
                    break
                if timeout_s > 0:
                    now = self.clock()
                self._write(self.session.feed(data, now), now)
            self._write(self.session.tick(now), now)
        except PortGone as exc:
            self._lost(now, str(exc))

    def _write(self, data: bytes, now: int) -> None:
        if not data or self.transport is None:
            return
        try:
            self.transport.write(data, now)
        except PortGone as exc:
            self._lost(now, str(exc))

    def _lost(self, now: int, why: str) -> None:
        name = self.port_name
        if self.transport is not None:
            self.transport.close()
            self.transport = None
        self._status(f"board port {name} vanished ({why}); the game goes on, reconnecting when it is back")
        self._retry_at_ms = now + self._backoff_ms

    def _maybe_reconnect(self, now: int) -> None:
        if self._closed or now < self._retry_at_ms:
            return
        try:
            self._connect(now)
        except UserError:
            self._backoff_ms = min(self._backoff_ms * 2, RETRY_MAX_MS)
            self._retry_at_ms = now + self._backoff_ms
            return
        self.reconnects += 1
        self._status(f"board port {self.port_name} is back; showing the game again")

    def _status(self, line: str) -> None:
        self.on_status(line)
