"""Everything before the journal (issue 25, findings 3, 8 and 10): every setting is checked
before a journal exists, a failed start leaves none, the journal keeps where the game was
watched so a plain --resume works, a second process is kept off a journal, Ctrl-C says how to
go on, and a plain --resume never picks an empty game."""
from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from test_demo_and_cli import TABLEREF, tableref

CLIP = "synth:seed=2,cards=4,deck=ono99,size=800x600"   # four cards land, all legal
GAME = ["--game", "ono99_2022", "--players", "3"]


def home(tmp_path: pathlib.Path) -> dict[str, str]:
    return {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}


def one_error(res: subprocess.CompletedProcess, message: str) -> None:
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert res.stderr.count("\n") == 1 and message in res.stderr and "Traceback" not in res.stderr, res.stderr


@pytest.mark.parametrize("args, message", [
    (["--deck", "no_such_deck"], "unknown deck 'no_such_deck'"),
    (["--min-confidence", "2"], "--min-confidence 2: a confidence is between 0 and 1"),
    (["--min-confidence", "-0.5"], "between 0 and 1"),
    (["--names", "Ana", "Bo"], "2 names given for 3 players"),
    (["--region", "5000,5000,100,100"], "region"),
])
def test_a_bad_setting_is_refused_and_leaves_no_journal(tmp_path: pathlib.Path, args: list[str], message: str) -> None:
    journal = tmp_path / "j.jsonl"
    res = tableref("run", *GAME, "--source", CLIP, "--port", "sim://", "--journal", str(journal), *args,
                   env=home(tmp_path))
    one_error(res, message)
    assert not journal.exists() and not list(tmp_path.glob("j.jsonl*"))  # no journal, no lock file left


def test_a_journal_path_through_a_file_is_one_clear_error(tmp_path: pathlib.Path) -> None:
    (tmp_path / "afile").write_text("not a folder")
    res = tableref("run", *GAME, "--source", CLIP, "--port", "sim://", "--journal", str(tmp_path / "afile" / "j.jsonl"))
    one_error(res, f"{tmp_path / 'afile'} is a file, not a folder")


def test_the_journal_keeps_source_and_port_so_a_plain_resume_works(tmp_path: pathlib.Path) -> None:
    env = home(tmp_path)
    first = tableref("run", *GAME, "--source", CLIP, "--port", "sim://", env=env)
    assert first.returncode == 0, first.stderr
    games = tmp_path / "data" / "tableref" / "games"
    (journal,) = games.glob("*.jsonl")
    header = json.loads(journal.read_text().splitlines()[0])
    assert header["table"] == {"source": CLIP, "port": "sim://"}
    # an empty game, newer than the real one (e.g. from an older version's failed start)
    empty = games / "99999999-empty.jsonl"
    empty.write_text(journal.read_text().splitlines()[0] + "\n")
    os.utime(empty, (time.time() + 60, time.time() + 60))
    again = tableref("run", "--resume", env=env, keys="x num-2\n")
    assert again.returncode == 0, again.stderr
    assert f"journal: {journal}" in again.stdout  # the real game, not the empty one
    assert json.loads(journal.read_text().splitlines()[-1])["card"] == "num-2"


def test_a_file_source_is_kept_absolute(tmp_path: pathlib.Path) -> None:
    from tableref.app import source_to_keep
    assert source_to_keep("clip.mp4") == str(pathlib.Path.cwd() / "clip.mp4")
    assert source_to_keep("0") == "0" and source_to_keep(CLIP) == CLIP


def test_a_second_process_is_kept_off_the_journal(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    assert tableref("run", *GAME, "--source", CLIP, "--port", "sim://", "--journal", str(journal)).returncode == 0
    lines = journal.read_text()
    holder = subprocess.Popen([sys.executable, "-c", "import pathlib, sys, time\n"
                               "from tableref.journal_lock import JournalLock\n"
                               f"lock = JournalLock(pathlib.Path({str(journal)!r})).acquire()\n"
                               "print('held', flush=True); time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        res = tableref("run", "--resume", "--journal", str(journal), keys="x num-2\n")
        one_error(res, f"in use by another tableref (pid {holder.pid})")
        assert journal.read_text() == lines
    finally:
        holder.kill()
        holder.wait()
    # the holder died without letting go: the OS dropped its lock, the lock file is no obstacle
    assert (tmp_path / "j.jsonl.lock").exists()
    res = tableref("run", "--resume", "--journal", str(journal), keys="x num-2\n")
    assert res.returncode == 0, res.stderr
    assert not (tmp_path / "j.jsonl.lock").exists()


def test_ctrl_c_says_how_to_resume(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    proc = subprocess.Popen([TABLEREF, "run", *GAME, "--source", CLIP, "--port", "sim://", "--journal", str(journal)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert proc.stdout is not None
    for line in proc.stdout:  # the end of the video: the loop now waits for keys
        if "end of the video" in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert f"continue with: tableref run --resume --journal {journal}" in out and "Traceback" not in err


def test_a_quit_before_anything_happened_leaves_no_journal(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    res = tableref("run", *GAME, "--source", "synth:seed=1,cards=0,deck=ono99", "--port", "sim://",
                   "--journal", str(journal), keys="q\n")
    assert res.returncode == 0, res.stderr
    assert "no journal written" in res.stdout and not journal.exists()
