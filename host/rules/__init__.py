"""Rulesets of the games in spec/rules.md, found by game id: the one list of games.

`ruleset_class(game)` is the one lookup (`canonical_game(name)` first for a name a person
typed, which may be an older alias) of a game's class, whose class attributes are the
game's facts (title, family, give_up, codes, option_specs, vision_deck...; see base.py).
`make_ruleset(game, players, options)` validates everything up front (ConfigError) so the
referee never meets a bad option mid-game.
"""
from __future__ import annotations

from typing import Any

from .events import EVENT_TYPES, EventError, validate_event
from .options import ConfigError
from .base import Ruleset
from .ono99 import ClassicRules, Ono2022Rules
from .ena import EnaRules
from .no_mercy import NoMercyRules
from .uno import UnoRules
from .state import GameState

# Every game, in the order menus and help list them.
RULESETS: tuple[type[Ruleset], ...] = (ClassicRules, Ono2022Rules, UnoRules, NoMercyRules, EnaRules)
GAME_IDS: tuple[str, ...] = tuple(cls.game for cls in RULESETS)
_BY_ID: dict[str, type[Ruleset]] = {cls.game: cls for cls in RULESETS}


def ruleset_class(game: object) -> type[Ruleset]:
    """The class of `game` (a game id); ConfigError naming every game if there is none."""
    cls = _BY_ID.get(game) if isinstance(game, str) else None
    if cls is None:
        raise ConfigError(f"unknown game {game!r} (known: {', '.join(GAME_IDS)})")
    return cls


# Older spellings a person may still type (`demo --game ono99` named the 2022 game).
GAME_ALIASES: dict[str, str] = {"ono99": "ono99_2022"}


def canonical_game(name: object) -> str:
    """The game id for a name typed by a person (an id or an alias); ConfigError lists them."""
    game = GAME_ALIASES.get(name, name) if isinstance(name, str) else name
    try:
        return ruleset_class(game).game
    except ConfigError:
        also = "; ".join(f"{alias} = {game_id}" for alias, game_id in GAME_ALIASES.items())
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(GAME_IDS)}; also {also})") from None


def default_options(game: str) -> dict[str, Any]:
    """The options of `game` with their spec defaults."""
    return ruleset_class(game).resolve_options(None)


def make_ruleset(game: str, players: int, options: dict[str, Any] | None = None) -> Ruleset:
    cls = ruleset_class(game)
    resolved = cls.resolve_options(options)
    return cls(resolved, cls.check_players(players))


__all__ = [
    "GAME_IDS", "RULESETS", "ConfigError", "EventError", "EVENT_TYPES", "GameState", "Ruleset",
    "canonical_game", "default_options", "make_ruleset", "ruleset_class", "validate_event",
]
