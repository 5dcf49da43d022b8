"""Never silently wrong: a card the camera declined, or read unsurely as an illegal play, is
asked about before anything is journaled (no ErrC, no beep), with the camera's likeliest code
one key away (`a`) and its runner-up another (`s`)."""
from __future__ import annotations

import pathlib
from typing import Any

from tableref.keyboard import parse_command
from tableref.link import BoardLink, ButtonEvent
from tableref.table import TableSession, make_header
from tableref.table_app import ENROL_AFTER_ASKS, TableController

from tablelink import show
from test_refuse_slips import Notes


def on_red_5(tmp_path: pathlib.Path) -> TableController:
    header = make_header("uno", 3, {}, setup={"top": "red-5", "hand_counts": [7, 7, 7]})
    return TableController(TableSession.new(header, tmp_path / "j.jsonl"), Notes(), None, ["Ana", "Bo", "Cy"])


def cards(ctrl: TableController) -> list[dict]:
    return [r for r in ctrl.session.records if r["type"] == "card"]


def test_a_declined_card_is_named_by_one_key(tmp_path: pathlib.Path) -> None:
    ctrl = on_red_5(tmp_path)
    ctrl.landed(None, 2.0, 50, 0.4, likely=[["red-6", 0.4], ["red-9", 0.3]])
    assert cards(ctrl) == [] and ctrl.asking is not None
    assert "a = red-6, s = red-9" in ctrl.view.notices[-1]  # type: ignore[attr-defined]
    ctrl.command(parse_command("a"))
    assert [(c["card"], c.get("frame")) for c in cards(ctrl)] == [("red-6", 50)]
    assert ctrl.asking is None


def test_an_unsure_reading_that_would_be_illegal_is_asked_not_flagged(tmp_path: pathlib.Path) -> None:
    ctrl = on_red_5(tmp_path)
    ctrl.landed("blue-9", 2.0, 50, 0.7, likely=[["blue-9", 0.7], ["red-9", 0.2]])
    assert cards(ctrl) == []  # nothing journaled, so no ErrC and no beep
    assert "which would be illegal" in ctrl.view.notices[-1]  # type: ignore[attr-defined]
    ctrl.command(parse_command("s"))  # the runner-up was right
    assert [c["card"] for c in cards(ctrl)] == ["red-9"]
    assert ctrl.session.state.get("illegal") is None


def test_a_sure_illegal_reading_is_flagged_at_once(tmp_path: pathlib.Path) -> None:
    ctrl = on_red_5(tmp_path)
    ctrl.landed("blue-9", 2.0, 50, 0.99, likely=[["blue-9", 0.99], ["red-9", 0.01]])
    assert [c["card"] for c in cards(ctrl)] == ["blue-9"]
    assert ctrl.session.state.get("illegal") is not None


def test_a_key_with_nothing_to_confirm_is_refused(tmp_path: pathlib.Path) -> None:
    ctrl = on_red_5(tmp_path)
    ctrl.command(parse_command("a"))
    assert cards(ctrl) == []
    assert "no card to offer" in ctrl.view.notices[-1]  # type: ignore[attr-defined]


def test_several_asks_in_a_row_suggest_teaching_the_deck(tmp_path: pathlib.Path) -> None:
    ctrl = on_red_5(tmp_path)
    for i in range(ENROL_AFTER_ASKS):
        ctrl.landed(None, float(i), i, 0.2, likely=[])
        ctrl.command(parse_command("x red-6" if i % 2 == 0 else "x red-5"))
    assert any("tableref enroll" in n for n in ctrl.view.notices)  # type: ignore[attr-defined]
    (tmp_path / "b").mkdir()
    ctrl2 = on_red_5(tmp_path / "b")
    ctrl2.landed(None, 1.0, 1, 0.2, likely=[])
    ctrl2.command(parse_command("x red-6"))
    ctrl2.landed("red-7", 2.0, 2, 1.0, likely=[["red-7", 1.0]])  # read by itself: the count starts again
    ctrl2.landed(None, 3.0, 3, 0.2, likely=[])
    assert not any("tableref enroll" in n for n in ctrl2.view.notices)  # type: ignore[attr-defined]


