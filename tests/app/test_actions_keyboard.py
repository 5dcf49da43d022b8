"""Keys and board buttons -> events (pure), and typed command parsing."""
from __future__ import annotations

import pytest

from tableref.actions import UNDO, action_event, button_event, landed_event
from tableref.keyboard import Command, CommandError, parse_command
from tableref.referee import Referee


@pytest.mark.parametrize("line, cmd", [
    ("d", Command("draw")), ("2 d", Command("draw", 2)), ("d 4", Command("draw", None, 4)),
    ("p", Command("pass")), ("o", Command("out")), ("u", Command("undo")),
    ("r", Command("color", None, "red")), ("c blue", Command("color", None, "blue")), ("1 c g", Command("color", 1, "green")),
    ("n", Command("uno")), ("3 n", Command("uno", 3)), ("k 2", Command("catch", None, 2)),
    ("h", Command("challenge")), ("G", Command("challenge_result", None, "guilty")),
    ("I", Command("challenge_result", None, "innocent")), ("t 0", Command("target", None, 0)),
    ("e", Command("end_turn")), ("w", Command("new_hand")), ("w 2", Command("new_hand", 2)),
    ("x red-5", Command("card", None, "red-5")), ("1 v red-5 wild", Command("reveal", 1, ["red-5", "wild"])),
    ("q", Command("quit")), ("?", Command("help")),
])
def test_parse_command(line: str, cmd: Command) -> None:
    assert parse_command(line) == cmd


@pytest.mark.parametrize("line", ["z", "2", "c purple", "k", "k x", "x", "d many", "p 3"])
def test_bad_commands_say_what_was_expected(line: str) -> None:
    with pytest.raises(CommandError):
        parse_command(line)


def test_empty_line_is_nothing() -> None:
    assert parse_command("   ") is None


def uno_after(*events: dict) -> Referee:
    ref = Referee("uno", 3)
    for ev in events:
        assert ref.push(ev).ok, ev
    return ref


def test_draw_goes_to_the_seat_that_owes_it() -> None:
    ref = uno_after({"type": "flip", "card": "red-5"}, {"type": "card", "seat": 1, "card": "red-draw2"})
    assert action_event("draw", ref.state) == {"type": "draw", "seat": 2}
    assert ref.push(action_event("draw", ref.state)).ok  # type: ignore[arg-type]
    assert ref.state["hand_counts"][2] == 9


def test_colour_goes_to_the_seat_naming_it_and_board_colour_is_the_same() -> None:
    ref = uno_after({"type": "flip", "card": "red-5"}, {"type": "card", "seat": 1, "card": "wild"})
    by_key = action_event("color", ref.state, arg="green")
    by_button = button_event("uno", "COLOUR", "long", "green", ref.state)
    assert by_key == by_button == {"type": "color", "seat": 1, "color": "green"}
    assert button_event("uno", "COLOUR", "short", "-", ref.state) is None  # short presses only cycle on the board


def test_buttons_per_game() -> None:
    ono = Referee("ono99_2022", 3)
    assert button_event("ono99_2022", "PASS", "short", "-", ono.state) == {"type": "out", "seat": 1}
    assert button_event("uno", "PASS", "short", "-", uno_after({"type": "flip", "card": "red-5"}).state) == {"type": "pass", "seat": 1}
    assert button_event("uno", "UNDO", "short", "-", {}) is UNDO
    assert action_event("undo", {}) is UNDO


def test_a_landed_card_is_a_flip_when_a_hand_waits_for_its_first_card() -> None:
    fresh = Referee("uno", 3)
    assert landed_event(fresh.state, "red-5") == {"type": "flip", "card": "red-5"}
    started = uno_after({"type": "flip", "card": "red-5"})
    assert landed_event(started.state, "red-7") == {"type": "card", "seat": None, "card": "red-7"}
    assert landed_event(Referee("ono99_2022", 3).state, "num-5") == {"type": "card", "seat": None, "card": "num-5"}


def test_uno_call_and_catch_defaults() -> None:
    ref = Referee("uno", 3, setup={"top": "red-5", "hand_counts": [7, 2, 7]})
    ref.push({"type": "card", "seat": 1, "card": "red-6"})
    assert ref.state["uno_vulnerable"] == 1
    assert action_event("uno", ref.state, events=ref.events) == {"type": "uno", "seat": 1}
    assert action_event("catch", ref.state) == {"type": "catch", "seat": 2, "target": 1}
    assert action_event("catch", Referee("uno", 3).state) is None  # nobody to catch


def test_new_hand_passes_the_deal_on() -> None:
    state = Referee("uno", 3).state
    assert action_event("new_hand", state, events=[{"type": "new_hand", "dealer": 2}]) == {"type": "new_hand", "dealer": 0}
