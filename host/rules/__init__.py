"""Rulesets of the games in spec/rules.md, found by game id.

`make_ruleset(game, players, options)` validates everything up front (ConfigError) so the
referee never meets a bad option mid-game.
"""
from __future__ import annotations

from typing import Any

from .events import EVENT_TYPES, EventError, validate_event
from .options import GAME_IDS, ConfigError, check_game, check_players, default_options, resolve_options
from .base import Ruleset
from .ono99 import ClassicRules, Ono2022Rules
from .ena import EnaRules
from .no_mercy import NoMercyRules
from .uno import UnoRules
from .state import GameState

RULESETS: dict[str, type[Ruleset]] = {
    "ono99_classic": ClassicRules,
    "ono99_2022": Ono2022Rules,
    "uno": UnoRules,
    "uno_no_mercy": NoMercyRules,
    "ena": EnaRules,
}


def make_ruleset(game: str, players: int, options: dict[str, Any] | None = None) -> Ruleset:
    check_game(game)
    resolved = resolve_options(game, options)
    return RULESETS[game](resolved, check_players(game, players))


__all__ = [
    "GAME_IDS", "ConfigError", "EventError", "EVENT_TYPES", "GameState", "Ruleset",
    "default_options", "make_ruleset", "resolve_options", "validate_event",
]
