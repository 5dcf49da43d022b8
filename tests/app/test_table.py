"""TableSession and TableController: journal before display, undo, taken_back, exactly-once
board presses, resume == uninterrupted."""
from __future__ import annotations

import json
import pathlib
import random

import pytest

from tableref.errors import UserError
from tableref.feed import TableUpdate
from tableref.keyboard import parse_command
from tableref.link import BoardLink, ButtonEvent
from tableref.record import read_record
from tableref.replay_cmd import replay
from tableref.simulate import simulate_game
from tableref.table import TableSession, make_header
from tableref.table_app import TableController


class Screen:
    """A view that checks, at each redraw, that everything shown is already in the journal."""

    def __init__(self, journal: pathlib.Path) -> None:
        self.journal = journal
        self.updates = 0
        self.notices: list[str] = []

    def update(self, u: TableUpdate) -> None:
        on_disk = [json.loads(ln) for ln in self.journal.read_text().splitlines()[1:]]
        assert len(on_disk) == u.index and on_disk[-1:] == ([u.last] if u.last else []), "shown before it was journaled"
        self.updates += 1

    def notice(self, text: str) -> None:
        self.notices.append(text)


def controller(tmp_path: pathlib.Path, game: str = "ono99_2022", players: int = 3, link=None) -> TableController:
    journal = tmp_path / "j.jsonl"
    session = TableSession.new(make_header(game, players), journal)
    return TableController(session, Screen(journal), link)


def test_every_change_is_journaled_before_board_and_screen_see_it(tmp_path: pathlib.Path) -> None:
    link = BoardLink.open("sim://")
    shown_when: list[int] = []
    real_show = link.show

    def show(snap, now_ms=None):  # the board is told only what the journal already holds
        journal_lines = len((tmp_path / "j.jsonl").read_text().splitlines()) - 1
        shown_when.append(journal_lines)
        assert journal_lines == len(ctrl.session.records)
        real_show(snap, now_ms)

    link.show = show  # type: ignore[method-assign]
    ctrl = controller(tmp_path, link=link)
    ctrl.landed("num-5", 1.0, 25, 0.9)
    ctrl.landed("num-7", 2.0, 50, 0.95)
    ctrl.command(parse_command("u"))
    ctrl.command(parse_command("x num-9"))
    assert shown_when == [1, 2, 3, 4]
    assert ctrl.session.state["total"] == 14
    link.poll()
    assert link.sim.digits() == "  14"
    link.close()


