"""`tableref options [GAME]`, the errors for a bad --option, and one set of game and deck names
across commands (issue 25), run as a user would where the user meets them (subprocess)."""
from __future__ import annotations

import json
import pathlib

import pytest

from tableref.demo import demo_game
from tableref.errors import UserError
from tableref.rules import GAME_IDS, RULESETS, ConfigError, canonical_game, make_ruleset, ruleset_class
from tableref.settings import resolve
from tableref.vision.synth.card_faces import deck_codes

from test_record_and_cli import tableref


def test_options_lists_every_option_of_the_game_with_default_values_and_meaning() -> None:
    res = tableref("options", "uno")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    specs = ruleset_class("uno").option_specs
    assert lines[0].startswith("uno: UNO") and f"{len(specs)} options" in lines[0]
    for name, opt in specs.items():
        [i] = [k for k, line in enumerate(lines) if line.split()[:1] == [name]]
        assert "default " in lines[i] and "values: " in lines[i]
        assert lines[i + 1].strip() == opt.meaning
    stacking = next(line for line in lines if line.split()[:1] == ["stacking"])
    assert "default none;" in stacking and "none / same_type / draw2_into_draw4 / any_draw" in stacking
    jump = next(line for line in lines if line.split()[:1] == ["jump_in"])
    assert "default false; values: true / false" in jump


def test_options_without_a_game_lists_every_game() -> None:
    res = tableref("options")
    assert res.returncode == 0, res.stderr
    headings = [line.split(":")[0] for line in res.stdout.splitlines() if line and not line[0].isspace()]
    assert [h for h in headings if h in GAME_IDS] == list(GAME_IDS)


def test_options_json_gives_each_option_as_the_ruleset_defines_it() -> None:
    res = tableref("options", "--json", "ena")
    assert res.returncode == 0, res.stderr
    records = [json.loads(line) for line in res.stdout.splitlines()]
    specs = ruleset_class("ena").option_specs
    assert [r["name"] for r in records] == list(specs)
    for r in records:
        opt = specs[r["name"]]
        assert r["game"] == "ena" and r["default"] == opt.default and r["meaning"] == opt.meaning
        assert r["allowed"] == (list(opt.kind) if isinstance(opt.kind, tuple) else opt.kind)


@pytest.mark.parametrize("cls", RULESETS, ids=lambda c: c.game)
def test_every_option_has_one_line_of_meaning_and_a_valid_default(cls) -> None:
    for name, opt in cls.option_specs.items():
        assert opt.meaning and "\n" not in opt.meaning and len(opt.meaning) <= 90, name
        if isinstance(opt.kind, tuple):
            assert opt.default in opt.kind, name
    make_ruleset(cls.game, cls.player_range[0], {n: o.default for n, o in cls.option_specs.items()})


def test_options_of_an_unknown_game_names_the_games() -> None:
    res = tableref("options", "skat")
    assert res.returncode == 2 and res.stdout == ""
    [line] = res.stderr.splitlines()
    assert "unknown game 'skat'" in line and all(g in line for g in GAME_IDS) and "ono99 = ono99_2022" in line


def test_a_bad_option_name_or_value_names_the_valid_ones() -> None:
    with pytest.raises(ConfigError) as bad:
        make_ruleset("uno", 3, {"colour": "red"})
    assert "unknown option 'colour' for uno" in str(bad.value)
    assert all(name in str(bad.value) for name in ruleset_class("uno").option_specs)
    assert "tableref options uno" in str(bad.value)
    with pytest.raises(ConfigError, match=r"\(expected winner_collects / cumulative_low\)"):
        make_ruleset("uno", 3, {"scoring": "most"})
    with pytest.raises(ConfigError, match=r"\(expected true / false\)"):
        make_ruleset("uno", 3, {"jump_in": "yes"})


def test_run_refuses_a_bad_option_before_any_journal(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    res = tableref("run", "--game", "uno", "--players", "3", "--option", "colour=red",
                   "--source", "9", "--port", "sim://", "--journal", str(journal))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    [line] = res.stderr.splitlines()
    assert "unknown option 'colour'" in line and "stacking" in line
    assert not journal.exists()


def test_a_deck_typed_as_a_number_is_the_deck_of_that_name() -> None:
    # --option deck=108 reads as the number 108 (settings.parse_option): still the 108 deck
    assert make_ruleset("uno", 3, {"deck": 108}).opt["deck"] == "108"
    with pytest.raises(ConfigError, match="108 / 112_blank"):
        make_ruleset("uno", 3, {"deck": 110})


def test_one_set_of_game_names_with_the_old_spelling_kept() -> None:
    assert canonical_game("ono99") == "ono99_2022" == canonical_game("ono99_2022")
    assert demo_game("ono99") == "ono99_2022" and demo_game("uno") == "uno" and demo_game("ena") == "ena"
    with pytest.raises(UserError, match="the demo plays ono99_2022 or uno or ena, not uno_no_mercy"):
        demo_game("uno_no_mercy")
    assert resolve({"game": "ono99", "players": 3}, env={}).game == "ono99_2022"  # run --game ono99


def test_one_set_of_deck_names_for_the_recogniser_and_the_synthetic_scenes() -> None:
    from tableref.vision.cardface import DECKS, all_codes
    for deck in DECKS:  # what identify --deck, enroll --cards and run --deck take
        assert deck_codes(deck) == all_codes(deck)
    assert deck_codes("ono99") == deck_codes("ono99_2022")  # synth --deck ono99, the old spelling
    res = tableref("synth", "/nonexistent-out", "--deck", "ono100")
    assert res.returncode == 2
    assert all(deck in res.stderr for deck in DECKS)
