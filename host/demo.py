"""`tableref demo`: a complete built-in ONO 99 (2022) game, four players, refereed event by
event, printing what the table would show after each one.

For now the input is a recorded game (host/data/demo_ono99_2022.jsonl); a later step feeds
the same referee from a synthetic pile video. `render_table_line` is the reusable part.
"""
from __future__ import annotations

import argparse
import json
from importlib import resources
from typing import Any, Iterator

from .record import RecordHeader, read_record
from .referee import Referee
from .rules.describe import describe_event, describe_state

DEMO_RECORD = "demo_ono99_2022.jsonl"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true",
                        help='JSON lines: {"event": ..., "state": ...} per event')


def demo_record() -> tuple[RecordHeader, list[dict[str, Any]]]:
    with resources.as_file(resources.files("tableref") / "data" / DEMO_RECORD) as path:
        return read_record(path)


def render_table_line(state: dict[str, Any], game: str) -> str:
    """What the table shows for `state`: total or top card, turn, direction, obligations,
    illegal play, eliminations and the winner, on one short line."""
    return describe_state(state, game)


def play(header: RecordHeader, events: list[dict[str, Any]]
         ) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    ref = Referee(header.game, header.players, header.options, header.setup)
    for event in events:
        ref.push(event)
        yield event, ref.state


def run(args: argparse.Namespace) -> int:
    header, events = demo_record()
    if not args.json:
        print(f"{header.game}, {header.players} players: {len(events)} events")
    for event, state in play(header, events):
        if args.json:
            print(json.dumps({"event": event, "state": state}))
        else:
            print(f"{describe_event(event):<24} {render_table_line(state, header.game)}")
    return 0
