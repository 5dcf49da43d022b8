"""The Referee contract of ENGINE_API.md: push/pop/check, legal_cards, errors, state fields."""
from __future__ import annotations

import json
import random

import pytest

from tableref.errors import UserError
from tableref.referee import Referee, Verdict
from tableref.rules import GAME_IDS, ConfigError, EventError, default_options

from rules_paths import VECTORS, vector_files

STATE_FIELDS = {"total", "current_seat", "direction", "pending", "awaiting", "penalty_draws",
                "eliminated", "tokens", "hand", "last_hand_loser", "illegal", "top", "color",
                "hand_counts", "uno_vulnerable", "hand_over", "hand_winner", "scores",
                "game_over", "winner"}


def _scenario_files() -> list:
    return [VECTORS / name for name in vector_files()]


def _load(path) -> dict:
    return json.loads(path.read_text())


def _referee(data: dict) -> Referee:
    return Referee(data["game"], data["players"], data.get("options"), data.get("setup"))


@pytest.mark.parametrize("game", GAME_IDS)
def test_state_has_every_field_and_is_json(game: str) -> None:
    ref = Referee(game, 3)
    state = ref.state
    assert STATE_FIELDS <= set(state)
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.stem)
def test_pop_restores_every_state_exactly(path) -> None:
    data = _load(path)
    ref = _referee(data)
    states = [ref.state]
    for event in data["events"]:
        ref.push(event)
        states.append(ref.state)
    for i in range(len(data["events"]) - 1, -1, -1):
        popped = ref.pop()
        assert popped["type"] == data["events"][i]["type"]
        assert ref.state == states[i]
    with pytest.raises(UserError, match="nothing to undo"):
        ref.pop()


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.stem)
def test_check_agrees_with_push_and_does_not_apply(path) -> None:
    data = _load(path)
    ref = _referee(data)
    for event in data["events"]:
        before = ref.state
        predicted = ref.check(event)
        assert ref.state == before
        assert ref.push(event) == predicted


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.stem)
def test_legal_cards_are_exactly_the_cards_check_accepts(path) -> None:
    data = _load(path)
    ref = _referee(data)
    for event in data["events"]:
        ref.push(event)
    seat = ref.state["current_seat"]
    legal = ref.legal_cards()
    assert legal == sorted(legal)
    if seat is None:
        assert legal == []
    for code in legal:
        assert ref.check({"type": "card", "seat": seat, "card": code}).ok


def test_legal_cards_ono99_2022_excludes_bust_and_single_ono() -> None:
    ref = Referee("ono99_2022", 3, setup={"total": 95, "current_seat": 1})
    legal = ref.legal_cards()
    assert "num-3" in legal and "num-4" not in legal and "ono99" not in legal
    assert {"minus10", "play2", "reverse", "num-0"} <= set(legal)


def test_legal_cards_uno_matching() -> None:
    ref = Referee("uno", 3, setup={"top": "red-3", "current_seat": 1})
    legal = ref.legal_cards()
    assert "red-9" in legal and "blue-3" in legal and "wild_draw4" in legal
    assert "blue-4" not in legal
    assert "wild_shuffle_hands" not in legal  # not in the 108-card deck


def test_verdict_ok() -> None:
    assert Verdict().ok and not Verdict({"seat": 1, "reason": "no_match"}).ok


def test_events_are_copies() -> None:
    ref = Referee("ono99_classic", 3)
    event = {"type": "card", "seat": 1, "card": "num-5", "t": 1.5}
    ref.push(event)
    event["card"] = "num-9"
    assert ref.events == [{"type": "card", "seat": 1, "card": "num-5", "t": 1.5}]
    ref.events[0]["card"] = "hold"
    assert ref.events[0]["card"] == "num-5"


def test_null_seat_is_the_expected_seat() -> None:
    ref = Referee("ono99_classic", 3)
    assert ref.push({"type": "card", "seat": None, "card": "num-5"}).ok
    assert ref.state["current_seat"] == 2 and ref.state["total"] == 5


@pytest.mark.parametrize("game", GAME_IDS)
def test_options_filled_with_defaults(game: str) -> None:
    ref = Referee(game, 4)
    assert ref.options == default_options(game)
    assert ref.game == game and ref.players == 4


