"""`tableref replay RECORD [--json]`: the state after every event of a game record."""
from __future__ import annotations

import argparse
import json
from typing import Any, Iterator

from .record import TABLE_RECORD_TYPES, RecordHeader, read_record
from .referee import Referee
from .rules.describe import describe_event, describe_state
from .terminal_view import name_seats, seat_names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="game record (.jsonl)")
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per event: {"index", "event", "illegal", "state"}')


def replay(header: RecordHeader, events: list[dict[str, Any]]
           ) -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(index, event, state after it) for every event of a record."""
    ref = Referee(header.game, header.players, header.options, header.setup)
    for index, event in enumerate(events):
        if event.get("type") == "undo":  # a table record (tableref.table): takes back the last event
            ref.pop()
        elif event.get("type") not in TABLE_RECORD_TYPES:  # the other table records change no game state
            ref.push(event)
        yield index, event, ref.state


def run(args: argparse.Namespace) -> int:
    header, events = read_record(args.record)  # every bad line is reported before any output
    names = seat_names(header.players, header.names) if header.names else []  # a record without names says seat N
    for index, event, state in replay(header, events):
        if args.json:
            print(json.dumps({"index": index, "event": event, "illegal": state["illegal"],
                              "state": state}))
        else:
            line = f"{describe_event(event):<28} {describe_state(state, header.game)}"
            print(f"{index:>4}  {name_seats(line, names)}")
    return 0
