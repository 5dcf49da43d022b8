"""`tableref simulate`: play a seeded simulated game and write its record (and its truth).

    tableref simulate --game uno --players 4 --seed 7 --out game.jsonl
    tableref simulate --game ono99_2022 --players 5 --option bust_on=exceed --truth truth.jsonl

The record is a normal game record (header + observable events): `tableref replay` referees
it. The truth file holds, per event, what the simulator knows (hands, misplay verdicts).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import UserError
from . import GAMES, record_lines, simulate_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="rule option (VALUE read as JSON, else as a string); repeatable")
    parser.add_argument("--misplay-rate", type=float, default=0.05)
    parser.add_argument("--max-events", type=int, default=5000)
    parser.add_argument("--out", help="write the game record here (default: standard output)")
    parser.add_argument("--truth", help="also write the per-event truth as JSON Lines here")


def parse_options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise UserError(f"--option {item!r}: expected NAME=VALUE")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


def run(args: argparse.Namespace) -> int:
    try:
        game = simulate_game(args.game, args.players, args.seed, parse_options(args.option),
                             misplay_rate=args.misplay_rate, max_events=args.max_events)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    text = "\n".join(record_lines(game)) + "\n"
    try:
        if args.out:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        if args.truth:
            with open(args.truth, "w", encoding="utf-8") as f:
                for t in game.truth:
                    f.write(json.dumps(t, separators=(",", ":")) + "\n")
    except OSError as exc:
        raise UserError(f"cannot write {exc.filename}: {exc.strerror}") from None
    return 0
