"""`tableref simulate` (tableref.simulate.cmd): writes a record the engine can read back."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tableref.errors import UserError
from tableref.simulate import cmd, simulate_game


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cmd.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_writes_record_and_truth(tmp_path: Path) -> None:
    out, truth = tmp_path / "g.jsonl", tmp_path / "t.jsonl"
    args = parse("--game", "ena", "--players", "3", "--seed", "9", "--option", "target_score=150",
                 "--option", "scoring=winner_collects", "--out", str(out), "--truth", str(truth))
    assert cmd.run(args) == 0
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    assert header == {"tableref": 1, "game": "ena", "players": 3,
                      "options": {"target_score": 150, "scoring": "winner_collects"}}
    same = simulate_game("ena", 3, 9, {"target_score": 150, "scoring": "winner_collects"})
    assert [json.loads(x) for x in lines[1:]] == same.events
    truths = [json.loads(x) for x in truth.read_text().splitlines()]
    assert len(truths) == len(same.events) and truths[-1]["game_over"]


def test_record_is_readable_by_the_engine(tmp_path: Path) -> None:
    record = pytest.importorskip("tableref.record")
    out = tmp_path / "g.jsonl"
    assert cmd.run(parse("--game", "ono99_classic", "--players", "4", "--out", str(out))) == 0
    header, events = record.read_record(out)
    assert header.game == "ono99_classic" and header.players == 4 and len(events) > 10


@pytest.mark.parametrize("argv", [
    ("--game", "uno", "--players", "3", "--option", "no_equals_sign"),
    ("--game", "uno", "--players", "3", "--option", "no_such_option=1"),
    ("--game", "uno_no_mercy", "--players", "9"),
    ("--game", "uno", "--players", "3", "--out", "/nonexistent-dir/g.jsonl"),
])
def test_bad_input_is_one_user_error(argv: tuple[str, ...]) -> None:
    with pytest.raises(UserError):
        cmd.run(parse(*argv))
