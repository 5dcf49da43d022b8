"""BoardLink over sim:// (the in-process board) and pyserial's loop://."""
from __future__ import annotations

import pytest

from tableref.board_view import board_snapshot
from tableref.errors import UserError
from tableref.link import BoardLink, applied_pairs, source_tag
from tableref.link.sim import SimBoard
from tablelink.host import UNSTAMPED_EPOCH, UNSTAMPED_SEQ
from tablelink.messages import Snapshot


class Clock:
    def __init__(self) -> None:
        self.t = 1000

    def __call__(self) -> int:
        return self.t


def sim_of(link: BoardLink) -> SimBoard:
    assert link.sim is not None
    return link.sim


def run(link: BoardLink, clock: Clock, ms: int, step: int = 50) -> list:
    got = []
    for _ in range(ms // step):
        clock.t += step
        got += link.poll()
    return got


def uno_state(seat: int, colour: str) -> dict:
    return {"total": None, "current_seat": seat, "direction": "cw", "pending": None, "awaiting": [], "eliminated": [],
            "illegal": None, "color": colour, "game_over": False, "winner": None}


def test_sim_board_shows_what_the_referee_state_says() -> None:
    clock, notes = Clock(), []
    link = BoardLink.open("sim://", on_status=notes.append, clock=clock)
    link.show(board_snapshot(uno_state(2, "red"), "uno", 4))
    run(link, clock, 200)
    shown = sim_of(link).shown
    assert shown is not None and shown.turn == 2 and shown.colour == "red" and shown.total is None
    assert link.session.acked and any("connected" in n for n in notes)
    link.show(board_snapshot(uno_state(3, "blue"), "uno", 4))
    run(link, clock, 200)
    shown = sim_of(link).shown
    assert shown is not None and (shown.turn, shown.seq) == (3, 2)
    assert sim_of(link).cues == ["turn"]
    assert sim_of(link).digits() == "    "  # UNO family: no total on the display


def test_sim_presses_arrive_exactly_once_and_are_acked() -> None:
    clock = Clock()
    link = BoardLink.open("sim://", clock=clock)
    link.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 2, turn=0, total=10))
    run(link, clock, 100)
    sim_of(link).press("DRAW")
    sim_of(link).press("COLOUR", "long", "yellow")
    got = run(link, clock, 3000)  # the board resends every 500 ms until BACK arrives
    assert [(e.n, e.button, e.arg) for e in got] == [(1, "DRAW", None), (2, "COLOUR", "yellow")]
    assert sim_of(link).session.outstanding() == []


def test_sim_host_restart_with_journaled_presses_does_not_repeat_them() -> None:
    clock = Clock()
    first = BoardLink.open("sim://", clock=clock)
    first.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 3, turn=1, total=50))
    run(first, clock, 100)
    sim_of(first).press("PASS")
    clock.t += 50
    events = []
    while not events:
        clock.t += 50
        events = first.poll()
    journal = [{"type": "pass", "seat": 1, "src": source_tag(events[0])}]
    board = sim_of(first)
    first.close()  # the host dies before it acknowledged the press
    assert board.session.outstanding() == [1]
    second = BoardLink.open("sim://", applied=applied_pairs(journal), clock=clock, sim=board)
    assert second.session.epoch != first.session.epoch
    second.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 3, turn=2, total=50))
    got = run(second, clock, 2000)
    assert got == [] and board.session.outstanding() == []  # acked from the journal, not re-applied
    assert board.shown is not None and board.shown.epoch == second.session.epoch and board.shown.turn == 2


def test_board_shows_lost_when_the_host_goes_quiet() -> None:
    clock = Clock()
    link = BoardLink.open("sim://", clock=clock)
    link.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 2, turn=0, total=42))
    run(link, clock, 500)
    assert not sim_of(link).lost()
    sim_of(link).now_ms = clock.t + 3500  # time passes on the board, the host says nothing
    assert sim_of(link).lost()
    seen = set()
    for t in range(clock.t + 3500, clock.t + 5500, 250):
        sim_of(link).now_ms = t
        seen.add(sim_of(link).digits())
    assert seen == {"LOSt", "  42"}  # LOSt alternates with the last total


def test_loop_url_hears_only_itself_and_reports_silence() -> None:
    clock, notes = Clock(), []
    link = BoardLink.open("loop://", on_status=notes.append, clock=clock)
    link.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 2, turn=0, total=1))
    assert run(link, clock, 4000) == []
    assert link.session.board is None and not link.session.acked
    assert notes == ["no answer from the board for 3 s"]


def test_open_errors_are_one_clear_line(tmp_path) -> None:
    with pytest.raises(UserError, match=r"/nonexistent/ttyX: no such port"):
        BoardLink.open("/nonexistent/ttyX")
    with pytest.raises(UserError, match="Connection refused|refused|could not open"):
        BoardLink.open("socket://127.0.0.1:9")


def test_wait_starts_disconnected_and_keeps_trying(tmp_path) -> None:
    clock, notes = Clock(), []
    link = BoardLink.open(str(tmp_path / "tty"), on_status=notes.append, clock=clock, wait=True)
    assert not link.connected and notes[0].startswith("waiting for the board:")
    link.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 2, turn=0, total=1))  # kept until the board appears
    run(link, clock, 3000)
    assert not link.connected and len(notes) == 1


def test_a_board_speaking_another_protocol_is_refused() -> None:
    from tablelink.messages import Hi

    clock, notes = Clock(), []
    link = BoardLink.open("loop://", on_status=notes.append, clock=clock)  # what we write comes back
    assert link.transport is not None
    link.transport.write(Hi("0a0b0c0d", "rp2", 12, "2.0", proto=2).encode(), clock.t)
    run(link, clock, 100)
    assert link.refused is not None and "protocol 2" in link.refused and link.board is None
    assert notes == [link.refused]
    link.transport.write(Hi("0a0b0c0d", "rp2", 12, "1.0").encode(), clock.t)
    run(link, clock, 100)
    assert link.refused is None and link.board is not None and link.board.fw == "1.0"


def test_the_sim_board_holds_the_card_a_press_took_as_the_firmware_does() -> None:
    from tablelink.show import TAKEN_MS
    clock = Clock()
    link = BoardLink.open("sim://", clock=clock)
    link.show(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 3, turn=0, colour="green", mode="ask", offer=("red-6", "red-9")))
    run(link, clock, 100)
    sim_of(link).press("COLOUR", "short")  # takes the runner-up
    shown = []
    for _ in range((TAKEN_MS - 100) // 50):
        run(link, clock, 50)
        shown.append(sim_of(link).digits())
    assert set(shown) == {"r  9"}  # steady, through the halves where the display says CArd
    run(link, clock, 2000)
    assert sim_of(link).digits() in ("r  6", "CArd")  # back to asking once TAKEN_MS is over
