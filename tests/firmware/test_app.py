"""tableboard.app.App on CPython with a scripted clock and an in-memory link: the same App
object the board runs, deterministic in time."""
from __future__ import annotations

import io
import json

import config
from tableboard.app import PERIOD_MS, PICK_TIMEOUT_MS, TAKEN_MS, App
from tableboard.simhw import SimHardware
from tablelink.frame import FrameReader
from tablelink.messages import Ack, Back, Btn, Hi, Snapshot, parse

BOOT = "b00710ad"


class Clock:
    def __init__(self) -> None:
        self.t = 0

    def now(self) -> int:
        return self.t


class MemLink:
    def __init__(self) -> None:
        self.inbox = b""
        self.sent = b""
        self.closed = False

    def read(self) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def wait(self, ms: int) -> None:
        pass


class Rig:
    def __init__(self) -> None:
        self.clock, self.link, self.out = Clock(), MemLink(), io.StringIO()
        self.hw = SimHardware(config, out=self.out)
        self.app = App(self.hw, self.link, self.clock, config, BOOT, "unix", "t")

    def run(self, ms: int) -> None:
        for _ in range(ms // PERIOD_MS):
            self.app.step(self.clock.t)
            self.clock.t += PERIOD_MS

    def press(self, button: str, kind: str) -> None:
        self.hw.press(button, kind, self.clock.t)

    def sent(self) -> list:
        return [parse(f) for f in FrameReader().feed(self.link.sent)]

    def lines(self) -> list[dict]:
        return [json.loads(x) for x in self.out.getvalue().splitlines()]


def test_colour_short_presses_cycle_locally_and_long_confirms() -> None:
    r = Rig()
    r.link.inbox = Snapshot("0a1b2c3d", 1, 3, turn=0, colour="green").encode()
    r.run(100)
    r.press("COLOUR", "short")
    r.run(400)
    assert r.app.picking == "blue"  # the one after the active colour
    assert not [m for m in r.sent() if isinstance(m, Btn)]  # nothing sent for a short
    ring = r.lines()[-1]["ring"]
    assert all(c[2] > c[0] for c in ring)  # the ring shows the colour being picked
    r.press("COLOUR", "short")
    r.press("COLOUR", "long")
    r.run(2000)
    assert [m for m in r.sent() if isinstance(m, Btn)][0] == Btn(BOOT, 1, "COLOUR", "long", "red")
    assert r.app.picking is None


def test_unconfirmed_colour_choice_times_out() -> None:
    r = Rig()
    r.press("COLOUR", "short")
    r.run(PICK_TIMEOUT_MS - 500)
    assert r.app.picking == "red"
    r.run(1000)
    assert r.app.picking is None


def test_cue_lines_and_button_resend_until_back() -> None:
    r = Rig()
    r.link.inbox = Snapshot("0a1b2c3d", 1, 3, turn=0, total=50).encode()
    r.run(50)
    r.link.inbox = Snapshot("0a1b2c3d", 2, 3, turn=1, total=60).encode()
    r.run(50)
    tones = [x["tone"] for x in r.lines() if x.get("tone")]
    assert tones == ["turn"]
    r.press("UNDO", "long")
    r.run(config.LONG_PRESS_MS + 1300)
    btns = [m for m in r.sent() if isinstance(m, Btn)]
    assert btns[0] == Btn(BOOT, 1, "UNDO", "long") and len(btns) >= 2  # resent
    r.link.inbox = Back(BOOT, 1).encode()
    r.run(20)
    before = len(r.sent())
    r.run(2000)
    assert not [m for m in r.sent()[before:] if isinstance(m, Btn)]
    assert Ack("0a1b2c3d", 2) in r.sent() and isinstance(r.sent()[0], (Hi, Ack))


def test_while_asking_pass_takes_the_likeliest_and_colour_the_runner_up() -> None:
    r = Rig()
    r.link.inbox = Snapshot("0a1b2c3d", 1, 3, turn=0, colour="green", mode="ask", offer=("red-6", "red-9")).encode()
    r.run(100)
    assert r.lines()[-1]["digits"] == "r  6"  # the likeliest card, alternating with CArd
    r.press("PASS", "short")
    r.run(300)
    took = r.lines()[-1]
    assert [m for m in r.sent() if isinstance(m, Btn)] == [Btn(BOOT, 1, "PASS", "short", "red-6")]
    assert any(ln["tone"] == "take" for ln in r.lines())
    # the card taken stays on the digits for TAKEN_MS, through the CArd half of the alternation
    r.run(TAKEN_MS - 400)
    assert {ln["digits"] for ln in r.lines() if ln["t"] >= took["t"]} == {"r  6"}
    r.press("COLOUR", "short")
    r.run(300 + TAKEN_MS)
    assert [m for m in r.sent() if isinstance(m, Btn)][-1] == Btn(BOOT, 2, "COLOUR", "short", "red-9")
    assert r.app.picking is None  # it answered: no colour cycling
    assert "r  9" in [ln["digits"] for ln in r.lines()]
    assert r.lines()[-1]["digits"] in ("r  6", "CArd")  # back to asking once TAKEN_MS is over


def test_the_same_presses_keep_their_meaning_when_nothing_is_asked() -> None:
    r = Rig()
    r.link.inbox = Snapshot("0a1b2c3d", 1, 3, turn=0, colour="green").encode()
    r.run(100)
    r.press("PASS", "short")
    r.press("COLOUR", "short")
    r.run(600)
    assert [m for m in r.sent() if isinstance(m, Btn)] == [Btn(BOOT, 1, "PASS", "short", None)]
    assert r.app.picking == "blue" and r.app.taken is None
    assert not any(ln["tone"] == "take" for ln in r.lines())
