"""The camera's seat map (tableref.seats) and how the table controller uses it: learned from
certain plays, sure or unsure, out-of-turn cards credited or flagged, journaled and resumed."""
from __future__ import annotations

import json
import pathlib

import pytest

from tableref.link import BoardLink
from tableref.record import read_record
from tableref.seats import SeatMap, angle_gap, nearest_seat
from tableref.table import TableSession, make_header
from tableref.feed import TableUpdate
from tableref.table_app import TableController

BEARINGS = [270.0, 200.0, 120.0, 20.0]  # four seats, spaced unevenly


class Screen:
    def __init__(self) -> None:
        self.notices: list[str] = []
        self.lines: list[str] = []

    def update(self, u: TableUpdate) -> None:
        if u.line:
            self.lines.append(u.line)

    def notice(self, text: str) -> None:
        self.notices.append(text)


def learned(bearings: list[float], reaches: int = 3) -> SeatMap:
    m = SeatMap(len(bearings))
    for _ in range(reaches):
        for seat, b in enumerate(bearings):
            m.learn(seat, b + 3.0, 0.9)
    return m


def test_angles_wrap_round() -> None:
    assert angle_gap(350, 10) == pytest.approx(20) and angle_gap(10, 350) == pytest.approx(20)
    assert nearest_seat(355, [0.0, 90.0, 180.0]) == 0 and nearest_seat(100, [0.0, 90.0, 180.0]) == 1


def test_names_a_learned_seat_only_when_sure() -> None:
    m = learned(BEARINGS)
    assert [m.name(b - 4, 0.9).seat for b in BEARINGS] == [0, 1, 2, 3]
    assert m.name(200, 0.3).seat is None and "unsure" in m.name(200, 0.3).why
    assert m.name(None, 0.0).seat is None
    # between two seats, or where nobody sits: turn order, never an invented seat
    assert m.name(160, 0.9).seat is None
    assert SeatMap(4).name(200, 0.9).why == "no seat learned yet"


def test_two_seats_close_together_are_never_named() -> None:
    m = learned([270.0, 180.0, 90.0, 100.0])
    assert m.known() == [0, 1, 2]  # seat 3 sits too near seat 2 to learn it by turn order
    assert m.name(270, 0.9, expected=1).seat == 0
    assert m.name(100, 0.9, expected=3).seat is None and "not been learned" in m.name(100, 0.9, expected=3).why
    record = {"type": "seat_map", "seats": [{"bearing": 270}, {"bearing": 180}, {"bearing": 90}, {"bearing": 100}]}
    close = SeatMap.from_record(4, record)
    assert close.name(270, 0.9).seat == 0
    assert close.name(93, 0.9).seat is None and "close" in close.name(93, 0.9).why


def test_a_stray_reach_does_not_pull_a_seat_and_the_map_follows_a_shift() -> None:
    m = SeatMap(4)
    m.learn(0, 90.0, 0.9)  # the turn order was wrong about this one: it came from seat 2's side
    for _ in range(3):
        for seat, b in enumerate(BEARINGS):
            m.learn(seat, b + 3.0, 0.9)
    assert angle_gap(m.bearings()[0], 273.0) < 0.5  # type: ignore[arg-type]
    m = learned(BEARINGS)
    assert not m.learn(0, 203.0, 0.9)  # seat 0 "played", but the hand came from seat 1's side
    assert angle_gap(m.bearings()[0], 273.0) < 0.5  # type: ignore[arg-type]
    for _ in range(30):  # the player at seat 0 moved over a little
        m.learn(0, 255.0, 0.9)
    assert angle_gap(m.bearings()[0], 255.0) < 2  # type: ignore[arg-type]


def test_calibration_takes_one_reach_per_seat_in_order() -> None:
    m = SeatMap(3)
    m.start_calibration()
    assert m.calibrate(90.0, 0.9) and m.calibrating == 1
    assert not m.calibrate(95.0, 0.9) and m.calibrating == 1  # too near seat 0: again
    assert not m.calibrate(200.0, 0.2)  # unsure: again
    assert m.calibrate(200.0, 0.8) and m.calibrate(320.0, 0.8) and m.calibrating is None
    assert [m.name(b, 0.9).seat for b in (88, 205, 318)] == [0, 1, 2]
    assert SeatMap.from_record(3, json.loads(json.dumps(m.as_record()))).bearings() == pytest.approx(m.bearings(), abs=0.1)


def controller(tmp_path: pathlib.Path, game: str, players: int, options: dict | None = None,
               link=None) -> TableController:
    journal = tmp_path / "j.jsonl"
    session = TableSession.new(make_header(game, players, options or {}), journal)
    return TableController(session, Screen(), link)


def play_round(ctrl: TableController, cards: list[str], frame: int) -> int:
    """Each card from the seat on turn, its hand from that seat's bearing."""
    for card in cards:
        seat = ctrl.session.state["current_seat"]
        ctrl.landed(card, frame / 25, frame, 0.95, BEARINGS[seat] + 2.0, 0.9)
        frame += 50
    return frame


