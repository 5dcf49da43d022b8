"""HostSession (tablelink.host): snapshots, heartbeat, acks, HI handling, exactly-once presses."""
# pyright: reportOptionalMemberAccess=false, reportOptionalSubscript=false
from __future__ import annotations

from typing import Any

from tablelink.board import BoardSession
from tablelink.frame import FrameReader
from tablelink.host import ButtonEvent, HostSession
from tablelink.host import UNSTAMPED_EPOCH, UNSTAMPED_SEQ
from tablelink.messages import Ack, Back, Btn, Hi, Snapshot, Who, parse

EPOCH = "0badcafe"
BOOT = "1234abcd"


def snap(**kw) -> Snapshot:
    base: dict[str, Any] = dict(players=4, turn=1, direction="cw", elim=0, total=10, pend=None, colour=None, err=0, winner=None, mode="play")
    base.update(kw)
    return Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, **base)


def msgs(data: bytes) -> list:
    return [parse(f) for f in FrameReader().feed(data)]


def test_show_stamps_epoch_and_counts_seq_only_on_change() -> None:
    h = HostSession(EPOCH, 0)
    first = msgs(h.show(snap(total=10), 0))
    assert [(m.epoch, m.seq, m.total) for m in first] == [(EPOCH, 1, 10)]
    assert h.show(snap(total=10), 5) == b""  # same picture: nothing new to send
    second = msgs(h.show(snap(total=17), 10))
    assert [(m.seq, m.total) for m in second] == [(2, 17)]
    assert h.current.seq == 2 and h.current.total == 17


def test_bad_snapshot_raises_and_changes_nothing() -> None:
    h = HostSession(EPOCH, 0)
    h.show(snap(), 0)
    try:
        h.show(snap(turn=9), 1)  # seat 9 of 4
    except ValueError:
        pass
    else:
        raise AssertionError("expected ValueError")
    assert h.current.seq == 1 and h.current.turn == 1


def test_heartbeat_resends_same_seq_every_period() -> None:
    h = HostSession(EPOCH, 0, heartbeat_ms=1000)
    h.show(snap(), 0)
    assert h.tick(500) == b""
    beat = msgs(h.tick(1000))
    snaps = [m for m in beat if isinstance(m, Snapshot)]
    assert [s.seq for s in snaps] == [1]
    assert any(isinstance(m, Who) for m in beat)  # no HI yet: keep asking who is there
    assert h.tick(1500) == b""
    h.feed(Hi(BOOT, "unix", 12, "t").encode(), 1600)  # answered with the SNAP: the next beat is due at 2600
    assert h.tick(2599) == b""
    beat = msgs(h.tick(2600))
    assert [type(m) for m in beat] == [Snapshot]


def test_ack_tracking_ignores_other_epochs() -> None:
    h = HostSession(EPOCH, 0)
    h.show(snap(total=1), 0)
    h.show(snap(total=2), 0)
    assert not h.acked
    h.feed(Ack("ffffffff", 2).encode(), 1)
    assert not h.acked
    h.feed(Ack(EPOCH, 1).encode(), 2)
    assert not h.acked and h.acked_seq == 1
    h.feed(Ack(EPOCH, 2).encode(), 3)
    assert h.acked


def test_hi_from_new_boot_resends_snapshot_and_reports_board() -> None:
    h = HostSession(EPOCH, 0)
    h.show(snap(total=42), 0)
    out = msgs(h.feed(Hi(BOOT, "rp2", 12, "0.1").encode(), 10))
    assert [(type(m), m.seq, m.total) for m in out] == [(Snapshot, 1, 42)]
    assert h.board.boot_id == BOOT
    notes = h.take_notices()
    assert len(notes) == 1 and BOOT in notes[0] and "rp2" in notes[0]
    out = msgs(h.feed(Hi("99999999", "rp2", 12, "0.1").encode(), 20))  # the board restarted
    assert [m.total for m in out] == [42]
    assert "99999999" in h.take_notices()[0]


def test_hi_with_other_protocol_is_refused_with_a_reason() -> None:
    h = HostSession(EPOCH, 0)
    h.show(snap(), 0)
    assert h.feed(Hi(BOOT, "rp2", 12, "9.9", proto=2).encode(), 1) == b""
    assert h.refused and "protocol 2" in h.refused
    assert h.take_notices() == [h.refused]
    assert h.tick(5000).count(b"SNAP") == 0  # nothing is sent to a refused board
    assert h.feed(Btn(BOOT, 1, "DRAW", "short").encode(), 5001) == b""
    assert h.take_events() == []
    h.feed(Hi(BOOT, "rp2", 12, "1.0").encode(), 6000)  # reflashed: accepted again
    assert h.refused is None and h.board.fw == "1.0"


