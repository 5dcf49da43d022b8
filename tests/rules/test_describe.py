"""The one-line table view used by replay and demo."""
from __future__ import annotations

from tableref.demo import render_table_line
from tableref.referee import Referee
from tableref.rules.describe import describe_event


def test_ninety_nine_line_shows_total_turn_obligation_and_verdict() -> None:
    ref = Referee("ono99_classic", 3, setup={"total": 40, "current_seat": 1})
    ref.push({"type": "card", "seat": 1, "card": "double_play"})
    line = render_table_line(ref.state, "ono99_classic")
    assert "total  40" in line and "turn 2" in line and "seat 2 owes 2 plays" in line
    assert "tokens 3/3/3" in line
    ref.push({"type": "card", "seat": 0, "card": "num-5"})
    assert "ILLEGAL seat 0: out_of_turn" in render_table_line(ref.state, "ono99_classic")


def test_uno_line_shows_top_counts_waits_and_result() -> None:
    ref = Referee("uno", 3, setup={"top": "red-3", "current_seat": 0, "hand_counts": [1, 2, 2]})
    ref.push({"type": "card", "seat": 0, "card": "wild_draw4"})
    line = render_table_line(ref.state, "uno")
    assert "hand won by seat 0" in line and "seat 1 draws 4" in line and "cards 0/2/2" in line
    ref = Referee("uno", 3, setup={"top": "red-3", "current_seat": 0})
    ref.push({"type": "card", "seat": 0, "card": "wild"})
    assert "waiting: color from seat 0" in render_table_line(ref.state, "uno")


def test_describe_event() -> None:
    assert describe_event({"type": "card", "seat": 2, "card": "num-7"}) == "seat 2 card num-7"
    assert describe_event({"type": "challenge_result", "guilty": True}) == "challenge: guilty"
    assert describe_event({"type": "catch", "seat": 0, "target": 1}) == "seat 0 catch seat 1"
