"""End to end: the real firmware on the MicroPython unix port <-> pty <-> the host's pyserial link.

Every wait polls a condition with a generous timeout; nothing here measures time.
"""
# pyright: reportOptionalMemberAccess=false, reportOptionalSubscript=false
from __future__ import annotations

import pathlib
import runpy
import threading
import time
from typing import Any, Iterator

import pytest

from tableref.link import BoardLink, applied_pairs, source_tag
from tablelink import show
from tablelink.host import UNSTAMPED_EPOCH, UNSTAMPED_SEQ
from tablelink.messages import Snapshot

from harness import FIRMWARE, Firmware, Mangler, Relay, Rfc2217Server, pump_until, skip_reason

pytestmark = [pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or ""), pytest.mark.timeout(300)]

CFG = runpy.run_path(str(FIRMWARE / "config.py"))


class Tap:
    """Counts BTN frames on their way to the host (to see the board's resends)."""

    def __init__(self, mangle: Mangler | None = None) -> None:
        self.mangle = mangle
        self.btn_frames = 0
        self.last_btn = 0.0
        self._lock = threading.Lock()

    def __call__(self, data: bytes) -> bytes:
        if b"$BTN" in data:
            with self._lock:
                self.btn_frames += data.count(b"$BTN")
                self.last_btn = time.monotonic()
        return self.mangle(data) if self.mangle else data


class Rig:
    def __init__(self, tmp: pathlib.Path, to_host: Any = None, to_board: Any = None) -> None:
        self.tap = Tap(to_host)
        self.relay = Relay(tmp, to_host=self.tap, to_board=to_board)
        self.firmware = Firmware(self.relay.board_tty)
        self.status: list[str] = []
        self.link = BoardLink.open(self.relay.host_path, on_status=self.status.append)
        self.sent: dict[tuple[str, int], Snapshot] = {}

    def show(self, snap: Snapshot) -> Snapshot:
        self.link.show(snap)
        cur = self.link.session.current
        assert cur is not None
        self.sent[(cur.epoch, cur.seq)] = cur
        return cur

    def shown_is(self, snap: Snapshot) -> bool:
        last = self.firmware.shown()
        return last is not None and last["snap"] == [snap.epoch, snap.seq]

    def check_every_display_line(self) -> int:
        """Each line the firmware printed for a snapshot shows exactly what tablelink.show says
        for the snapshot as the host sent it. Returns how many lines were checked."""
        n = 0
        for line in self.firmware.snapshot_lines():
            if line.get("snap") is None or "digits" not in line:
                continue
            snap = self.sent[tuple(line["snap"])]
            t, lost = line["t"], line["lost"]
            assert line["digits"] == show.digits(snap, t, lost)
            ring = show.apply_cap(show.ring(snap, t, CFG["PIXELS"], lost, None), CFG["BRIGHTNESS_CAP"])
            assert line["ring"] == [list(c) for c in ring]
            n += 1
        return n

    def close(self) -> None:
        self.link.close()
        self.firmware.stop()
        self.relay.close()


@pytest.fixture
def rig(tmp_path: pathlib.Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.close()


def ono(turn: int, total: int, players: int = 4, **kw: Any) -> Snapshot:
    return Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, players, turn=turn, total=total, **kw)


def test_snapshots_are_displayed_as_sent(rig: Rig) -> None:
    # the firmware's stdout is read by a thread: on a loaded machine its boot line can trail the HI
    pump_until(rig.link, lambda: rig.link.session.board is not None and rig.firmware.boot_id is not None)
    assert rig.link.session.board.boot_id == rig.firmware.boot_id and rig.link.session.board.board == "unix"
    for snap in [ono(1, 5), ono(2, 17, direction="ccw"), ono(3, 95), ono(3, 96, elim=0b0001), ono(0, -4, pend="p2"),
                 Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 3, turn=2, colour="green", pend="d4"), Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 3, winner=1, mode="over")]:
        cur = rig.show(snap)
        pump_until(rig.link, lambda: rig.shown_is(cur) and rig.link.session.acked)
    assert rig.check_every_display_line() >= 6
    tones = [ln["tone"] for ln in rig.firmware.snapshot_lines() if ln.get("tone")]
    sent = list(rig.sent.values())
    expected = [show.cue(a, b) for a, b in zip(sent, sent[1:])]
    assert tones == [c for c in expected if c] and "bust" in tones and "win" in tones


