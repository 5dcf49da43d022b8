"""`tableref report` as a command: on a `tableref run` journal with its pictures; on bad input
one clear line on stderr and exit 2, never a traceback; missing evidence pictures are named in
the report instead."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from tableref.evidence import evidence_dir, picture_name

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")
HEADER = '{"tableref": 1, "game": "uno", "players": 3, "options": {}}\n'


def report(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([TABLEREF, "report", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("content,message", [
    (None, "no such file"),
    ("", "empty record"),
    (HEADER + '{"type": "flip", "card": "red-5"}\n{"type": "card", "se', "truncated line"),
    ('{"name": "not a game", "rows": 3}\n', "not a tableref record header"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "cannot read"),
    (HEADER + '{"type": "undo"}\n', "cannot be replayed: nothing to undo"),
    (HEADER + '{"type": "card", "seat": 1, "card": "red-55"}\n', ":2:"),
])
def test_a_bad_journal_is_one_clear_line(tmp_path: pathlib.Path, content: str | bytes | None, message: str) -> None:
    journal = tmp_path / "j.jsonl"
    if isinstance(content, bytes):
        journal.write_bytes(content)
    elif content is not None:
        journal.write_text(content)
    res = report(str(journal), "--out", str(tmp_path / "r.html"))
    assert res.returncode == 2, res.stdout
    assert res.stderr.count("\n") == 1 and message in res.stderr and "Traceback" not in res.stderr, res.stderr
    assert not (tmp_path / "r.html").exists()


def test_a_directory_and_an_unwritable_output_are_one_line(tmp_path: pathlib.Path) -> None:
    res = report(str(tmp_path))
    assert res.returncode == 2 and "is a directory" in res.stderr and res.stderr.count("\n") == 1
    journal = tmp_path / "j.jsonl"
    journal.write_text(HEADER + '{"type": "flip", "card": "red-5"}\n')
    (tmp_path / "file").write_text("x")
    res = report(str(journal), "--out", str(tmp_path / "file" / "r.html"))
    assert res.returncode == 2 and "cannot write" in res.stderr and res.stderr.count("\n") == 1, res.stderr


def test_missing_pictures_are_named_in_the_report(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    # a camera game: the flip was read, the blue 7 was read and flagged (it matches nothing)
    journal.write_text(HEADER + '{"type": "flip", "card": "red-5", "t": 1.0, "frame": 15, "confidence": 1.0}\n'
                       '{"type": "card", "card": "blue-7", "t": 2.0, "frame": 30, "confidence": 1.0}\n')
    folder = evidence_dir(journal)
    folder.mkdir()
    (folder / picture_name(1, "before")).write_bytes(b"\xff\xd8 a jpeg")
    res = report(str(journal), "--out", str(tmp_path / "r.html"))
    assert res.returncode == 0, res.stderr
    assert "1 pictures missing" in res.stdout
    page = (tmp_path / "r.html").read_text()
    assert f"data-missing-picture='{picture_name(1, 'after')}'" in page
    assert f"data-picture='{picture_name(1, 'before')}'" in page
    assert "1 evidence picture missing from" in page


def test_a_journal_kept_without_pictures_says_so_once(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text(HEADER + '{"type": "flip", "card": "red-5"}\n{"type": "card", "card": "blue-7"}\n')
    res = report(str(journal), "--out", str(tmp_path / "r.html"))
    assert res.returncode == 0 and "no evidence pictures" in res.stdout, res.stderr
    page = (tmp_path / "r.html").read_text()
    assert page.count("No evidence folder") == 1 and "data-missing-picture" not in page
    assert "data-reason='no_match'" in page


def test_run_keeps_pictures_beside_its_journal_for_the_report(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "PATH": os.environ.get("PATH", "")}
    res = subprocess.run([TABLEREF, "run", "--game", "ono99_2022", "--players", "3", "--source",
                          "synth:seed=2,cards=4,deck=ono99,size=800x600", "--port", "sim://", "--journal", str(journal)],
                         capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL, env=env)
    assert res.returncode == 0, res.stderr
    records = journal.read_text().splitlines()[1:]
    assert records
    # every card has its pile picture; the camera's seat map is a table record with none
    cards = [i for i, line in enumerate(records) if json.loads(line)["type"] != "seat_map"]
    assert sorted(p.name for p in evidence_dir(journal).iterdir()) == [picture_name(i, "pile") for i in cards]
    res = report(str(journal))
    assert res.returncode == 0 and f"{len(cards)} pictures" in res.stdout, res.stderr
    assert (tmp_path / "j.html").read_text().count("data-picture=") == len(cards)
