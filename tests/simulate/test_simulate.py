"""Self-consistency of the game simulator (tableref.simulate), independent of the engine."""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from tableref.simulate import GAMES, PLAYERS, make_simulator, simulate_game, write_record
from tableref.simulate.base import GameSim
from tableref.simulate.cards import no_mercy_deck, ono99_2022_deck, ono99_classic_deck, uno_deck

COLOURS = ("red", "yellow", "green", "blue")
CODES_99 = {f"num-{v}" for v in range(11)} | {"minus10", "hold", "reverse", "double_play",
                                               "play2", "ono99"}
CODES_UNO = {f"{c}-{r}" for c in COLOURS for r in [str(v) for v in range(10)] + [
    "skip", "reverse", "draw2", "draw4", "skip_all", "discard_all"]} | {
    "wild", "wild_draw4", "wild_shuffle_hands", "wild_swap_hands", "wild_custom",
    "wild_reverse_draw4", "wild_draw6", "wild_draw10", "wild_color_roulette"}
EVENT_FIELDS = {  # spec 1.5: required fields besides "type"
    "flip": {"card"}, "card": {"card"}, "draw": {"seat"}, "pass": {"seat"},
    "color": {"seat", "color"}, "target": {"seat", "target"}, "uno": {"seat"},
    "catch": {"seat", "target"}, "challenge": {"seat"}, "challenge_result": {"guilty"},
    "out": {"seat"}, "end_turn": {"seat"}, "reveal": {"seat", "cards"}, "new_hand": {"dealer"},
}


def seat_counts(game: str) -> list[int]:
    low, high = PLAYERS[game]
    return list(range(low, min(high, 8) + 1))


def all_cards(sim: GameSim) -> Counter[str]:
    s: Any = sim
    cards: list[str] = [c for h in s.hands for c in h] + s.draw_pile + s.discard
    cards += getattr(s, "dead", [])
    return Counter(cards)


def test_deck_sizes_and_counts() -> None:
    classic = Counter(ono99_classic_deck())
    assert sum(classic.values()) == 54
    assert classic["num-10"] == 10 and classic["minus10"] == 4 and classic["reverse"] == 6
    assert classic["double_play"] == 2 and classic["ono99"] == 4 and classic["num-7"] == 3
    assert len(ono99_2022_deck()) == 112
    assert set(ono99_2022_deck()) == {f"num-{v}" for v in range(11)} | {
        "minus10", "reverse", "play2", "ono99"}
    uno = Counter(uno_deck())
    assert sum(uno.values()) == 108 and uno["red-0"] == 1 and uno["blue-7"] == 2
    assert uno["wild"] == 4 and uno["wild_draw4"] == 4
    assert len(uno_deck("112_blank")) == 112
    nm = Counter(no_mercy_deck())
    assert sum(nm.values()) == 164  # the counts listed in spec 7.1 (the box says 168)
    assert nm["green-skip"] == 3 and nm["green-discard_all"] == 3 and nm["wild_draw10"] == 4
    assert all(c in CODES_99 for c in classic) and all(c in CODES_UNO for c in nm | uno)


@pytest.mark.parametrize("game", GAMES)
def test_cards_are_conserved_after_every_event(game: str) -> None:
    for players in seat_counts(game):
        for seed in range(6):
            sim = make_simulator(game, players, seed, misplay_rate=0.1)
            deck = Counter(sim.deck)  # type: ignore[attr-defined]
            truth = sim.truth
            seen: list[int] = []

            def checked() -> dict[str, Any]:
                assert all_cards(sim) == deck, f"{game} p={players} seed={seed} event {len(seen)}"
                seen.append(1)
                return truth()

            sim.truth = checked  # type: ignore[method-assign]
            game_rec = sim.run({})
            assert seen and len(seen) == len(game_rec.events)
            assert all(sum(t["cards"].values()) == sum(deck.values()) for t in game_rec.truth)


@pytest.mark.parametrize("game", GAMES)
def test_games_terminate_with_one_winner(game: str) -> None:
    for players in seat_counts(game):
        for seed in range(15):
            g = simulate_game(game, players, seed)
            assert g.finished, f"{game} p={players} seed={seed} did not end in {len(g.events)}"
            last = g.truth[-1]
            assert last["winner"] is not None and last["winner"] not in last["eliminated"]
            assert last["current_seat"] is None
            # once over, the game stays over (only the last reveals may follow, 5.5)
            first = next(i for i, t in enumerate(g.truth) if t["game_over"])
            assert all(t["game_over"] for t in g.truth[first:])
            assert all(e["type"] == "reveal" for e in g.events[first + 1:])