def test_button_delivered_once_and_acked_only_after_confirm() -> None:
    h = HostSession(EPOCH, 0)
    frame = Btn(BOOT, 1, "COLOUR", "long", "green").encode()
    assert h.feed(frame, 1) == b""
    events = h.take_events()
    assert events == [ButtonEvent(BOOT, 1, "COLOUR", "long", "green")]
    assert h.feed(frame + frame, 2) == b""  # resends before confirm: neither delivered nor acked
    assert h.take_events() == []
    assert msgs(h.confirm(events)) == [Back(BOOT, 1)]
    assert msgs(h.feed(frame, 3)) == [Back(BOOT, 1)]  # a resend after our BACK got lost
    assert h.take_events() == []


def test_applied_pairs_from_a_journal_are_never_delivered_again() -> None:
    h = HostSession(EPOCH, 0, applied={(BOOT, 1), (BOOT, 2)})
    out = h.feed(Btn(BOOT, 2, "PASS", "short").encode() + Btn(BOOT, 3, "UNDO", "short").encode(), 1)
    assert msgs(out) == [Back(BOOT, 2)]
    assert [e.key for e in h.take_events()] == [(BOOT, 3)]
    # the same n from another boot is another press
    h.feed(Btn("aaaaaaaa", 1, "PASS", "short").encode(), 2)
    h.feed(Btn("aaaaaaaa", 2, "PASS", "short").encode(), 2)
    assert [e.key for e in h.take_events()] == [("aaaaaaaa", 1), ("aaaaaaaa", 2)]


def test_quiet_board_notice_and_recovery() -> None:
    h = HostSession(EPOCH, 0, quiet_ms=3000)
    h.tick(2999)
    assert h.take_notices() == []
    h.tick(3000)
    assert h.take_notices() == ["no answer from the board for 3 s"]
    h.tick(9000)
    assert h.take_notices() == []
    h.feed(Ack(EPOCH, 0).encode(), 9001)
    assert h.take_notices() == ["the board answers again"]


def test_garbage_and_own_echo_are_ignored() -> None:
    h = HostSession(EPOCH, 0)
    noise = b"\x00\xff$garbage*0000\n$SNAP,1*FFFF\n" + Who().encode() + Back(BOOT, 1).encode()
    assert h.feed(noise, 1) == b""
    assert h.take_events() == [] and h.board is None


def test_host_and_board_sessions_converge_with_a_lossy_pipe() -> None:
    """Both pure sessions wired together, every third frame from each side dropped."""
    board = BoardSession(BOOT, "unix", 12, "t", 0)
    host = HostSession(EPOCH, 0)
    to_board = host.connected(0) + host.show(snap(total=5), 0)
    pressed = [board.press("DRAW", "short", None, 0), board.press("PASS", "long", None, 0)]
    to_host = board.tick(0) + b"".join(pressed)
    got: list[ButtonEvent] = []
    count = 0

    def lossy(data: bytes) -> bytes:
        nonlocal count
        keep = []
        for line in data.splitlines(keepends=True):
            count += 1
            if count % 3:
                keep.append(line)
        return b"".join(keep)

    for t in range(0, 20000, 100):
        to_host += board.feed(lossy(to_board), t) + board.tick(t)
        to_board = host.feed(lossy(to_host), t) + host.tick(t)
        events = host.take_events()
        got += events
        to_board += host.confirm(events)
        to_host = b""
        if t == 5000:
            to_board += host.show(snap(total=12, turn=2), t)
    assert [(e.n, e.button) for e in got] == [(1, "DRAW"), (2, "PASS")]
    assert board.outstanding() == []
    assert board.shown.total == 12 and board.shown.seq == 2 and host.acked


def test_a_press_that_overtakes_an_earlier_one_waits_for_it() -> None:
    h = HostSession(EPOCH, 0, reorder_ms=1500)
    h.feed(Btn(BOOT, 2, "PASS", "short").encode(), 100)  # n=1's first frame was damaged
    assert h.take_events() == []
    h.feed(Btn(BOOT, 1, "DRAW", "short").encode(), 600)  # its resend
    assert [e.n for e in h.take_events()] == [1, 2]


def test_a_held_press_is_delivered_when_the_earlier_one_never_comes() -> None:
    h = HostSession(EPOCH, 0, reorder_ms=1500)
    h.feed(Btn(BOOT, 3, "UNDO", "short").encode(), 100)
    h.tick(1599)
    assert h.take_events() == []
    h.tick(1600)
    assert [e.n for e in h.take_events()] == [3]
    h.feed(Btn(BOOT, 1, "DRAW", "short").encode(), 1700)  # late, but still exactly once
    assert [e.n for e in h.take_events()] == [1]


def test_journaled_presses_set_where_the_order_continues() -> None:
    h = HostSession(EPOCH, 0, applied={(BOOT, 1), (BOOT, 2)})
    h.feed(Btn(BOOT, 3, "DRAW", "short").encode(), 1)  # next in line after the journal: no wait
    assert [e.n for e in h.take_events()] == [3]
