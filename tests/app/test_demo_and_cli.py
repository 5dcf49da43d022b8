"""`tableref demo` runs to its winner for both games; `tableref run` bad input gives one clear
error line per problem, a non-zero exit and no traceback."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from tableref.game_script import DEMO_SETUP, REQUIRED, find_game

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")


def tableref(*args: str, cwd: pathlib.Path | None = None, env: dict | None = None, timeout: float = 180,
             keys: str | None = None):
    """Run the command; `keys` are typed at its prompt (else stdin is empty)."""
    return subprocess.run([TABLEREF, *args], capture_output=True, text=True, timeout=timeout,
                          input=keys, stdin=None if keys is not None else subprocess.DEVNULL,
                          cwd=cwd, env=dict(os.environ, **(env or {})))


@pytest.mark.parametrize("game", ["ono99_2022", "uno"])
def test_demo_plays_the_whole_game_to_its_winner(game: str) -> None:
    res = tableref("demo", "--game", game, "--json")
    assert res.returncode == 0, res.stderr
    lines = [json.loads(ln) for ln in res.stdout.splitlines()]
    final = lines[-1]
    setup = DEMO_SETUP[game]
    _, tg = find_game(game, setup["players"], setup["options"], REQUIRED[game], misplay_rate=setup["misplay_rate"])
    assert final["final_state"]["game_over"] and final["final_state"]["winner"] == tg.sim.truth[-1]["winner"]
    records = [ln["event"] for ln in lines if ln.get("event")]
    pressed = [r["type"] for r in records if str(r.get("src", "")).startswith("board:")]
    if game == "ono99_2022":
        assert "taken_back" in [r["type"] for r in records]
        assert pressed.count("out") >= 1
    else:
        assert "draw" in pressed and "color" in pressed
    assert final["summary"]["landed"] >= 20 and "board" in lines[-2]


def test_run_without_camera_and_board_says_what_is_missing(tmp_path: pathlib.Path) -> None:
    res = tableref("run", "--game", "uno", "--players", "3", "--source", "9", "--port", str(tmp_path / "no-board"),
                   "--journal", str(tmp_path / "j.jsonl"))
    assert res.returncode == 2
    lines = res.stderr.splitlines()
    assert len(lines) == 2 and "Traceback" not in res.stderr
    assert "camera" in lines[0] and "--source FILE" in lines[0]
    assert "board" in lines[1] and "--port sim://" in lines[1]
    assert not (tmp_path / "j.jsonl").exists()  # nothing written for a game that never started


@pytest.mark.parametrize("args, message", [
    (["--game", "uno", "--players", "3", "--option", "no_such=1"], "unknown option 'no_such'"),
    (["--game", "uno", "--players", "3", "--option", "stacking"], "expected key=value"),
    (["--game", "uno", "--players", "1"], "players"),
    (["--game", "uno", "--players", "3", "--region", "1,2,3"], "--region"),
    (["--game", "uno", "--players", "3", "--port", "ftp://x"], "unknown URL scheme"),
])
def test_run_bad_input(tmp_path: pathlib.Path, args: list[str], message: str) -> None:
    res = tableref("run", *args, "--source", "synth:seed=1,cards=1", "--journal", str(tmp_path / "j.jsonl"),
                   *([] if "--port" in args else ["--port", "sim://"]))
    assert res.returncode == 2, res.stdout
    assert res.stderr.count("\n") == 1 and message in res.stderr and "Traceback" not in res.stderr


def test_resume_of_a_corrupt_journal_names_the_line(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"tableref": 1, "game": "uno", "players": 3, "options": {}}\n'
                       '{"type": "flip", "card": "red-5"}\n{"type": "card", "seat": 1, "card": "red-55"}\n')
    res = tableref("run", "--resume", "--journal", str(journal), "--source", "synth:seed=1,cards=1", "--port", "sim://")
    assert res.returncode == 2 and res.stderr.startswith(f"tableref: error: {journal}:3:")
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr


def test_a_short_synthetic_game_runs_and_resumes(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    res = tableref("run", "--game", "ono99_2022", "--players", "3", "--source", "synth:seed=2,cards=4,deck=ono99,size=800x600",
                   "--port", "sim://", "--journal", str(journal), "--preview", env=dict(env, DISPLAY=""))
    assert res.returncode == 0, res.stderr
    assert "--preview: no window: no display" in res.stdout  # said clearly, and the game goes on
    assert "end of the video" in res.stdout or "no answer" in res.stdout
    lines = journal.read_text().splitlines()
    assert len(lines) >= 2
    again = tableref("run", "--resume", "--journal", str(journal), "--source", "synth:seed=2,cards=4,deck=ono99,size=800x600",
                     "--port", "sim://", env=env)
    assert again.returncode == 0, again.stderr
    assert journal.read_text().splitlines() == lines  # everything was already journaled: nothing twice


def test_a_resumed_game_keeps_the_players_names(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    where = ["--source", "synth:seed=2,cards=4,deck=ono99,size=800x600", "--port", "sim://", "--journal", str(journal)]
    res = tableref("run", "--game", "ono99_2022", "--players", "3", "--names", "Zed", "Yan", "Xu", *where, env=env)
    assert res.returncode == 0, res.stderr
    assert json.loads(journal.read_text().splitlines()[0])["names"] == ["Zed", "Yan", "Xu"]
    # the four cards leave seat 2 to play; typed in after the resume, its card is Xu's
    again = tableref("run", "--resume", *where, env=env, keys="x num-1\n")
    assert again.returncode == 0, again.stderr
    assert "Xu card num-1" in again.stdout, again.stdout
    renamed = tableref("run", "--resume", "--names", "Zed", "Yan", "Wu", *where, env=env, keys="x num-2\n")
    assert "Zed card num-2" in renamed.stdout, renamed.stdout   # names given again win


@pytest.mark.parametrize("names,message", [('"Zed"', "must be a list of player names"),
                                           ('["A", "B", "C", "D"]', "4 names for 3 players")])
def test_a_journal_with_bad_names_is_one_clear_error(tmp_path: pathlib.Path, names: str, message: str) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"tableref": 1, "game": "uno", "players": 3, "options": {}, "names": %s}\n' % names)
    res = tableref("run", "--resume", "--journal", str(journal), "--source", "synth:seed=1,cards=1", "--port", "sim://")
    assert res.returncode == 2 and message in res.stderr, res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
