"""Byte transports under the link: a pyserial port (any URL) and the interface they share.

A transport is opened once; any failure while reading or writing raises PortGone, after
which the link closes it and opens a new one when the port comes back.
"""
from __future__ import annotations

import errno
import select
import time
from typing import Protocol

import serial

from ..errors import UserError

WRITE_TIMEOUT_S = 1.0  # a board that stops reading must not freeze the referee


class PortGone(Exception):
    """The port vanished or failed (unplugged, board reset, pty closed)."""


class Transport(Protocol):
    name: str

    def read(self, now_ms: int, timeout_s: float = 0.0) -> bytes: ...
    def write(self, data: bytes, now_ms: int) -> None: ...
    def close(self) -> None: ...


def open_error(name: str, exc: Exception) -> UserError:
    """One clear line for a port that cannot be opened."""
    code = getattr(exc, "errno", None)
    if code == errno.ENOENT:
        why = "no such port (is the board plugged in? `tableref ports` lists ports)"
    elif code in (errno.EACCES, errno.EPERM):
        why = "permission denied (on Linux, add yourself to the 'dialout' group and log in again)"
    elif code in (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK) or "lock" in str(exc).lower():
        why = "port is busy (another program, e.g. mpremote, Thonny or another tableref, has it open)"
    else:
        why = str(exc).split(": ", 1)[-1] or type(exc).__name__
    return UserError(f"{name}: {why}")


class SerialTransport:
    """A pyserial port opened with serial_for_url: device paths and every pyserial URL."""

    def __init__(self, url: str, baudrate: int = 115200):
        self.name = url
        try:
            # exclusive: two programs reading one board would each get half of the frames;
            # pyserial's rfc2217 client (Wokwi) refuses any write_timeout
            self.ser = serial.serial_for_url(url, baudrate=baudrate, timeout=0,
                                             write_timeout=None if url.lower().startswith("rfc2217://") else WRITE_TIMEOUT_S,
                                             exclusive=True if "://" not in url else None)
        except (serial.SerialException, OSError, ValueError, NotImplementedError) as exc:
            raise open_error(url, exc) from None
        try:
            self._fd: int | None = self.ser.fileno()
        except Exception:  # URL handlers without a file descriptor (loop://)
            self._fd = None

    def read(self, now_ms: int, timeout_s: float = 0.0) -> bytes:
        try:
            if timeout_s > 0:
                if self._fd is not None:
                    select.select([self._fd], [], [], timeout_s)
                elif not self.ser.in_waiting:
                    time.sleep(min(timeout_s, 0.005))
            return self.ser.read(max(1, self.ser.in_waiting))
        except (serial.SerialException, OSError) as exc:
            raise PortGone(str(exc)) from None

    def write(self, data: bytes, now_ms: int) -> None:
        if not data:
            return
        try:
            self.ser.write(data)
        except serial.SerialTimeoutException:
            pass  # the board is not reading: drop it, the heartbeat repeats what matters
        except (serial.SerialException, OSError) as exc:
            raise PortGone(str(exc)) from None

    def close(self) -> None:
        try:
            self.ser.close()
        except Exception:  # closing a vanished port may fail; it is gone either way
            pass
