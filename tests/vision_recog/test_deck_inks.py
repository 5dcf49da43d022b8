"""Enrolment teaches a deck's inks: a deck printed outside the shades the readers know (a lime
yellow, an orange red) reads as the neighbouring colour until its own shots are enrolled."""
from __future__ import annotations

import pathlib

import cv2
import numpy as np
import pytest

from tableref.vision import deck_inks
from tableref.vision.cardface import render_card
from tableref.vision.classify_colour import COLOURS, INK_SHADES, colour_scores
from tableref.vision.enrolment import build_enrolled
from tableref.vision.profiles import Profile
from tableref.vision.recognise import Recogniser
from tableref.vision.synth.odd_inks import odd_ink_shot

CODES = [f"{c}-{r}" for c in COLOURS for r in ("1", "5", "7", "skip")]


def _mid(colour: str) -> float:
    lo, hi = INK_SHADES[colour][0]
    return ((lo + hi) / 2) % 180


def _inside(hue: float, colour: str) -> bool:
    lo, hi = INK_SHADES[colour][0]
    d = (hue - _mid(colour) + 90) % 180 - 90
    return abs(d) <= (hi - lo) / 2


def test_the_inks_measured_on_renders_lie_in_the_shades_the_readers_know() -> None:
    for colour in COLOURS:
        for rank in ("0", "5", "skip", "draw2"):
            hue = deck_inks.ink_hue(render_card(f"{colour}-{rank}", "classic", 200)[:, :, :3])
            assert hue is not None and _inside(hue, colour), (colour, rank, hue)


def test_inks_the_readers_know_are_left_alone_and_others_are_moved_into_them() -> None:
    assert deck_inks.hue_map({c: _mid(c) for c in COLOURS}) is None
    assert deck_inks.hue_map({"green": 70.0, "blue": 104.0}) is None
    assert deck_inks.moved({"yellow": 40.0, "green": 60.0, "red": 179.0}) == ["yellow"]
    lut = deck_inks.hue_map({"yellow": 40.0, "red": 16.0})  # lime and orange
    assert lut is not None
    assert _inside(lut[40], "yellow") and _inside(lut[16], "red")
    for colour in ("green", "blue"):  # colours not learned stay where they were
        assert lut[round(_mid(colour))] == round(_mid(colour))
    # a deck whose "yellow" lies beyond its green is no printing a map can mend
    assert deck_inks.hue_map({"yellow": 90.0, "green": 60.0}) is None


def test_recolouring_moves_the_field_and_keeps_the_paper_white() -> None:
    lut = deck_inks.hue_map({"yellow": 38.0})
    assert lut is not None
    card = cv2.resize(render_card("yellow-5", "classic", 200)[:, :, :3], (128, 200))
    hsv = cv2.cvtColor(card, cv2.COLOR_BGR2HSV)
    hsv[:, :, 0] = (hsv[:, :, 0].astype(int) + 14) % 180
    lime = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    before, after = colour_scores(lime), colour_scores(deck_inks.recolour(lime, lut))
    assert before["green"] > before["yellow"] and after["yellow"] > 0.9
    white = (lime.min(axis=2) > 200) & (lime.max(axis=2).astype(int) - lime.min(axis=2) < 8)  # paper, not ink edges
    assert np.abs(deck_inks.recolour(lime, lut)[white].astype(int) - lime[white]).max() <= 6


@pytest.mark.parametrize("shift", [12, -14])
def test_a_deck_in_inks_the_readers_do_not_know_reads_right_once_enrolled(shift: int, tmp_path: pathlib.Path) -> None:
    rng = np.random.default_rng(abs(shift))
    enrolled = build_enrolled("odd inks", [(odd_ink_shot(c, shift, rng), c) for c in CODES])
    # the inks survive the profile's file, as `tableref enroll` writes it and `run --deck` reads it
    enrolled.save(tmp_path / "odd.npz")
    loaded = Profile.load(tmp_path / "odd.npz")
    assert set(loaded.meta["inks"]) == set(COLOURS)
    tests = [(odd_ink_shot(c, shift, rng), c) for c in CODES]
    plain, taught = Recogniser("uno"), Recogniser("uno", extra=loaded)
    missed = sum(plain.identify(img).card != c for img, c in tests)
    assert missed >= 3  # the deck the test is about: one colour reads as its neighbour
    assert [taught.identify(img).card for img, _ in tests] == [c for _, c in tests]