def on_red_5_with_board(tmp_path: pathlib.Path) -> tuple[TableController, Any]:
    """The same table with the simulated board (sim://, the firmware's tablelink code) attached."""
    now = [0]

    def clock() -> int:
        now[0] += 50
        return now[0]

    link = BoardLink.open("sim://", clock=clock)
    header = make_header("uno", 3, {}, setup={"top": "red-5", "hand_counts": [7, 7, 7]})
    ctrl = TableController(TableSession.new(header, tmp_path / "j.jsonl"), Notes(), link, ["Ana", "Bo", "Cy"])
    for _ in range(5):
        ctrl.poll_board()
    return ctrl, link.sim


def test_the_board_shows_the_likeliest_card_and_colour_takes_the_runner_up(tmp_path: pathlib.Path) -> None:
    ctrl, board = on_red_5_with_board(tmp_path)
    ctrl.landed("blue-9", 2.0, 50, 0.7, likely=[["blue-9", 0.7], ["red-9", 0.2]])
    ctrl.poll_board()
    assert board.shown.mode == "ask" and board.shown.offer == ("blue-9", "red-9")
    seen = set()
    for k in range(4):
        board.now_ms += show.ALTERNATE_MS // 2
        seen.add(board.digits())
    assert seen == {"b  9", "CArd"}
    assert "(board: COLOUR)" in ctrl.view.notices[-1]  # type: ignore[attr-defined]
    board.press("COLOUR")  # "no, the other one"
    while not ctrl.poll_board():
        pass
    ctrl.poll_board()
    [card] = cards(ctrl)
    assert (card["card"], card["frame"], card["src"]) == ("red-9", 50, f"board:{board.boot_id}:1")
    assert ctrl.asking is None and ctrl.session.state.get("illegal") is None
    assert board.shown.mode == "play" and board.shown.offer == () and "take" in board.cues
    assert not board.session.outstanding()


def test_pass_and_the_a_key_journal_the_same_card(tmp_path: pathlib.Path) -> None:
    ctrl, board = on_red_5_with_board(tmp_path)
    ctrl.landed(None, 2.0, 50, 0.4, likely=[["red-6", 0.4], ["red-9", 0.3]])
    ctrl.poll_board()
    board.press("PASS")  # "yes, that one"
    while not ctrl.poll_board():
        pass
    (tmp_path / "key").mkdir()
    keyed = on_red_5(tmp_path / "key")
    keyed.landed(None, 2.0, 50, 0.4, likely=[["red-6", 0.4], ["red-9", 0.3]])
    keyed.command(parse_command("a"))
    pressed = cards(ctrl)
    assert [{k: v for k, v in c.items() if k != "src"} for c in pressed] == cards(keyed)
    assert pressed[0]["card"] == "red-6" and ctrl.session.state["current_seat"] == keyed.session.state["current_seat"]


def test_a_press_about_a_question_no_longer_asked_takes_nothing(tmp_path: pathlib.Path) -> None:
    ctrl = on_red_5(tmp_path)
    ctrl.landed(None, 2.0, 50, 0.4, likely=[["red-6", 0.4], ["red-9", 0.3]])
    # the board still showed an earlier question's card when it was pressed
    assert ctrl.button(ButtonEvent("0badcafe", 1, "PASS", "short", "green-2")) is None
    assert cards(ctrl) == [] and ctrl.asking is not None
    assert "nothing taken" in ctrl.view.notices[-1]  # type: ignore[attr-defined]
    ctrl.command(parse_command("x red-6"))  # answered at the keyboard meanwhile
    assert ctrl.button(ButtonEvent("0badcafe", 2, "COLOUR", "short", "red-9")) is None
    assert [c["card"] for c in cards(ctrl)] == ["red-6"]
    # with nothing asked, PASS short is a pass again: the seat on turn may not pass before drawing
    ctrl.button(ButtonEvent("0badcafe", 3, "PASS", "short"))
    assert "pass only after drawing" in ctrl.view.notices[-1]  # type: ignore[attr-defined]
