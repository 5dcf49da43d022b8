"""Never silently wrong: a card the camera declined, or read unsurely as an illegal play, is
asked about before anything is journaled (no ErrC, no beep), with the camera's likeliest code
one key away (`a`) and its runner-up another (`s`)."""
from __future__ import annotations

import pathlib

from tableref.keyboard import parse_command
from tableref.table import TableSession, make_header
from tableref.table_app import ENROL_AFTER_ASKS, TableController

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
