"""A pile the frame's edge cuts through its middle is told to the user, not lost in silence:
such a card reads as no card and cannot be told from an arm resting there, so the watcher
says to aim the camera (landing.aim_notice), `watch` on stderr and `run` on its screen."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from tableref.run_loop import RunLoop
from tableref.vision.landing import aim_notice
from tableref.vision.recognise import Recogniser
from tableref.vision.sources import open_source
from tableref.vision.watcher import PileWatcher

from test_refuse_slips import controller

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))

from other_clips import OtherScene  # noqa: E402

import numpy as np  # noqa: E402


def _clip(tmp_path: pathlib.Path, pile_at: tuple[float, float]) -> pathlib.Path:
    path = tmp_path / f"pile_{pile_at[0]}_{pile_at[1]}.mp4"
    OtherScene(7, (640, 360), players=3, pile_at=pile_at, plays=6).write(path)
    return path


def _watch(path: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tableref", "watch", str(path), "--deck", "uno", "--json"],
                          capture_output=True, text=True, timeout=300)


def test_only_a_still_change_across_the_frame_s_own_edge_is_told() -> None:
    edge = np.zeros((40, 60), bool)
    edge[0, 10:30] = True  # reaches the top of the watched box
    whole = (slice(0, 40), slice(0, 60))
    told = aim_notice(whole, edge, (60, 40))
    assert told is not None and "top edge" in told and "aim the camera" in told
    edge[10:20, 0] = True
    assert "left and top edges" in (aim_notice(whole, edge, (60, 40)) or "")
    # the box's top lies inside the frame: what reaches it reaches in from the table, an arm
    assert aim_notice((slice(5, 40), slice(0, 60)), edge, (60, 40)) is None
    assert aim_notice(whole, np.zeros((40, 60), bool), (60, 40)) is None


@pytest.mark.parametrize("pile_at,told", [((0.25, 0.1), True), ((0.5, 0.5), False)])
def test_watch_tells_on_stderr_when_the_frame_cuts_the_pile(tmp_path: pathlib.Path, pile_at, told: bool) -> None:
    done = _watch(_clip(tmp_path, pile_at))
    assert done.returncode == 0, done.stderr
    assert all(json.loads(line)["event"] in ("landed", "removed") for line in done.stdout.splitlines())
    notes = [line for line in done.stderr.splitlines() if line.startswith("tableref: note:")]
    if told:
        assert notes and all("top" in n and "aim the camera" in n for n in notes), done.stderr
        # said once while it holds, even as the arm behind it comes and goes (the old watcher
        # told the top edge at frames 123 and 407); a different notice is news
        said = [n.split(": ", 3)[3] for n in notes]
        assert all(a != b for a, b in zip(said, said[1:])), done.stderr
    else:
        assert done.stdout and not notes, done.stderr  # a pile in view: its cards, and no note


def test_run_shows_the_notice_once_on_its_screen(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    loop = RunLoop(ctrl, None, PileWatcher(Recogniser("uno")))
    source = open_source(str(_clip(tmp_path, (0.25, 0.1))))
    try:
        for frame in source:
            loop.handle_frame(frame)
            if loop.watcher.notice:
                break
    finally:
        source.close()
    told = [n for n in ctrl.view.notices if "aim the camera" in n]  # type: ignore[attr-defined]
    assert told == [loop.watcher.notice]
    loop.handle_frame(frame)  # the same notice still holds: not said again
    assert [n for n in ctrl.view.notices if "aim the camera" in n] == told  # type: ignore[attr-defined]
