"""BoardSession: the board side of PROTOCOL.md, driven with explicit times."""
from __future__ import annotations

import config
from tablelink.board import MAX_OUTSTANDING, BoardSession
from tablelink.frame import FrameReader, encode
from tablelink.messages import Ack, Back, Btn, Hi, Snapshot, Who, parse

BOOT = "b00710ad"
EPOCH = "0a1b2c3d"


def session(now: int = 0) -> BoardSession:
    return BoardSession(BOOT, "unix", config.PIXELS, "0.1.0", now,
                        link_timeout_ms=config.LINK_TIMEOUT_MS, hello_ms=config.HEARTBEAT_MS)


def msgs(data: bytes) -> list:
    return [parse(f) for f in FrameReader().feed(data)]


def snap(seq: int, epoch: str = EPOCH, total: int = 10) -> bytes:
    return Snapshot(epoch, seq, 4, 0, total=total).encode()


def test_hello_at_boot_every_second_until_the_first_snapshot_and_on_who() -> None:
    s = session()
    hi = Hi(BOOT, "unix", config.PIXELS, "0.1.0")
    assert msgs(s.tick(0)) == [hi]
    assert s.tick(config.HEARTBEAT_MS - 1) == b""
    assert msgs(s.tick(config.HEARTBEAT_MS)) == [hi]
    assert msgs(s.feed(snap(1), 1500)) == [Ack(EPOCH, 1)]
    assert s.tick(5000) == b"" and s.tick(9000) == b""
    assert msgs(s.feed(Who().encode(), 9100)) == [hi]


def test_the_boot_hello_goes_out_even_if_a_snapshot_comes_first() -> None:
    s = session()
    assert msgs(s.feed(snap(1), 0)) == [Ack(EPOCH, 1)]
    assert msgs(s.tick(0)) == [Hi(BOOT, "unix", config.PIXELS, "0.1.0")]
    assert s.tick(5000) == b""


def test_snapshots_are_acked_and_deduplicated_by_epoch_and_seq() -> None:
    s = session()
    s.feed(snap(1) + snap(2), 10)
    assert s.shown is not None and s.shown.seq == 2 and s.shown_count == 2
    # heartbeat (same seq) and an old one: acked, not shown again
    out = s.feed(snap(2, total=99) + snap(1, total=98), 20)
    assert msgs(out) == [Ack(EPOCH, 2), Ack(EPOCH, 1)]
    assert s.shown_count == 2 and s.shown.total == 10
    # a new epoch (host restarted) resets "newest": its seq 1 is shown
    assert msgs(s.feed(snap(1, epoch="ffff0000", total=55), 30)) == [Ack("ffff0000", 1)]
    assert s.shown.total == 55 and s.shown_count == 3


def test_malformed_and_foreign_frames_are_not_acked_and_do_not_keep_the_link() -> None:
    s = session()
    bad = encode(["SNAP", EPOCH, "1", "11", "-", "cw", "0", "-", "-", "-", "0", "-", "play"])
    own = (Hi(BOOT, "unix", 12, "x").encode() + Ack(EPOCH, 1).encode()
           + Btn(BOOT, 1, "DRAW", "short").encode() + encode(["NEWS", "x"]) + b"noise\n")
    assert s.feed(bad + own, 2900) == b""
    assert s.malformed == 1 and s.shown is None
    assert s.lost(config.LINK_TIMEOUT_MS)  # nothing above counts as hearing the host


def test_link_lost_after_the_timeout_and_back_on_any_host_frame() -> None:
    s = session()
    t = config.LINK_TIMEOUT_MS
    assert not s.lost(t - 1) and s.lost(t)
    s.feed(snap(1), t + 100)
    assert not s.lost(t + 100) and not s.lost(2 * t + 99) and s.lost(2 * t + 100)
    s.feed(Back(BOOT, 99).encode(), 3 * t)  # any valid host frame, even a stale BACK
    assert not s.lost(3 * t)
    s.feed(Who().encode(), 5 * t)
    assert not s.lost(5 * t)


def test_button_events_are_numbered_resent_oldest_first_until_back() -> None:
    s = session()
    s.feed(snap(1), 0)
    s.tick(0)  # the boot HI
    first = s.press("DRAW", "short", None, 100)
    assert msgs(first) == [Btn(BOOT, 1, "DRAW", "short")]
    s.press("COLOUR", "long", "green", 300)
    assert s.outstanding() == [1, 2]
    assert s.tick(599) == b""
    assert msgs(s.tick(600)) == [Btn(BOOT, 1, "DRAW", "short")]
    assert msgs(s.tick(800)) == [Btn(BOOT, 2, "COLOUR", "long", "green")]
    assert msgs(s.tick(1300)) == [Btn(BOOT, 1, "DRAW", "short"),
                                  Btn(BOOT, 2, "COLOUR", "long", "green")]
    s.feed(Back("00000000", 1).encode(), 1400)  # another boot's ack: not ours
    assert s.outstanding() == [1, 2]
    s.feed(Back(BOOT, 1).encode() + Back(BOOT, 1).encode(), 1400)
    assert s.outstanding() == [2]
    assert msgs(s.tick(1800)) == [Btn(BOOT, 2, "COLOUR", "long", "green")]
    s.feed(Back(BOOT, 2).encode(), 1900)
    assert s.outstanding() == [] and s.tick(10_000) == b""
    assert msgs(s.press("PASS", "long", None, 10_000)) == [Btn(BOOT, 3, "PASS", "long")]


def test_outstanding_events_are_bounded() -> None:
    s = session()
    for i in range(MAX_OUTSTANDING + 3):
        s.press("UNDO", "short", None, i)
    assert s.outstanding() == list(range(4, MAX_OUTSTANDING + 4))
    assert s.gave_up == 3


def test_bad_button_events_are_refused() -> None:
    s = session()
    for args in (("JUMP", "short", None), ("DRAW", "tap", None), ("COLOUR", "long", "pink")):
        try:
            s.press(*args, 0)
        except ValueError:
            continue
        raise AssertionError(args)
    assert s.outstanding() == []