def test_button_presses_are_delivered_exactly_once(rig: Rig) -> None:
    cur = rig.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 4, turn=1, colour="green"))
    pump_until(rig.link, lambda: rig.shown_is(cur))
    for button, press in [("DRAW", "short"), ("PASS", "long"), ("UNDO", "short"), ("COLOUR", "long"),
                          ("COLOUR", "short"), ("COLOUR", "long")]:
        rig.firmware.press(button, press)
    events = pump_until(rig.link, lambda: rig.tap.btn_frames >= 5)
    time.sleep(1.2)  # the host is busy: the board resends what is not acked yet
    events = pump_until(rig.link, lambda: len(events) >= 5, events=events)
    # then quiet: no more resends once everything is acked
    pump_until(rig.link, lambda: time.monotonic() - rig.tap.last_btn > 1.5, events=events)
    got = [(e.boot_id, e.n, e.button, e.press, e.arg) for e in events]
    boot = rig.firmware.boot_id
    assert got == [(boot, 1, "DRAW", "short", None), (boot, 2, "PASS", "long", None), (boot, 3, "UNDO", "short", None),
                   (boot, 4, "COLOUR", "long", "green"), (boot, 5, "COLOUR", "long", "blue")]
    assert rig.tap.btn_frames > len(events)  # resends did happen, and were not delivered twice


def test_unplug_and_replug_lose_nothing(rig: Rig) -> None:
    first = rig.show(ono(1, 30))
    pump_until(rig.link, lambda: rig.shown_is(first) and rig.link.session.acked)
    rig.relay.unplug()
    pump_until(rig.link, lambda: not rig.link.connected)
    later = rig.show(ono(2, 40))  # the game goes on while the board is away
    rig.firmware.press("DRAW")
    pump_until(rig.link, lambda: (rig.firmware.shown() or {}).get("lost") is True)
    assert rig.firmware.shown()["digits"] in ("LOSt", "  30")
    rig.relay.plug()
    events = pump_until(rig.link, lambda: rig.shown_is(later) and rig.link.session.acked)
    events = pump_until(rig.link, lambda: len(events) >= 1, events=events)
    pump_until(rig.link, lambda: time.monotonic() - rig.tap.last_btn > 1.5, events=events)
    assert [(e.n, e.button) for e in events] == [(1, "DRAW")]
    vanished = [s for s in rig.status if "vanished" in s]
    assert len(vanished) == 1 and rig.relay.host_path in vanished[0] and "Traceback" not in vanished[0]
    assert any("is back" in s for s in rig.status) and rig.link.reconnects == 1
    assert not rig.firmware.shown()["lost"]
    rig.check_every_display_line()


def test_board_restart_mid_game_gets_the_snapshot_again(rig: Rig) -> None:
    cur = rig.show(ono(3, 77, players=5))
    pump_until(rig.link, lambda: rig.shown_is(cur))
    rig.firmware.press("DRAW")
    events: list = []
    pump_until(rig.link, lambda: len(events) >= 1, events=events)
    old_boot = rig.firmware.boot_id
    rig.firmware.kill()  # power cut: the board restarts with a new boot id and shows nothing
    rig.firmware = Firmware(rig.relay.board_tty)
    pump_until(rig.link, lambda: rig.firmware.boot_id is not None)
    assert rig.firmware.boot_id != old_boot
    pump_until(rig.link, lambda: rig.shown_is(cur))  # the host answered the new HI with the SNAP
    assert rig.link.session.board.boot_id == rig.firmware.boot_id
    rig.firmware.press("DRAW")  # n restarts at 1 on the new boot: a different press
    events = pump_until(rig.link, lambda: len(events) >= 2, events=events)
    assert [(e.boot_id, e.n) for e in events] == [(old_boot, 1), (rig.firmware.boot_id, 1)]
    boot = rig.firmware.boot_id
    assert boot is not None and any(boot in s and "connected" in s for s in rig.status)


def test_host_restart_reloads_applied_presses(rig: Rig) -> None:
    cur = rig.show(ono(0, 50))
    pump_until(rig.link, lambda: rig.shown_is(cur))
    rig.firmware.press("PASS")
    events: list = []
    pump_until(rig.link, lambda: len(events) >= 1, events=events)
    assert events and events[0].button == "PASS"
    journal = [{"type": "pass", "seat": 0, "src": source_tag(events[0])}]
    old_epoch = rig.link.session.epoch
    rig.link.close()  # the host dies after journaling the press but before acknowledging it
    resends = rig.tap.btn_frames
    rig.link = BoardLink.open(rig.relay.host_path, applied=applied_pairs(journal), on_status=rig.status.append)
    assert rig.link.session.epoch != old_epoch
    fresh = rig.show(ono(1, 50))  # seq 1 of a new epoch replaces seq 1 of the old one
    again = pump_until(rig.link, lambda: rig.shown_is(fresh) and rig.link.session.acked)
    again = pump_until(rig.link, lambda: rig.tap.btn_frames > resends, events=again)  # the board resent it...
    again = pump_until(rig.link, lambda: time.monotonic() - rig.tap.last_btn > 1.5, events=again)  # ...until acked
    assert again == []  # never applied twice


