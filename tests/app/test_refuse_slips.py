"""Finding 9 of issue 25: a key (or a board button) that makes no sense now is refused on the
screen with what would make sense, never journaled as an illegal play (no ErrC, no beep)."""
from __future__ import annotations

import pathlib

from tableref.actions import refusal
from tableref.keyboard import parse_command
from tableref.link import BoardLink, ButtonEvent
from tableref.referee import Referee
from tableref.table import TableSession, make_header
from tableref.table_app import TableController


class Notes:
    def __init__(self) -> None:
        self.notices: list[str] = []

    def update(self, u: object) -> None:
        pass

    def notice(self, text: str) -> None:
        self.notices.append(text)


def controller(tmp_path: pathlib.Path, game: str = "uno", link=None, **options) -> TableController:
    session = TableSession.new(make_header(game, 3, options), tmp_path / "j.jsonl")
    return TableController(session, Notes(), link, ["Ana", "Bo", "Cy"])


def test_refusal_is_a_flag_that_changes_nothing_else() -> None:
    fresh = Referee("uno", 3)
    assert refusal(fresh, {"type": "color", "seat": None, "color": "red"}) == "wrong_seat"
    assert refusal(fresh, {"type": "draw", "seat": None}) == "wrong_seat"  # before the first card
    started = Referee("uno", 3, setup={"top": "red-5"})
    assert refusal(started, {"type": "pass", "seat": 1}) == "pass_not_allowed"  # before a draw
    assert refusal(started, {"type": "draw", "seat": 1}) is None
    assert refusal(started, {"type": "out", "seat": 1}) == "wrong_seat"  # a 99-game key in UNO
    costly = Referee("uno", 3, {"false_catch_penalty": 2}, setup={"top": "red-5"})
    assert refusal(costly, {"type": "catch", "seat": 0, "target": 2}) is None  # a false catch costs: a play
    assert refusal(started, {"type": "catch", "seat": 0, "target": 2}) == "invalid_catch"
    assert len(started) == 0 and started.state["illegal"] is None  # the trial left nothing behind


def test_a_colour_before_the_first_card_is_refused_with_what_makes_sense(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    ctrl.command(parse_command("r"))
    ctrl.command(parse_command("d"))
    assert ctrl.session.records == [] and (tmp_path / "j.jsonl").read_text().count("\n") == 1
    notes = ctrl.view.notices  # type: ignore[attr-defined]
    assert len(notes) == 2 and all("nothing recorded" in n and "first card turned onto the pile" in n for n in notes)
    assert "seat None" not in " ".join(notes)


def test_a_board_press_with_nothing_to_do_shows_no_errc(tmp_path: pathlib.Path) -> None:
    link = BoardLink.open("sim://")
    ctrl = controller(tmp_path, link=link)
    ctrl.landed("red-5")
    ctrl.button(ButtonEvent("b1", 1, "PASS", "short", None))  # Bo passes without drawing
    assert [r["type"] for r in ctrl.session.records] == ["flip"]
    assert ctrl.session.snapshot().err == 0
    assert "d if Bo draws" in ctrl.view.notices[-1]  # type: ignore[attr-defined]
    ctrl.button(ButtonEvent("b1", 2, "DRAW", "short", None))
    ctrl.button(ButtonEvent("b1", 3, "PASS", "short", None))  # now it makes sense: journaled
    assert [r["type"] for r in ctrl.session.records] == ["flip", "draw", "pass"]
    link.close()


def test_a_misplayed_card_is_still_an_illegal_play(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    ctrl.landed("red-5")
    ctrl.landed("blue-7")  # does not match: a play the referee judges, not a slip
    assert ctrl.session.records[-1]["card"] == "blue-7" and ctrl.session.illegal_id
