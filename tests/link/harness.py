"""Test and bench harness: the real firmware on the MicroPython unix port, behind a pty relay.

    firmware <-> pty A <-> Relay (optionally mangling bytes) <-> pty B <-> host (pyserial)

The host opens a stable symlink to pty B's slave (like /dev/serial/by-id/...), so an
"unplug" closes pty B and a "replug" makes a new pty B behind the same path. The relay keeps
pty A open all the time, so the firmware process can be killed and restarted on the same tty
(a board reset) without the relay noticing.
"""
from __future__ import annotations

import os
import pathlib
import random
import select
import sys
import threading
import time
from typing import Any, Callable

from tableref.firmware_board import FIRMWARE, FirmwareProcess, micropython_exe, raw_pty, unavailable

REPO = FIRMWARE.parent


# One definition of where the unix-port firmware comes from, shared with the demo.
skip_reason = unavailable


class Mangler:
    """Seeded byte damage: flipped bits, dropped and duplicated bytes, bursts of garbage."""

    def __init__(self, seed: int, flip: float = 0.002, drop: float = 0.002, dup: float = 0.002, garbage: float = 0.03):
        self.rng = random.Random(seed)
        self.flip, self.drop, self.dup, self.garbage = flip, drop, dup, garbage
        self.damage = 0  # bytes changed, dropped, duplicated or inserted

    def __call__(self, data: bytes) -> bytes:
        rng = self.rng
        out = bytearray()
        if rng.random() < self.garbage:
            burst = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
            out += burst
            self.damage += len(burst)
        for b in data:
            r = rng.random()
            if r < self.drop:
                self.damage += 1
                continue
            if r < self.drop + self.flip:
                b ^= 1 << rng.randrange(8)
                self.damage += 1
            out.append(b)
            if rng.random() < self.dup:
                out.append(b)
                self.damage += 1
        return bytes(out)


class Relay:
    """Copies bytes between the firmware's pty and the host's pty in a thread."""

    def __init__(self, workdir: pathlib.Path, to_host: Callable[[bytes], bytes] | None = None,
                 to_board: Callable[[bytes], bytes] | None = None):
        self.board_master, self._board_slave, self.board_tty = raw_pty()
        self.host_path = str(workdir / "board-tty")
        self.to_host = to_host or (lambda b: b)
        self.to_board = to_board or (lambda b: b)
        self._lock = threading.Lock()
        self._host: tuple[int, int] | None = None
        self.plug()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="pty-relay", daemon=True)
        self._thread.start()

    def plug(self) -> None:
        """A (new) host-side pty appears behind host_path."""
        with self._lock:
            master, slave, name = raw_pty()
            self._host = (master, slave)
            tmp = self.host_path + ".new"
            os.symlink(name, tmp)
            os.replace(tmp, self.host_path)

    def unplug(self) -> None:
        """The host-side pty disappears: the host's reads fail (EIO), its path is gone."""
        with self._lock:
            if self._host is None:
                return
            os.unlink(self.host_path)
            for fd in self._host:
                os.close(fd)
            self._host = None

    def _run(self) -> None:
        while not self._stop:
            with self._lock:
                fds = [self.board_master] + ([self._host[0]] if self._host else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):
                continue  # an fd closed under us by unplug(): look again
            with self._lock:
                host = self._host[0] if self._host else None
                for fd in ready:
                    if fd == self.board_master:
                        data = _read(fd)
                        if data and host is not None:
                            _write(host, self.to_host(data))
                    elif fd == host:
                        data = _read(fd)
                        if data:
                            _write(self.board_master, self.to_board(data))

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=5)
        self.unplug()
        os.close(self.board_master)
        os.close(self._board_slave)


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 4096)
    except (BlockingIOError, OSError):
        return b""


def _write(fd: int, data: bytes) -> None:
    try:
        os.write(fd, data)  # a full pty buffer drops the bytes, like an overrun UART
    except (BlockingIOError, OSError):
        pass


# The real firmware (firmware/main.py) under the unix-port micropython on a tty path.
Firmware = FirmwareProcess


def pump_until(link: Any, cond: Callable[[], bool], timeout_s: float = 60.0, events: list | None = None) -> list:
    """Poll the link until cond() holds; returns the button events seen meanwhile.

    Raises AssertionError after timeout_s (generous: the machine may be loaded).
    """
    got = [] if events is None else events
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout_s} s")
        got += link.poll(timeout_s=0.02)
    return got


class Rfc2217Server:
    """An RFC 2217 server (the protocol Wokwi's serial port speaks) in front of a tty, built on
    pyserial's own PortManager: `rfc2217://127.0.0.1:<port>` then reaches the board behind it."""

    def __init__(self, device: str):
        import socket

        self.device = device
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(1)
        self.url = f"rfc2217://127.0.0.1:{self._listener.getsockname()[1]}"
        self._stop = False
        self._thread = threading.Thread(target=self._serve, name="rfc2217", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        import serial
        from serial.rfc2217 import PortManager

        self._listener.settimeout(0.2)
        while not self._stop:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                continue
            conn.setblocking(True)

            class _PtySerial(serial.Serial):
                """A pty has no modem lines: setting DTR/RTS is a no-op, reading them says off."""

                def _update_dtr_state(self) -> None:
                    pass

                def _update_rts_state(self) -> None:
                    pass

                @property
                def cts(self) -> bool:
                    return False

                @property
                def dsr(self) -> bool:
                    return False

                @property
                def ri(self) -> bool:
                    return False

                @property
                def cd(self) -> bool:
                    return False

            ser = _PtySerial(self.device, timeout=0)

            class _Net:
                def write(self, data: bytes) -> None:
                    conn.sendall(data)

            manager = PortManager(ser, _Net())  # pyright: ignore[reportArgumentType]  (the stub types `connection` as a Serial)
            try:
                while not self._stop:
                    ready, _, _ = select.select([conn, ser.fileno()], [], [], 0.05)
                    if conn in ready:
                        data = conn.recv(4096)
                        if not data:
                            break  # the client went away
                        ser.write(b"".join(manager.filter(data)))
                    if ser.fileno() in ready:
                        conn.sendall(b"".join(manager.escape(ser.read(4096))))
            except OSError:
                pass
            finally:
                ser.close()
                conn.close()

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=5)
        self._listener.close()
