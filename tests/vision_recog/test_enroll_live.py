"""`tableref enroll` from a live source (here a picture sequence standing in for the camera):
each distinct face is asked for once and read back at once, so a shot with no card, or of the
wrong card, is taken again before anything is learned."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import cv2
import numpy as np

from tableref.vision.cardface import all_codes
from tableref.vision.classify_training import render_scene
from tableref.vision.enrolment import check_shot
from tableref.vision.recognise import Recognition

DECK = "ono99_2022"


def test_check_shot_keeps_what_enrolment_is_for() -> None:
    assert not check_shot("num-4", Recognition(None, 0.0, None), card_found=False).keep
    assert check_shot("num-4", Recognition("num-4", 0.97, None), True).keep
    wrong = check_shot("num-4", Recognition("num-7", 0.95, None), True)
    assert not wrong.keep and "num-7" in wrong.text
    # an unfamiliar face read unsure, or not at all, is what the person is teaching
    assert check_shot("num-4", Recognition("num-7", 0.55, None), True).keep
    assert check_shot("num-4", Recognition(None, 0.3, None), True).keep


def test_live_enrolment_retakes_an_empty_and_a_wrong_shot(tmp_path: pathlib.Path) -> None:
    codes = all_codes(DECK)
    rng = np.random.default_rng(3)
    shown: list[str | None] = [codes[0], None, codes[1], codes[3]] + codes[2:]  # no card, then the wrong card
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, code in enumerate(shown):
        image, _ = render_scene(code, rng, (640, 480), short=170.0)
        cv2.imwrite(str(frames / f"{i:04d}.png"), image)
    env = {**os.environ, "TABLEREF_DATA_DIR": str(tmp_path / "data")}
    res = subprocess.run([sys.executable, "-m", "tableref", "enroll", "--deck", "kitchen", "--cards", DECK,
                          str(frames / "%04d.png")], input="\n" * len(shown), capture_output=True, text=True,
                         env=env, timeout=600)
    assert res.returncode == 0, res.stderr
    assert res.stderr.count("no card in the") == 1, res.stderr  # the picture, or the shot once outlined
    assert res.stderr.count(f"that looks like {codes[3]}") == 1, res.stderr
    assert f"deck kitchen: {len(codes)} cards from {len(codes)} shots" in res.stdout, res.stdout
    # what was learned reads the deck
    probe, _ = render_scene(codes[5], np.random.default_rng(99), (640, 480), short=170.0)
    cv2.imwrite(str(tmp_path / "probe.png"), probe)
    got = subprocess.run([sys.executable, "-m", "tableref", "identify", "--deck", "kitchen", str(tmp_path / "probe.png")],
                         capture_output=True, text=True, env=env, timeout=300)
    assert codes[5] in got.stdout, (got.stdout, got.stderr)


def test_k_keeps_a_doubted_shot_and_a_source_that_ends_keeps_what_was_learned(tmp_path: pathlib.Path) -> None:
    codes = all_codes(DECK)
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(4)
    for i, code in enumerate([codes[0], codes[2]]):  # asked for codes[1], shown codes[2]: doubted, kept with k
        cv2.imwrite(str(frames / f"{i:04d}.png"), render_scene(code, rng, (640, 480), short=170.0)[0])
    env = {**os.environ, "TABLEREF_DATA_DIR": str(tmp_path / "data")}
    res = subprocess.run([sys.executable, "-m", "tableref", "enroll", "--deck", "short", "--cards", DECK,
                          str(frames / "%04d.png")], input="\n\nk\n\n", capture_output=True, text=True,
                         env=env, timeout=600)
    assert res.returncode == 0, res.stderr
    assert f"that looks like {codes[2]}" in res.stderr and f"kept as {codes[1]}" in res.stderr, res.stderr
    assert "no more pictures" in res.stderr and "deck short: 2 cards from 2 shots" in res.stdout, res.stdout