@pytest.mark.parametrize("kwargs", [
    {"game": "poker", "players": 3},
    {"game": "uno", "players": 1},
    {"game": "uno", "players": 11},
    {"game": "uno", "players": True},
    {"game": "ono99_classic", "players": 9},
    {"game": "uno", "players": 3, "options": {"stacking": "always"}},
    {"game": "uno", "players": 3, "options": {"bust_on": "reach"}},
    {"game": "uno", "players": 3, "options": {"jump_in": "yes"}},
    {"game": "uno", "players": 3, "options": {"target_score": 0}},
    {"game": "ono99_2022", "players": 3, "options": {"minus10_floor": "zero"}},
    {"game": "ono99_classic", "players": 3, "options": {"tokens_per_player": 2.5}},
    {"game": "ena", "players": 3, "options": {"overtake": 1}},
    {"game": "uno", "players": 3, "setup": {"top": "red-99"}},
    {"game": "uno", "players": 3, "setup": {"hand_counts": [7, 7]}},
    {"game": "uno", "players": 3, "setup": {"shoe": 1}},
    {"game": "ono99_classic", "players": 3, "setup": {"current_seat": 3}},
    {"game": "ono99_classic", "players": 3, "setup": {"direction": "left"}},
])
def test_config_errors(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        Referee(**kwargs)
    assert issubclass(ConfigError, UserError)


@pytest.mark.parametrize("game,event", [
    ("uno", {"type": "card", "seat": 1, "card": "red-11"}),
    ("uno", {"type": "card", "seat": 1, "card": "red-skip_all"}),  # No Mercy only
    ("uno_no_mercy", {"type": "card", "seat": 1, "card": "wild"}),
    ("ono99_2022", {"type": "card", "seat": 1, "card": "hold"}),    # classic only
    ("ono99_classic", {"type": "card", "seat": 1, "card": "play2"}),
    ("ono99_classic", {"type": "shuffle", "seat": 1}),
    ("ono99_classic", {"seat": 1}),
    ("ono99_classic", {"type": "card", "seat": 3, "card": "num-2"}),
    ("ono99_classic", {"type": "card", "seat": "1", "card": "num-2"}),
    ("ono99_classic", {"type": "card", "seat": 1}),
    ("uno", {"type": "draw", "seat": 1, "count": 0}),
    ("uno", {"type": "color", "seat": 1, "color": "purple"}),
    ("uno", {"type": "catch", "seat": 1}),
    ("uno", {"type": "challenge_result"}),
    ("uno", {"type": "reveal", "seat": 1, "cards": ["red-1", "bogus"]}),
    ("uno", "card red-1"),
])
def test_event_errors_leave_state_unchanged(game: str, event) -> None:
    ref = Referee(game, 3, setup={"top": "red-3"} if game != "ono99_classic"
                  and not game.startswith("ono") else None)
    before = ref.state
    with pytest.raises(EventError):
        ref.push(event)
    with pytest.raises(EventError):
        ref.check(event)
    assert ref.state == before and ref.events == []


def test_illegal_card_does_not_change_the_game() -> None:
    ref = Referee("uno", 4, setup={"top": "red-3", "current_seat": 1})
    before = ref.state
    verdict = ref.push({"type": "card", "seat": 1, "card": "blue-7"})
    after = ref.state
    assert verdict.illegal == {"seat": 1, "reason": "no_match"}
    assert {k: v for k, v in after.items() if k != "illegal"} == \
        {k: v for k, v in before.items() if k != "illegal"}


def test_random_event_soup_never_crashes_and_pops_back() -> None:
    """Random (mostly silly) events against every game: only Verdicts or EventErrors, and
    popping everything returns to the start."""
    rng = random.Random(7)
    codes = ["num-5", "num-10", "minus10", "hold", "reverse", "double_play", "play2", "ono99",
             "red-3", "red-draw2", "blue-draw2", "wild", "wild_draw4", "red-7", "red-0",
             "wild_color_roulette", "red-draw4", "wild_draw10", "red-skip", "green-reverse"]
    types = ["card"] * 6 + ["draw", "pass", "color", "target", "uno", "catch", "challenge",
                            "challenge_result", "out", "end_turn", "reveal", "new_hand", "flip"]
    for game in GAME_IDS:
        options = {"seven_zero": True, "jump_in": True, "stacking": "any_draw",
                   "multi_same_number": True} if game == "uno" else {}
        ref = Referee(game, 4, options)
        start = ref.state
        pushed = 0
        for _ in range(400):
            etype = rng.choice(types)
            event = {"type": etype, "seat": rng.randrange(4), "card": rng.choice(codes),
                     "color": rng.choice(["red", "blue"]), "target": rng.randrange(4),
                     "guilty": rng.random() < 0.5, "cards": [], "count": rng.randint(1, 4)}
            if etype == "flip":
                event.pop("seat")
            try:
                ref.push(event)
                pushed += 1
            except EventError:
                continue
            json.dumps(ref.state)
        for _ in range(pushed):
            ref.pop()
        assert ref.state == start
