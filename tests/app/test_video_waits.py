"""Finding 1 of issue 25: a recorded video waits while the referee waits for a person.

`tableref run` reads a video of cards landing; between them a draw is owed (after a Draw Two)
and a colour is owed (after a wild). The person at the keyboard answers only once the screen
says the video waits, as someone who looks up from the table would; read as fast as it
decodes, the video would run on and judge the next cards before the answer came."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

from app_person import due_lines, game_events
from app_tableclip import cards_clip

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")

# 3 players, dealer 0: P1 lays a Draw Two (P2 owes 2: d), P0 a red 7, P1 a wild (P1 names
# blue), then P2, P0 (a Skip) and P2 again follow the colour
CARDS = ["red-5", "red-draw2", "red-7", "wild", "blue-3", "blue-skip", "blue-1"]
GAME = [{"type": "flip", "card": "red-5"}, {"type": "card", "card": "red-draw2"}, {"type": "draw", "seat": 2},
        {"type": "card", "card": "red-7"}, {"type": "card", "card": "wild"},
        {"type": "color", "seat": 1, "color": "blue"}, {"type": "card", "card": "blue-3"},
        {"type": "card", "card": "blue-skip"}, {"type": "card", "card": "blue-1"}]


def records(journal: pathlib.Path) -> list[dict]:
    return [json.loads(ln) for ln in journal.read_text().splitlines()[1:]] if journal.exists() else []


def referee_a_clip(video: pathlib.Path, journal: pathlib.Path, resume: bool = False,
                   stop_at_first_pause: bool = False) -> list[str]:
    """`tableref run` on the clip; the person answers each pause from GAME. Returns the pause lines."""
    args = ["--resume"] if resume else ["--game", "uno", "--players", "3"]
    proc = subprocess.Popen([TABLEREF, "run", *args, "--source", str(video), "--port", "sim://", "--journal", str(journal)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            bufsize=1, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert proc.stdin is not None and proc.stdout is not None
    paused = []
    for line in proc.stdout:
        if line.startswith("! video paused, waiting for:"):
            paused.append(line)
            if stop_at_first_pause:
                proc.stdin.close()  # the person walks away: the run stops there, nothing lost
                continue
            for typed in due_lines(GAME, game_events(records(journal))) or [""]:
                proc.stdin.write(typed + "\n")  # "" (Enter): the next thing is a card, go on
            proc.stdin.flush()
        elif line.startswith("! end of the video"):
            proc.stdin.close()
    assert proc.wait(timeout=300) == 0, proc.stderr.read() if proc.stderr else ""
    return paused


def test_a_recorded_video_waits_for_the_draw_and_the_colour(tmp_path: pathlib.Path) -> None:
    video = cards_clip(tmp_path, "uno", 3, CARDS)
    journal = tmp_path / "j.jsonl"
    paused = referee_a_clip(video, journal)
    assert game_events(records(journal)) == GAME
    assert len(paused) == 2 and "a draw of 2 from P2: d" in paused[0] and "a colour for the wild from P1: r/y/g/b" in paused[1]


def test_a_run_stopped_while_the_video_waits_resumes_waiting(tmp_path: pathlib.Path) -> None:
    video = cards_clip(tmp_path, "uno", 3, CARDS)
    journal = tmp_path / "j.jsonl"
    referee_a_clip(video, journal, stop_at_first_pause=True)
    assert game_events(records(journal)) == GAME[:2]  # stopped with the draw owed, nothing judged after it
    paused = referee_a_clip(video, journal, resume=True)
    assert "a draw of 2 from P2: d" in paused[0]
    assert game_events(records(journal)) == GAME
