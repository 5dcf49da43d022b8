"""Each game's facts live on its ruleset class, found through one lookup (STYLE E1, E2)."""
from __future__ import annotations

import pathlib
import re

import pytest

from tableref.referee import Referee
from tableref.rules import GAME_IDS, RULESETS, ConfigError, make_ruleset, ruleset_class
from tableref.vision import cardface
from tableref.vision.synth.card_faces import deck_codes

HOST = pathlib.Path(__file__).resolve().parents[2] / "host"


def test_one_lookup_finds_every_game_and_names_them_all_when_it_cannot() -> None:
    assert GAME_IDS == ("ono99_classic", "ono99_2022", "uno", "uno_no_mercy", "ena")
    for cls in RULESETS:
        assert ruleset_class(cls.game) is cls
    with pytest.raises(ConfigError) as bad:
        ruleset_class("ono99")
    assert "unknown game 'ono99'" in str(bad.value)
    assert all(game in str(bad.value) for game in GAME_IDS)
    with pytest.raises(ValueError):  # a ConfigError is a ValueError too (board_view's contract)
        ruleset_class(None)


@pytest.mark.parametrize("game", GAME_IDS)
def test_facts_are_stated_by_each_class(game: str) -> None:
    cls = ruleset_class(game)
    assert cls.title and cls.family in ("ninety_nine", "uno")
    assert cls.give_up == ("out" if cls.family == "ninety_nine" else "pass")
    assert cls.option_specs and cls.codes
    # a ninety-nine game keeps a running total, an UNO-family game a discard pile
    state = Referee(game, 3).state
    assert (state["hand_counts"] == []) == (cls.family == "ninety_nine")


def test_titles_are_distinct() -> None:
    titles = [cls.title for cls in RULESETS]
    assert len(set(titles)) == len(titles)


UNO_DECKS = {"108": "uno", "112_blank": "uno112", "112_swap": "uno112", "112_shuffle": "uno112"}


@pytest.mark.parametrize("game", GAME_IDS)
def test_vision_deck_holds_every_card_of_the_game(game: str) -> None:
    """The recogniser and the synthetic scenes get a deck with all of the game's cards."""
    cls = ruleset_class(game)
    variants = [{"deck": d} for d in UNO_DECKS] if "deck" in cls.option_specs else [{}]
    for options in variants:
        deck = cls.vision_deck(options)
        if options:
            assert deck == UNO_DECKS[options["deck"]]
        cards = set(make_ruleset(game, 3, options).deck())
        assert cards <= set(cardface.all_codes(deck)), (game, options)
        assert cards <= set(deck_codes(deck)), (game, options)


def test_ena_call_penalty_follows_mistake_penalty_unless_set() -> None:
    assert make_ruleset("ena", 3, {"mistake_penalty": 4}).opt["ena_call_penalty"] == 4
    assert make_ruleset("ena", 3, {"mistake_penalty": 4, "ena_call_penalty": 1}).opt["ena_call_penalty"] == 1


def test_lone_ono_is_playable_only_inside_a_set() -> None:
    """Ono2022Rules.playable: legal_cards lists ONO 99 once a set has begun (4.5)."""
    ref = Referee("ono99_2022", 3, setup={"total": 40, "current_seat": 1})
    assert "ono99" not in ref.legal_cards()
    ref.push({"type": "card", "seat": 1, "card": "ono99"})
    assert "ono99" in ref.legal_cards()
    classic = Referee("ono99_classic", 3, setup={"total": 40, "current_seat": 1})
    assert "ono99" not in classic.legal_cards()


# A game id tested by its spelling: `game == "ena"`, `in ("uno", "uno_no_mercy")`,
# `startswith("ono99")`, or a second list of games (`("ono99_classic", "ono99_2022")`).
# ("uno" alone is also an event type and a deck name, so only `game == "uno"` and lists count.)
_IDS = "ono99_classic|ono99_2022|uno_no_mercy|ena"
_ANY = _IDS + "|uno"
SPELLED = re.compile(rf"""(==|!=|\bin\b)\s*[(\[{{]?[^)\]}}]*["']({_IDS})["']"""
                     rf"""|[(\[{{]\s*["']({_ANY})["']\s*,\s*["']({_ANY})["']"""
                     r"""|startswith\(\s*["']ono99|game\w*\s*(==|!=)\s*["']uno["']""")


def test_no_game_id_is_tested_by_its_spelling_outside_the_rules() -> None:
    # host/simulate is the independent second reading on purpose: it keeps its own facts
    found = [f"{path.relative_to(HOST)}:{n}: {line.strip()}"
             for path in sorted(HOST.rglob("*.py"))
             if not path.relative_to(HOST).parts[0] in ("rules", "simulate")
             for n, line in enumerate(path.read_text().splitlines(), 1) if SPELLED.search(line)]
    assert found == []


def test_the_spelling_check_finds_what_it_looks_for() -> None:
    assert SPELLED.search('is99 = h["game"].startswith("ono99")')
    assert SPELLED.search('if game in ("uno", "uno_no_mercy", "ena"):')
    assert SPELLED.search('elif game == "uno":')
    assert SPELLED.search('NINETY_NINE = ("ono99_classic", "ono99_2022")')
    assert SPELLED.search('for game in ("ono99_2022", "uno"):')
    assert not SPELLED.search('if action == "uno":')