@pytest.mark.parametrize("seed", [1, 2])
def test_garbage_flips_drops_and_duplicates_in_both_directions(tmp_path: pathlib.Path, seed: int) -> None:
    up, down = Mangler(seed * 10 + 1), Mangler(seed * 10 + 2)
    rig = Rig(tmp_path, to_host=up, to_board=down)
    try:
        events: list = []
        presses: list[str] = []
        i = 0
        # keep the game going until both directions have really been damaged a fair amount
        while i < 12 or up.damage < 20 or down.damage < 20:
            assert i < 2000, "the mangler never damaged enough bytes"
            rig.show(ono(i % 4, i % 99, pend="p2" if i % 5 == 4 else None))
            if i % 3 == 0 and len(presses) < 8:
                presses.append(("DRAW", "PASS", "UNDO")[len(presses) % 3])
                rig.firmware.press(presses[-1])
            events += rig.link.poll(timeout_s=0.05)
            i += 1
        final = rig.link.session.current
        assert final is not None
        pump_until(rig.link, lambda: rig.shown_is(final) and rig.link.session.acked and len(events) >= len(presses), events=events)
        pump_until(rig.link, lambda: time.monotonic() - rig.tap.last_btn > 1.5, events=events)
        assert [(e.n, e.button) for e in events] == list(enumerate(presses, 1))  # once each, in order
        reader = rig.link.session.reader
        assert reader.dropped + reader.noise > 0  # the host really saw damage and survived it
        assert rig.check_every_display_line() > 0  # and the board never showed a damaged snapshot
    finally:
        rig.close()


def test_board_shows_lost_when_the_host_goes_quiet(rig: Rig) -> None:
    cur = rig.show(ono(2, 64))
    pump_until(rig.link, lambda: rig.shown_is(cur) and rig.link.session.acked)
    deadline = time.monotonic() + 60
    while not (rig.firmware.shown() or {}).get("lost"):  # the host says nothing meanwhile
        assert time.monotonic() < deadline, "the board never showed LOSt"
        time.sleep(0.05)
    lost_lines = [ln for ln in rig.firmware.snapshot_lines() if ln.get("lost")]
    deadline = time.monotonic() + 60
    while {ln["digits"] for ln in rig.firmware.snapshot_lines() if ln.get("lost")} != {"LOSt", "  64"}:
        assert time.monotonic() < deadline, f"LOSt does not alternate with the total: {lost_lines[-3:]}"
        time.sleep(0.05)
    pump_until(rig.link, lambda: not rig.firmware.shown()["lost"])  # heartbeats bring it back
    assert rig.firmware.shown()["snap"] == [cur.epoch, cur.seq]
    rig.check_every_display_line()


@pytest.mark.filterwarnings("ignore:set(Daemon|Name).. is deprecated:DeprecationWarning")  # inside pyserial's rfc2217
def test_rfc2217_url_reaches_the_firmware(tmp_path: pathlib.Path) -> None:
    """`--port rfc2217://host:port` (how Wokwi exposes a simulated board's serial port): pyserial's
    own RFC 2217 client and server between the link and the firmware's tty."""
    relay = Relay(tmp_path)
    firmware = Firmware(relay.board_tty)
    server = Rfc2217Server(relay.host_path)
    link = BoardLink.open(server.url, on_status=lambda line: None)
    try:
        link.show(ono(2, 21, players=3))
        cur = link.session.current
        assert cur is not None
        pump_until(link, lambda: (firmware.shown() or {}).get("snap") == [cur.epoch, cur.seq] and link.session.acked)
        assert firmware.shown()["digits"] == "  21"
        firmware.press("UNDO", "long")
        events: list = []
        pump_until(link, lambda: len(events) >= 1, events=events)
        assert [(e.boot_id, e.n, e.button, e.press) for e in events] == [(firmware.boot_id, 1, "UNDO", "long")]
    finally:
        link.close()
        server.close()
        firmware.stop()
        relay.close()
