"""`tableref options [GAME]`: every option of a game with its default, its allowed values and
what it changes, read from the rulesets' own option tables (tableref.rules.options), so the
list cannot drift from what `run --option` accepts. Without GAME: every game in turn.

    tableref options uno
    tableref options --json ono99_2022      # one JSON object per option
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from .rules import GAME_IDS, RULESETS, Ruleset, canonical_game, ruleset_class
from .rules.options import describe_kind


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", metavar="GAME",
                        help=f"a game: {', '.join(GAME_IDS)} (default: every game)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per option: game, name, default, allowed, meaning")


def shown(value: Any) -> str:
    """A value as it is typed after --option NAME= (TOML-like: true, null, 25, winner_collects)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def option_lines(cls: type[Ruleset]) -> list[str]:
    """The text block of one game: a heading, then two lines per option."""
    low, high = cls.player_range
    lines = [f"{cls.game}: {cls.title}, {low}-{high} players, {len(cls.option_specs)} options"]
    width = max(len(name) for name in cls.option_specs)
    for name, opt in cls.option_specs.items():
        lines.append(f"  {name:<{width}}  default {shown(opt.default)}; values: {describe_kind(opt.kind)}")
        lines.append(f"  {'':<{width}}  {opt.meaning}")
    return lines


def option_records(cls: type[Ruleset]) -> list[dict[str, Any]]:
    return [{"game": cls.game, "name": name, "default": opt.default,
             "allowed": list(opt.kind) if isinstance(opt.kind, tuple) else opt.kind,
             "meaning": opt.meaning} for name, opt in cls.option_specs.items()]


def run(args: argparse.Namespace) -> int:
    classes = [ruleset_class(canonical_game(args.game))] if args.game else list(RULESETS)
    if args.json:
        for cls in classes:
            for record in option_records(cls):
                print(json.dumps(record))
        return 0
    blocks = ["\n".join(option_lines(cls)) for cls in classes]
    print("\n\n".join(blocks))
    print("\nset one with: tableref run --game GAME --option NAME=VALUE (repeatable)")
    return 0