def test_uno_jump_in_is_credited_and_an_out_of_turn_card_flagged(tmp_path: pathlib.Path) -> None:
    link = BoardLink.open("sim://")
    ctrl = controller(tmp_path, "uno", 4, {"jump_in": True}, link)
    ctrl.landed("red-5", 0.0, 1, 0.95, None, 0.0)  # the flip
    frame = play_round(ctrl, ["red-7", "red-8", "red-2", "red-6"], 50)  # seats 1, 2, 3, 0
    assert ctrl.seat_map is not None and ctrl.seat_map.known() == []  # one reach each: not yet sure
    frame = play_round(ctrl, ["red-4", "red-3", "red-1", "red-9"], frame)  # and again: learned
    assert ctrl.seat_map.known() == [0, 1, 2, 3]
    assert ctrl.session.state["current_seat"] == 1
    # seat 3 jumps in with the identical card, out of turn: credited to seat 3, play goes on from it
    out = ctrl.landed("red-9", frame / 25, frame, 0.95, BEARINGS[3] - 3.0, 0.9)
    assert out is not None and out.verdict is not None and out.verdict.illegal is None
    assert out.event == {"type": "card", "seat": 3, "card": "red-9"}
    assert ctrl.session.state["current_seat"] == 0
    assert any("P3" in n and "out of turn" in n for n in ctrl.view.notices)  # type: ignore[attr-defined]
    assert ctrl.session.snapshot(credit=ctrl.credit).credit == 3 and link.session.current.credit == 3
    # seat 2 plays a card that is no jump-in, out of turn: flagged
    out = ctrl.landed("red-1", frame / 25 + 2, frame + 50, 0.95, BEARINGS[2], 0.9)
    assert out is not None and out.verdict is not None and out.verdict.illegal is not None
    assert out.verdict.illegal["seat"] == 2
    # an unsure hand goes by turn order, and the screen says so
    ctrl.removed(frame / 25 + 3, frame + 60)
    out = ctrl.landed("red-3", frame / 25 + 4, frame + 100, 0.95, 160.0, 0.9)
    assert out is not None and out.verdict is not None and out.verdict.illegal is None
    assert "seat by turn order" in ctrl.view.lines[-1]  # type: ignore[attr-defined]


def test_the_map_is_journaled_and_a_resumed_game_keeps_it(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path, "ena", 4)
    ctrl.landed("blue-5", 0.0, 1, 0.95, None, 0.0)
    play_round(ctrl, ["blue-7", "blue-8", "blue-2", "blue-9", "blue-1", "blue-3", "blue-4", "blue-6"], 50)
    bearings = ctrl.seat_map.bearings()  # type: ignore[union-attr]
    ctrl.session.close()
    _, records = read_record(tmp_path / "j.jsonl")
    assert any(r["type"] == "seat_map" for r in records)
    resumed = TableController(TableSession.resume(tmp_path / "j.jsonl"), Screen())
    assert resumed.seat_map is not None and resumed.seat_map.bearings() == pytest.approx(bearings, abs=0.1)
    assert resumed.session.state == ctrl.session.state


def test_a_resumed_game_holds_the_map_the_run_held_even_killed_after_a_card(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path, "ena", 4)
    ctrl.landed("blue-5", 0.0, 1, 0.95, None, 0.0)
    play_round(ctrl, ["blue-7", "blue-8", "blue-2", "blue-9", "blue-1", "blue-3", "blue-4", "blue-6", "blue-1"], 50)
    ctrl.session.close()
    journal = tmp_path / "j.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    records = [json.loads(line) for line in lines[1:]]
    # the reach of the last card moved no seat far enough to be journaled: the map holds more
    # than its last record, and a resume must hold it all the same
    assert records[-1]["type"] == "card" and SeatMap.from_record(4, [r for r in records if r["type"] == "seat_map"][-1]) \
        .as_record() != ctrl.seat_map.as_record()  # type: ignore[union-attr]
    resumed = TableController(TableSession.resume(journal), Screen())
    assert resumed.seat_map is not None and resumed.seat_map.as_record() == ctrl.seat_map.as_record()  # type: ignore[union-attr]
    resumed.session.close()
    assert journal.read_text().splitlines(keepends=True) == lines  # nothing owed, nothing written
    # killed between a card and the map record it taught: the resume writes that record
    cut = max(i for i, r in enumerate(records) if r["type"] == "seat_map")
    assert records[cut - 1]["type"] == "card"
    journal.write_text("".join(lines[:cut + 1]))  # header + records up to that card
    resumed = TableController(TableSession.resume(journal), Screen())
    resumed.session.close()
    assert journal.read_text().splitlines(keepends=True) == lines[:cut + 2]


def test_calibration_reaches_teach_the_map_and_are_not_played(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path, "uno", 4, {"jump_in": True})
    ctrl.calibrate_seats()
    for seat, b in enumerate(BEARINGS):
        assert ctrl.landed("red-5", seat, seat * 25, 0.95, b + 1.0, 0.9) is None
        ctrl.removed(seat + 0.5, seat * 25 + 10)  # the calibration card taken off again
    assert ctrl.seat_map is not None and ctrl.seat_map.calibrating is None and ctrl.seat_map.known() == [0, 1, 2, 3]
    assert ctrl.session.referee.events == []  # nothing played
    assert any("all seats learned" in n for n in ctrl.view.notices)  # type: ignore[attr-defined]
    ctrl.landed("red-5", 9.0, 300, 0.95, None, 0.0)  # the flip, then seat 2 jumps in straight away
    out = ctrl.landed("red-5", 10.0, 350, 0.95, BEARINGS[2], 0.9)
    assert out is not None and out.event is not None and out.event["seat"] == 2
