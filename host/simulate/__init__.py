"""Seeded full-information game simulator for every tableref game.

`simulate_game` deals real shuffled hands from real decks and plays a whole game by a simple
policy with occasional misplays. It returns the observable event stream exactly as the
referee is fed it (spec 1.5) and, per event, the simulator's truth: the state the spec says
the referee must show, plus whether that event was a misplay and why.

It is written from the spec alone, independently of the rules engine, so the two can check
each other (tests/rules/test_property.py); the demo reuses it to script a game.
"""
from __future__ import annotations

from typing import Any

from .base import EventBudgetSpent, GameSim, SimGame
from .ninety_nine import NinetyNineSim
from .options import GAMES, PLAYERS, resolve_options
from .record import record_lines, write_record

__all__ = ["GAMES", "PLAYERS", "SimGame", "simulate_game", "make_simulator", "write_record",
           "record_lines", "EventBudgetSpent"]


def make_simulator(game: str, players: int, seed: int, options: dict[str, Any] | None = None,
                   misplay_rate: float = 0.05, max_events: int = 5000) -> GameSim:
    """The simulator object itself (tests inspect its hidden state)."""
    from .uno_family import UnoFamilySim

    resolved = resolve_options(game, options)
    low, high = PLAYERS[game]
    if not low <= players <= high:
        raise ValueError(f"{game}: the simulator plays {low}-{high} players, not {players}")
    if not 0.0 <= misplay_rate <= 1.0:
        raise ValueError(f"misplay_rate must be within 0..1, not {misplay_rate}")
    cls = NinetyNineSim if game.startswith("ono99") else UnoFamilySim
    return cls(game, players, seed, resolved, misplay_rate, max_events)


def simulate_game(game: str, players: int, seed: int, options: dict[str, Any] | None = None,
                  misplay_rate: float = 0.05, max_events: int = 5000) -> SimGame:
    """Play one seeded game; the same arguments always give the same game.

    Raises ValueError for an unknown game, a seat count or option the simulator does not
    model. A game longer than `max_events` is cut there (`SimGame.finished` is then False).
    """
    sim = make_simulator(game, players, seed, options, misplay_rate, max_events)
    header = {"tableref": 1, "game": game, "players": players, "options": dict(options or {})}
    return sim.run(header)