@pytest.mark.parametrize("game", GAMES)
def test_events_are_well_formed_and_observable(game: str) -> None:
    codes = CODES_99 if game.startswith("ono99") else CODES_UNO
    for seed in range(5):
        players = seat_counts(game)[seed % len(seat_counts(game))]
        g = simulate_game(game, players, seed, misplay_rate=0.1)
        assert len(g.events) == len(g.truth)
        for i, e in enumerate(g.events):
            assert set(e) >= {"type"} | EVENT_FIELDS[e["type"]], e
            for key in ("seat", "target", "dealer"):
                if key in e and not (key == "seat" and e["type"] == "card" and e[key] is None):
                    assert 0 <= e[key] < players
            if e["type"] == "card" and e.get("seat") is None:
                # a seatless card (1.5) is only ever the card of the seat on turn
                assert i > 0 and g.truth[i - 1]["current_seat"] is not None
            if "card" in e:
                assert e["card"] in codes
            if e["type"] == "reveal":
                assert all(c in codes for c in e["cards"])
            if e["type"] == "draw" and "count" in e:
                assert e["count"] >= 1
            if e["type"] == "color":
                assert e["color"] in COLOURS
            json.dumps(e)
        if game.startswith("ono99"):
            assert {e["type"] for e in g.events} <= {"card", "out"}


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game(game: str) -> None:
    a = simulate_game(game, 3, 1234)
    b = simulate_game(game, 3, 1234)
    c = simulate_game(game, 3, 1235)
    assert a.events == b.events and a.truth == b.truth
    assert a.events != c.events


@pytest.mark.parametrize("game", GAMES)
def test_misplay_rate_zero_means_no_misplays(game: str) -> None:
    for seed in range(5):
        g = simulate_game(game, 4, seed, misplay_rate=0.0)
        assert all(t["illegal"] is None for t in g.truth)
    flagged = sum(t["illegal"] is not None
                  for seed in range(5) for t in simulate_game(game, 4, seed, misplay_rate=0.2).truth)
    assert flagged > 0


def test_misplay_reasons_cover_the_brief() -> None:
    reasons: Counter[str] = Counter()
    for game in GAMES:
        for seed in range(30):
            for t in simulate_game(game, 2 + seed % 4, seed, misplay_rate=0.15).truth:
                if t["illegal"]:
                    reasons[t["illegal"]["reason"]] += 1
    for r in ("out_of_turn", "ono99_unplayable", "no_match", "must_draw", "cannot_stack",
              "bust_should_declare_out", "invalid_catch", "pass_not_allowed",
              "not_identical_out_of_turn", "wrong_seat", "stack_value_too_low", "awaiting_input"):
        assert reasons[r] > 0, r


@pytest.mark.parametrize("game", ["uno", "ena"])
def test_reveals_are_the_real_hands_and_score(game: str) -> None:
    for seed in range(10):
        g = simulate_game(game, 3, seed)
        for i, e in enumerate(g.events):
            if e["type"] != "reveal":
                continue
            before = g.truth[i - 1]
            assert sorted(e["cards"]) == before["hands"][e["seat"]]
            assert len(e["cards"]) == before["hand_counts"][e["seat"]]
            assert sum(g.truth[i]["scores"]) > sum(before["scores"]) or not e["cards"] or all(
                c.endswith("-0") for c in e["cards"])


def test_wild_draw_four_challenge_outcome_is_the_truth() -> None:
    """A challenge's result says whether the WD4 player held the colour then in force."""
    checked = 0
    for seed in range(30):
        g = simulate_game("uno", 4, seed, misplay_rate=0.0)
        for i, e in enumerate(g.events):
            if e["type"] != "challenge_result":
                continue
            j = max(k for k in range(i) if g.events[k].get("card") == "wild_draw4"
                    and g.events[k]["type"] == "card")
            player = g.events[j].get("seat")
            if player is None:
                player = g.truth[j - 1]["current_seat"]
            colour_before = g.truth[j - 1]["color"]
            held = g.truth[j - 1]["hands"][player]
            guilty = any(c.startswith(f"{colour_before}-") for c in held)
            assert e["guilty"] == guilty
            checked += 1
    assert checked > 5


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        simulate_game("uno", 3, 0, {"play_drawn_card": "must"})
    with pytest.raises(ValueError):
        simulate_game("uno", 3, 0, {"no_such_option": 1})
    with pytest.raises(ValueError):
        simulate_game("chess", 3, 0)
    with pytest.raises(ValueError):
        simulate_game("uno_no_mercy", 9, 0)


def test_bust_on_exceed_lets_99_stand() -> None:
    busted = 0
    for seed in range(10):
        g = simulate_game("ono99_classic", 3, seed, {"bust_on": "exceed"}, misplay_rate=0.0)
        # the game-ending loss keeps its busting total (C9); every other total is at most 99
        assert g.finished and max(t["total"] for t in g.truth[:-1]) <= 99
        if g.events[-1]["type"] == "card":
            assert g.truth[-1]["total"] >= 100
            busted += 1
    assert busted
    assert any(t["total"] == 99 for seed in range(40)
               for t in simulate_game("ono99_2022", 4, seed, {"bust_on": "exceed"}).truth)


def test_max_events_cuts_the_game() -> None:
    g = simulate_game("uno", 4, 3, max_events=50)
    assert len(g.events) == 50 and not g.finished


def test_write_record_round_trip(tmp_path: Any) -> None:
    g = simulate_game("ena", 3, 7)
    path = write_record(g, tmp_path / "game.jsonl")
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"tableref": 1, "game": "ena", "players": 3, "options": {}}
    assert [json.loads(x) for x in lines[1:]] == g.events