def test_an_illegal_card_is_shown_until_taken_back(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    ctrl.landed("ono99", 1.0, 10)
    ctrl.landed("num-4", 2.0, 20)  # breaks the ONO set: flagged
    assert ctrl.session.state["illegal"] == {"seat": 1, "reason": "ono99_unplayable"}
    assert ctrl.session.snapshot().err == ctrl.session.illegal_id > 0
    ctrl.removed(3.0, 30)
    assert ctrl.session.records[-1] == {"type": "taken_back", "t": 3.0, "frame": 30}
    assert ctrl.session.state["illegal"] is None and ctrl.session.snapshot().err == 0


def test_a_legal_card_picked_up_again_is_undone(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    ctrl.landed("num-5", 1.0, 10)
    ctrl.landed("num-6", 2.0, 20)
    ctrl.removed(3.0, 30)
    assert ctrl.session.state["total"] == 5 and ctrl.session.state["current_seat"] == 2
    assert [r["type"] for r in ctrl.session.records] == ["card", "card", "undo"]
    _, events = read_record(tmp_path / "j.jsonl")
    states = [s for _, _, s in replay(*read_record(tmp_path / "j.jsonl"))]
    assert states[-1]["total"] == 5 and len(events) == 3


def test_nothing_to_undo_writes_nothing(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    ctrl.command(parse_command("u"))
    assert ctrl.session.records == [] and ctrl.view.notices == ["nothing to undo"]


def test_an_unreadable_card_asks_and_the_board_shows_card(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    ctrl.landed(None, 1.0, 10, 0.0)
    assert ctrl.asking is not None and ctrl.session.snapshot(asking=True).mode == "ask"
    assert ctrl.session.records == []  # nothing guessed
    ctrl.command(parse_command("x num-8"))
    assert ctrl.asking is None and ctrl.session.records == [{"type": "card", "card": "num-8", "t": 1.0, "frame": 10}]
    ctrl.landed("hold", 2.0, 20, 0.99)  # a card this game does not have: asked for, not refereed
    assert ctrl.asking is not None and len(ctrl.session.records) == 1
    ctrl.landed("num-2", 2.0, 20, 0.3)
    ctrl.min_confidence = 0.5
    ctrl.landed("num-2", 2.5, 25, 0.3)
    assert ctrl.asking is not None and len(ctrl.session.records) == 2


def test_board_presses_apply_exactly_once_even_across_a_restart(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    ctrl.landed("num-5", 1.0, 10)
    out = ctrl.button(ButtonEvent("0badcafe", 1, "PASS", "short"))  # 99 games: PASS = out
    assert out is not None and out.kind == "event" and ctrl.session.state["eliminated"] == [2]
    again = ctrl.button(ButtonEvent("0badcafe", 1, "PASS", "short"))
    assert again is not None and again.kind == "duplicate"
    ctrl.session.close()
    resumed = TableSession.resume(tmp_path / "j.jsonl")
    assert ("0badcafe", 1) in resumed.applied
    assert resumed.submit({"type": "out", "seat": 0, "src": "board:0badcafe:1"}).kind == "duplicate"
    assert resumed.state == ctrl.session.state
    resumed.close()


def test_a_malformed_event_is_refused_before_it_is_written(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    with pytest.raises(UserError):
        ctrl.session.submit({"type": "card", "card": "num-99"})
    ctrl.command(parse_command("x num-99"))
    assert ctrl.session.records == [] and "num-99" in ctrl.view.notices[-1]


@pytest.mark.parametrize("game, seed", [("ono99_2022", 3), ("uno", 4), ("ono99_classic", 5)])
def test_resume_at_any_point_equals_the_uninterrupted_game(tmp_path: pathlib.Path, game: str, seed: int) -> None:
    sim = simulate_game(game, 3, seed, {} if game != "uno" else {"target_score": 50}, max_events=300)
    rng = random.Random(seed)
    inputs: list[dict] = []
    for ev in sim.events:  # with some undo + redo and take-backs sprinkled in
        inputs.append(dict(ev))
        if rng.random() < 0.1:
            inputs += [{"type": "undo"}, dict(ev)]
    whole = TableSession.new(make_header(game, 3, sim.header["options"]), tmp_path / "whole.jsonl")
    for ev in inputs:
        out = whole.submit(ev)
        if out.verdict is not None and out.verdict.illegal and ev["type"] == "card":
            whole.card_removed()
    cuts = sorted(rng.sample(range(1, len(inputs)), 4))
    path = tmp_path / "cut.jsonl"
    session = TableSession.new(make_header(game, 3, sim.header["options"]), path)
    done = 0
    for cut in cuts + [len(inputs)]:
        for ev in inputs[done:cut]:
            out = session.submit(ev)
            if out.verdict is not None and out.verdict.illegal and ev["type"] == "card":
                session.card_removed()
        done = cut
        session.close()
        session = TableSession.resume(path)
        assert session.records == read_record(path)[1]
    assert session.state == whole.state
    assert session.records == whole.records
    assert session.illegal_id == whole.illegal_id
    assert session.state["game_over"] == sim.truth[-1]["game_over"]
    session.close()
    whole.close()


def test_resume_reports_a_corrupt_journal_line(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "j.jsonl"
    session = TableSession.new(make_header("uno", 3), path)
    session.submit({"type": "flip", "card": "red-5"})
    session.close()
    with open(path, "a") as fh:
        fh.write('{"type": "card", "seat": 1, "card": \n')
    with pytest.raises(UserError, match=r"j.jsonl:3: "):
        TableSession.resume(path)


@pytest.mark.parametrize("torn", [b'{"type": "card", "seat": 2, "ca', b'{"type": "card", "seat": 1, "card": "red-7"}'])
def test_resume_mends_a_last_line_cut_off_by_a_crash(tmp_path: pathlib.Path, torn: bytes) -> None:
    """A crash mid-append leaves a torn last line: the torn part was never shown, so resume
    drops it (and says so); a line complete but for its newline is kept."""
    path = tmp_path / "j.jsonl"
    session = TableSession.new(make_header("uno", 3), path)
    session.submit({"type": "flip", "card": "red-5"})
    session.close()
    with open(path, "ab") as fh:
        fh.write(torn)
    notices: list[str] = []
    session = TableSession.resume(path, notices.append)
    complete = torn.endswith(b"}")
    assert len(session.records) == (2 if complete else 1)
    assert bool(notices) is not complete and all("cut off" in n for n in notices)
    session.submit({"type": "card", "seat": 2, "card": "red-9"})  # appends cleanly after the mend
    session.close()
    assert [r.get("card") for r in read_record(path)[1]] == ["red-5"] + (["red-7"] if complete else []) + ["red-9"]


def test_a_press_resent_after_a_host_restart_is_not_applied_twice(tmp_path: pathlib.Path) -> None:
    """The host journals a board press, then dies before acking it; the board keeps resending
    it; the restarted host (journal resumed) acks it without applying it again."""
    now = [0]

    def clock() -> int:
        now[0] += 50
        return now[0]

    link = BoardLink.open("sim://", clock=clock)
    ctrl = controller(tmp_path, link=link)
    ctrl.landed("num-5", 1.0, 10)
    for _ in range(10):
        ctrl.poll_board()
    board = link.sim
    board.press("PASS")  # 99 games: out
    got = 0
    while not got:  # applied and journaled; its ack would go out with the next poll, which never comes
        got = ctrl.poll_board()
    assert got == 1 and ctrl.session.records[-1]["type"] == "out"
    assert board.session.outstanding(), "the board must still be waiting for the ack"
    records = list(ctrl.session.records)
    ctrl.session.close()  # the host dies here: nothing after this was acked for sure
    session = TableSession.resume(tmp_path / "j.jsonl")
    link2 = BoardLink.open("sim://", applied=session.applied, sim=board, clock=clock)
    ctrl2 = TableController(session, Screen(tmp_path / "j.jsonl"), link2)
    for _ in range(100):  # five seconds of board resends and host polls
        ctrl2.poll_board()
    assert session.records == records
    assert not board.session.outstanding()  # acked by the restarted host
    session.close()
