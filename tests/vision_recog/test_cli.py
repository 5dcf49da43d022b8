"""`tableref identify` / `tableref enroll` as a user runs them (subprocess)."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import cv2
import numpy as np
import pytest

from tableref.vision.classify_training import render_scene


def tableref(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tableref", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> dict[str, pathlib.Path]:
    d = tmp_path_factory.mktemp("img")
    rng = np.random.default_rng(11)
    good, _ = render_scene("green-3", rng, (640, 480), style="classic", short=180.0)
    cv2.imwrite(str(d / "good.jpg"), good)
    (d / "notes.jpg").write_text("this is not an image\n")
    data = (d / "good.jpg").read_bytes()
    (d / "truncated.jpg").write_bytes(data[: len(data) // 2])
    # a real 12000x12000 PNG (all black compresses to ~150 kB)
    cv2.imwrite(str(d / "huge.png"), np.zeros((12000, 12000), np.uint8))
    return {p.stem: p for p in d.iterdir()}


def test_identify_bad_inputs_do_not_stop_the_others(images) -> None:
    args = [str(images["good"]), str(images["good"].parent / "missing.jpg"), str(images["notes"]),
            str(images["truncated"]), str(images["huge"]), str(images["good"])]
    res = tableref("identify", "--json", *args)
    assert res.returncode != 0
    lines = [json.loads(l) for l in res.stdout.splitlines()]
    assert [l["file"] for l in lines] == [str(images["good"])] * 2
    assert all(l["card"] == "green-3" and len(l["quad"]) == 4 for l in lines)
    errs = res.stderr.strip().splitlines()
    assert len(errs) == 4, res.stderr
    assert all(e.startswith("tableref: error: ") for e in errs)
    assert "missing.jpg: no such file" in errs[0]
    assert "notes.jpg" in errs[1] and "truncated.jpg: truncated" in errs[2] and "too large" in errs[3]
    assert "Traceback" not in res.stderr


def test_identify_plain_output_and_unknown_deck(images) -> None:
    res = tableref("identify", str(images["good"]))
    assert res.returncode == 0 and res.stdout.startswith(f"{images['good']}: green-3 (confidence ")
    res = tableref("identify", "--deck", "nosuchdeck", str(images["good"]))
    assert res.returncode == 2 and "unknown deck 'nosuchdeck'" in res.stderr and "Traceback" not in res.stderr


def test_enroll_then_identify_with_the_deck(tmp_path) -> None:
    rng = np.random.default_rng(3)
    shots = tmp_path / "shots"
    shots.mkdir()
    codes = ["red-1", "red-7", "blue-skip", "wild"]
    for code in codes:
        img, _ = render_scene(code, rng, (640, 480), style="clone", short=170.0)
        cv2.imwrite(str(shots / f"{code}_1.jpg"), img)
    env = {"TABLEREF_DATA_DIR": str(tmp_path / "data")}
    res = tableref("enroll", "--deck", "kitchen", str(shots), env=env)
    assert res.returncode == 0, res.stderr
    assert "deck kitchen: 4 cards from 4 shots" in res.stdout
    assert (tmp_path / "data" / "decks" / "kitchen.npz").is_file()
    tests = tmp_path / "tests"
    tests.mkdir()
    for code in codes:
        img, _ = render_scene(code, rng, (640, 480), style="clone", short=170.0)
        cv2.imwrite(str(tests / f"{code}.png"), img)
    res = tableref("identify", "--json", "--deck", "kitchen", *sorted(str(p) for p in tests.iterdir()), env=env)
    said = {pathlib.Path(json.loads(l)["file"]).stem: json.loads(l)["card"] for l in res.stdout.splitlines()}
    assert sum(said[c] == c for c in codes) >= 3, said


def test_enroll_rejects_unlabelled_files(tmp_path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "IMG_0001.jpg"), np.zeros((100, 100, 3), np.uint8))
    res = tableref("enroll", "--deck", "x", str(shots), env={"TABLEREF_DATA_DIR": str(tmp_path)})
    assert res.returncode == 2 and "IMG_0001.jpg: file name does not start with a card code" in res.stderr
    (shots / "labels.csv").write_text("file,label\nIMG_0001.jpg,purple-9\n")
    res = tableref("enroll", "--deck", "x", str(shots), env={"TABLEREF_DATA_DIR": str(tmp_path)})
    assert res.returncode == 2 and "labels.csv:2: unknown card code 'purple-9'" in res.stderr
