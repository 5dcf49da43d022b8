"""`tableref watch` and `tableref synth` from the outside: real processes, real files."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import cv2
import numpy as np
import pytest

from tableref.seats import nearest_seat


def tableref(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tableref", *args], capture_output=True, text=True, timeout=300)


def _camera_free_index() -> str:
    for i in range(40, 64):
        if not pathlib.Path(f"/dev/video{i}").exists():
            return str(i)
    pytest.skip("every probed /dev/video index exists")


@pytest.mark.parametrize("setup", ["missing", "empty", "not_video", "camera"])
def test_bad_sources_give_one_error_line(tmp_path: pathlib.Path, setup: str) -> None:
    path = tmp_path / "clip.mp4"
    if setup == "empty":
        path.write_bytes(b"")
    elif setup == "not_video":
        path.write_bytes(bytes(range(256)) * 40)
    source = _camera_free_index() if setup == "camera" else str(path)
    res = tableref("watch", source, "--json")
    assert res.returncode != 0
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("tableref: error: ")
    assert source in lines[0]
    assert "Traceback" not in res.stderr
    assert res.stdout == ""


def test_bad_region_is_one_error_line(tmp_path: pathlib.Path) -> None:
    res = tableref("watch", "synth:seed=1,size=160x96,cards=1", "--region", "5000,5000,10,10")
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "outside" in res.stderr


def test_synth_then_watch_round_trip(tmp_path: pathlib.Path) -> None:
    res = tableref("synth", str(tmp_path), "--clips", "1", "--seed", "21", "--size", "480x270", "--seconds", "7",
                   "--format", "avi")
    assert res.returncode == 0, res.stderr
    info = json.loads(res.stdout.splitlines()[0])
    truth = json.loads(pathlib.Path(info["truth"]).read_text())
    assert truth["size"] == [480, 270] and truth["fps"] == 25.0
    cap = cv2.VideoCapture(info["video"])
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["frames"]
    cap.release()
    out = tableref("watch", info["video"], "--json", "--deck", "uno")
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert [e["event"] for e in events] == [e["type"] for e in truth["events"]]
    for got, want in zip(events, truth["events"]):
        seat = {"bearing", "bearing_confidence", "likely"} if got["event"] == "landed" else set()
        assert set(got) == {"event", "card", "confidence", "t", "frame"} | seat
        assert got["event"] != "landed" or got["card"] is None or got["likely"][0][0] == got["card"]
        assert got["t"] == pytest.approx(got["frame"] / 25.0, abs=1e-3)
        if seat and got["bearing"] is not None:  # the seat the reported bearing names is the one that played
            assert nearest_seat(got["bearing"], truth["seat_bearings"]) == want["seat"]
            assert 0 <= got["bearing"] < 360 and 0 <= got["bearing_confidence"] <= 1
        assert 0 <= got["frame"] - want["frame"] <= 12


def test_watch_image_sequence(tmp_path: pathlib.Path) -> None:
    from tableref.vision.synth.scene import SceneParams, SynthScene

    scene = SynthScene(SceneParams(seed=8, size=(320, 180), cards=1))
    for i in range(scene.n_frames):
        cv2.imwrite(str(tmp_path / f"{i:04d}.png"), scene.frame(i))
    out = tableref("watch", str(tmp_path / "%04d.png"), "--json")
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert [e["event"] for e in events] == [e["type"] for e in scene.ground_truth()["events"]]
    assert np.all(np.diff([e["frame"] for e in events]) > 0) if len(events) > 1 else True
