"""Game records, the Journal, and the scenario/replay/demo commands run as a user would
(subprocess): bad input gives one error line, a non-zero exit and no traceback."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from tableref.errors import UserError
from tableref.record import Journal, RecordHeader, read_record
from tableref.referee import Referee

from rules_paths import VECTORS

_EXE = pathlib.Path(sys.executable).parent / "tableref"
CLI = [str(_EXE)] if _EXE.exists() else [sys.executable, "-m", "tableref"]


def tableref(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=120)


HEADER = {"tableref": 1, "game": "ono99_classic", "players": 3, "options": {}}


def write(tmp_path: pathlib.Path, lines: list, name: str = "game.jsonl", raw_tail: str = "") -> pathlib.Path:
    path = tmp_path / name
    body = "".join((l if isinstance(l, str) else json.dumps(l)) + "\n" for l in lines)
    path.write_text(body + raw_tail)
    return path


# --- records ------------------------------------------------------------------------------

def test_journal_round_trip_and_resume(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "g.jsonl"
    header = RecordHeader("ono99_2022", 4, {"bust_on": "exceed"}, {"total": 10})
    with Journal.create(path, header) as journal:
        journal.append({"type": "card", "seat": 1, "card": "num-5", "t": 0.5})
    with Journal.open_append(path) as journal:
        assert journal.header == header and len(journal.events) == 1
        journal.append({"type": "card", "seat": 2, "card": "play2"})
    got_header, events = read_record(path)
    assert got_header == header
    assert [e["card"] for e in events] == ["num-5", "play2"]
    ref = Referee(header.game, header.players, header.options, header.setup)
    for e in events:
        ref.push(e)
    assert ref.state["total"] == 15 and ref.state["pending"] == {"kind": "play", "seat": 3, "count": 2}


def test_journal_refuses_to_overwrite_and_bad_events(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "g.jsonl"
    header = RecordHeader("uno", 3)
    journal = Journal.create(path, header)
    with pytest.raises(UserError):
        journal.append({"type": "card", "seat": 1, "card": "red-77"})
    journal.close()
    with pytest.raises(UserError, match="already exists"):
        Journal.create(path, header)
    assert read_record(path) == (header, [])


@pytest.mark.parametrize("lines,tail,message", [
    ([HEADER, {"type": "card", "seat": 1, "card": "num-55"}], "", ":2: unknown card code"),
    ([HEADER, {"type": "card", "seat": 1, "card": "num-5"}, {"type": "teleport", "seat": 1}], "", ":3: unknown event type"),
    ([HEADER, "{not json"], "", ":2: malformed JSON"),
    ([HEADER], '{"type": "card", "seat": 1, "ca', ":2: truncated line"),
    ([{"tableref": 1, "game": "chess", "players": 2, "options": {}}], "", ":1: unknown game"),
    ([{"tableref": 1, "game": "uno", "players": 3, "options": {"stacking": "sometimes"}}], "", ":1: bad value"),
    ([{"tableref": 1, "game": "uno", "players": 3, "options": {"nope": 1}}], "", ":1: unknown option"),
    ([{"game": "uno"}], "", ":1: not a tableref record header"),
    ([], "", "empty record"),
])
def test_read_record_errors_name_file_and_line(tmp_path: pathlib.Path, lines, tail, message) -> None:
    path = write(tmp_path, lines, raw_tail=tail)
    with pytest.raises(UserError) as info:
        read_record(path)
    assert str(path) in str(info.value) and message in str(info.value)


def test_read_record_missing_file(tmp_path: pathlib.Path) -> None:
    with pytest.raises(UserError, match="no such file"):
        read_record(tmp_path / "absent.jsonl")


# --- commands -----------------------------------------------------------------------------

def assert_one_error_line(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for needle in needles:
        assert needle in lines[0]


@pytest.mark.parametrize("lines,tail,needle", [
    ([HEADER, {"type": "card", "seat": 1, "card": "num-55"}], "", ":2: unknown card code"),
    ([HEADER, {"type": "teleport"}], "", ":2: unknown event type"),
    ([HEADER, "[1, 2"], "", ":2: malformed JSON"),
    ([HEADER], '{"type": "ca', ":2: truncated line"),
    ([{"tableref": 1, "game": "snap", "players": 2}], "", ":1: unknown game"),
    ([{"tableref": 1, "game": "uno", "players": 2, "options": {"house": True}}], "", ":1: unknown option"),
])
def test_replay_bad_record(tmp_path: pathlib.Path, lines, tail, needle) -> None:
    path = write(tmp_path, lines, raw_tail=tail)
    proc = tableref("replay", str(path))
    assert_one_error_line(proc, str(path), needle)
    assert proc.stdout == ""


def test_replay_missing_file(tmp_path: pathlib.Path) -> None:
    assert_one_error_line(tableref("replay", str(tmp_path / "nope.jsonl")), "nope.jsonl", "no such file")


def test_replay_prints_every_state(tmp_path: pathlib.Path) -> None:
    path = write(tmp_path, [HEADER, {"type": "card", "seat": 1, "card": "num-7"},
                            {"type": "card", "seat": 0, "card": "num-2"},
                            {"type": "card", "seat": 2, "card": "double_play"}])
    proc = tableref("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 3
    assert "total   7" in lines[0] and "ILLEGAL seat 0: out_of_turn" in lines[1]
    assert "seat 0 owes 2 plays" in lines[2]
    proc = tableref("replay", "--json", str(path))
    rows = [json.loads(l) for l in proc.stdout.splitlines()]
    assert [r["index"] for r in rows] == [0, 1, 2]
    assert rows[1]["illegal"] == {"seat": 0, "reason": "out_of_turn"}
    assert rows[2]["state"]["pending"] == {"kind": "play", "seat": 0, "count": 2}
    assert rows[0]["event"]["card"] == "num-7"


def test_scenario_command_counts_and_reports_differences(tmp_path: pathlib.Path) -> None:
    good = VECTORS / "v_ono99c_minus10_goes_negative.json"
    data = json.loads(good.read_text())
    data["expect"][0]["total"] = 999
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    proc = tableref("scenario", str(good), str(bad), str(broken))
    assert proc.returncode == 1
    out = proc.stdout.splitlines()
    assert out[-1] == "1 passed, 2 failed"
    assert any("total: expected 999, got -4" in line for line in out)
    assert any(str(broken) in line and "not valid JSON" in line for line in out)
    assert "Traceback" not in proc.stderr


def test_scenario_command_all_shared(shared_dir: pathlib.Path) -> None:
    files = sorted(str(p) for p in (shared_dir / "scenarios").glob("*.json"))
    proc = tableref("scenario", "-q", *files)
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.splitlines()[-1] == f"{len(files)} passed, 0 failed"


def test_scenario_missing_file(tmp_path: pathlib.Path) -> None:
    proc = tableref("scenario", str(tmp_path / "none.json"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "none.json: no such file" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "0 passed, 1 failed"
