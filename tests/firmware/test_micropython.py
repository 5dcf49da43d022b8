"""The firmware's modules under the real MicroPython unix port: the codec's golden vectors,
a CPython/MicroPython differential run of the pure modules, and the whole app on a pty."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty", reason="needs POSIX ptys")
tty = pytest.importorskip("tty", reason="needs POSIX ttys")

from conftest import FIRMWARE, HERE, LIB
from tablelink.frame import FrameReader
from tablelink.messages import Ack, Back, Btn, Hi, Snapshot, parse


def run_mp(micropython: str, env: dict, *args: str) -> str:
    r = subprocess.run([micropython, *args], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_golden_vectors_under_micropython(micropython: str, mp_env: dict) -> None:
    env = dict(mp_env, MICROPYPATH=f"{LIB}:{HERE}")
    out = run_mp(micropython, env, str(HERE / "mp_vectors.py"), str(HERE / "vectors.json"))
    n = len(json.loads((HERE / "vectors.json").read_text())["frames"])
    assert out.startswith("vectors ok ") and int(out.split()[2]) > n


def test_pure_modules_behave_the_same_on_cpython_and_micropython(
        micropython: str, mp_env: dict) -> None:
    mp = json.loads(run_mp(micropython, mp_env, str(HERE / "mp_pure.py")))
    cp = subprocess.run([sys.executable, str(HERE / "mp_pure.py")], capture_output=True,
                        text=True, env=dict(os.environ, PYTHONPATH=f"{LIB}:{FIRMWARE}"),
                        timeout=60)
    assert cp.returncode == 0, cp.stderr
    assert json.loads(cp.stdout) == mp
    assert mp["wire"][0].startswith("$HI,1,b00710ad,unix,12,")  # it did run something


class Board:
    """The firmware under MicroPython on a pty: the test is the host end."""

    def __init__(self, micropython: str, env: dict, *, extra_env: dict | None = None) -> None:
        self.master, slave = pty.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(slave)
        self.slave = slave
        self.proc = subprocess.Popen(
            [micropython, str(FIRMWARE / "main.py"), self.path], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(env, **(extra_env or {})))
        self.reader = FrameReader()
        self.rx: list = []
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._out = b""
        self.lines: list[dict] = []

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def command(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def pump(self, timeout: float) -> None:
        fds = [self.master, self.proc.stdout.fileno()]
        for fd in select.select(fds, [], [], timeout)[0]:
            data = os.read(fd, 65536)
            if fd == self.master:
                self.rx += [parse(f) for f in self.reader.feed(data)]
            else:
                self._out += data
                *done, self._out = self._out.split(b"\n")
                self.lines += [json.loads(x) for x in done if x.strip()]

    def until(self, cond, what: str, timeout: float = 8.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = cond()
            if got:
                return got
            self.pump(0.05)
        raise AssertionError(f"timed out waiting for {what}; lines={self.lines[-3:]} "
                             f"rx={self.rx[-5:]}")

    def close(self) -> int:
        if self.proc.poll() is None:
            self.command("quit")
        try:
            rc = self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)
            os.close(self.slave)
        return rc


@pytest.fixture
def board(micropython: str, mp_env: dict):
    b = Board(micropython, mp_env)
    yield b
    assert b.close() == 0


def test_app_on_a_pty_speaks_the_protocol_and_reports_what_it_shows(board: Board) -> None:
    boot = board.until(lambda: board.lines and board.lines[0].get("boot"), "boot line")
    hi = board.until(lambda: [m for m in board.rx if isinstance(m, Hi)], "HI")[0]
    assert hi.boot_id == boot and hi.board == "unix" and hi.proto == 1
    board.send(Snapshot("0a1b2c3d", 1, 4, turn=1, total=42).encode())
    board.until(lambda: Ack("0a1b2c3d", 1) in board.rx, "ACK 1")
    shown = board.until(lambda: [x for x in board.lines if x.get("snap") == ["0a1b2c3d", 1]],
                        "snapshot 1 shown")[0]
    assert shown["digits"] == "  42" and shown["lost"] is False and len(shown["ring"]) == 12
    assert max(max(c) for c in shown["ring"]) <= 64  # config.BRIGHTNESS_CAP
    board.send(Snapshot("0a1b2c3d", 2, 4, turn=2, total=93).encode())
    danger = board.until(lambda: [x for x in board.lines if x.get("tone") == "danger"],
                         "danger cue")[0]
    assert danger["digits"] == "  93" and danger["snap"] == ["0a1b2c3d", 2]
    board.command("press DRAW short")
    btn = board.until(lambda: [m for m in board.rx if isinstance(m, Btn)], "BTN")[0]
    assert btn == Btn(boot, 1, "DRAW", "short")
    n_before = len(board.rx)
    board.until(lambda: [m for m in board.rx[n_before:] if m == btn], "BTN resent")
    board.send(Back(boot, 1).encode())
    board.command("press COLOUR short")
    board.command("press COLOUR short")
    board.command("press COLOUR long")
    confirm = board.until(lambda: [m for m in board.rx if isinstance(m, Btn) and m.n == 2],
                          "COLOUR confirm")[0]
    assert confirm == Btn(boot, 2, "COLOUR", "long", "yellow")  # red, yellow, confirm
    # the host goes quiet: LOSt alternating with the last total
    lost = board.until(lambda: [x for x in board.lines if x.get("lost")], "link lost",
                       timeout=10)[0]
    assert lost["digits"] in ("LOSt", "  93")
    board.until(lambda: {x["digits"] for x in board.lines if x.get("lost")} >= {"LOSt", "  93"},
                "LOSt alternating with the total", timeout=10)


def test_button_held_at_boot_gives_safe_mode(micropython: str, mp_env: dict) -> None:
    r = subprocess.run([micropython, str(FIRMWARE / "main.py"), "/nonexistent-tty"],
                       capture_output=True, text=True, timeout=30,
                       env=dict(mp_env, TABLEREF_BOOT_HOLD="DRAW"))
    assert r.returncode == 0 and json.loads(r.stdout) == {"safe_mode": True}


def test_bad_tty_is_one_error_line(micropython: str, mp_env: dict) -> None:
    r = subprocess.run([micropython, str(FIRMWARE / "main.py"), "/nonexistent-tty"],
                       capture_output=True, text=True, timeout=30, env=mp_env)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "/nonexistent-tty" in r.stderr


USB_APP = """
import sys
import config
from tableboard.app import App
from tableboard.clock import Clock
from tableboard.simhw import SimHardware
from tableboard.usb_link import UsbLink
app = App(SimHardware(config, out=sys.stderr), UsbLink(), Clock(), config, "b00710ad", "rp2", "t")
app.run()
sys.stderr.write("stopped\\n")
"""


def test_board_usb_link_acks_and_ctrl_c_hands_over_to_the_repl(
        micropython: str, mp_env: dict) -> None:
    """The rp2/esp32 link (sys.stdin.buffer + select.poll) driving the app under the unix
    port: frames before a Ctrl-C byte are acked, the app then stops instead of reading on."""
    before = Snapshot("0a1b2c3d", 1, 3, turn=0, total=7).encode()
    after = Snapshot("0a1b2c3d", 2, 3, turn=1, total=9).encode()
    r = subprocess.run([micropython, "-c", USB_APP], input=before + b"\x03" + after,
                       capture_output=True, timeout=30, env=mp_env)
    assert r.returncode == 0, r.stderr
    assert r.stderr.decode().rstrip().endswith("stopped")
    got = [parse(f) for f in FrameReader().feed(r.stdout)]
    assert Ack("0a1b2c3d", 1) in got and Ack("0a1b2c3d", 2) not in got
    his = [m for m in got if isinstance(m, Hi)]
    assert his and his[0].board == "rp2" and his[0].boot_id == "b00710ad"
