"""A blurred card is read only where both readers read it so, else asked (vision/sharpness.py,
RecogniserConfig.least_sharpness): a defocused webcam's small card, a hand-held photo's shake."""
from __future__ import annotations

import pathlib
import sys

import cv2
import numpy as np

from tableref.vision.cardface import render_card
from tableref.vision.classify_symbol import CANON_H, CANON_W
from tableref.vision.recognise import Recogniser, RecogniserConfig
from tableref.vision.sharpness import sharpness

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))

from camera_faults import smear  # noqa: E402


def _card(code: str, seed: int = 1) -> np.ndarray:
    face = render_card(code, "classic", 200, np.random.default_rng(seed))[:, :, :3]
    return cv2.resize(face, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)


def test_sharpness_falls_with_blur_of_either_kind_and_ignores_the_print() -> None:
    cards = [_card(c) for c in ("yellow-3", "blue-draw2", "wild", "red-9")]
    sharp = [sharpness(c) for c in cards]
    assert min(sharp) > 1.2, sharp  # whatever the print: a wild's black field, a number's
    for c, s in zip(cards, sharp):
        blurred = [sharpness(cv2.GaussianBlur(c, (0, 0), sigma)) for sigma in (2, 4, 8)]
        assert s > blurred[0] > blurred[1] > blurred[2], (s, blurred)
        # a shake blurs along one direction only: the measure takes the least sharp
        assert sharpness(smear(c, (24, 0))) < 0.5 * s and sharpness(smear(c, (0, 24))) < 0.5 * s
    assert sharpness(np.full((CANON_H, CANON_W, 3), 128, np.uint8)) == 0.0
    assert abs(sharpness(cv2.rotate(cards[0], cv2.ROTATE_90_CLOCKWISE)) - sharp[0]) < 1e-6  # either way round


def _sorted_sharpness(card: np.ndarray) -> float:
    """The measure as its definition states it: percentiles of the sorted grey levels and of
    each direction's derivative (what sharpness() counts instead of sorting)."""
    def at(values: np.ndarray, share: float) -> float:
        return float(np.sort(values.ravel())[round(share * (values.size - 1))])

    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lo, hi = at(grey, 0.01), at(grey, 0.99)
    if hi - lo < 1:
        return 0.0
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    steep = [at(np.abs(d), 0.995) for d in (gx, gy, (gx + gy) / np.sqrt(2), (gx - gy) / np.sqrt(2))]
    return min(steep) / (hi - lo)


def test_sharpness_counts_the_same_figures_as_sorting_gives() -> None:
    rng = np.random.default_rng(3)
    cards = [_card(c, seed) for seed, c in enumerate(("yellow-3", "blue-draw2", "wild", "red-9"))]
    cards += [cv2.GaussianBlur(c, (0, 0), 3) for c in cards]
    cards += [smear(cards[0], (12, 5)), rng.integers(0, 256, (CANON_H, CANON_W, 3), dtype=np.uint8)]
    for card in cards:
        assert abs(sharpness(card) - _sorted_sharpness(card)) < 1e-9


def test_a_blurred_card_the_readers_read_differently_is_asked_not_read_as_another() -> None:
    # blurred by a Gaussian of 10 px at 128 px wide, a yellow 3 read as a yellow 8 at 1.00 and
    # a blue draw-two as a blue 0 at 0.61 before (one reader's sure reading): now both are asked
    codes = ("yellow-3", "blue-draw2")
    blurred = [cv2.GaussianBlur(_card(c), (0, 0), 10) for c in codes]
    unguarded = Recogniser("uno", config=RecogniserConfig(least_sharpness=0)).read_cards(blurred)
    assert any(r.card not in (None, c) for r, c in zip(unguarded, codes)), unguarded
    rec = Recogniser("uno")
    assert [r.card for r in rec.read_cards(blurred)] == [None, None]
    # a little blur is read as ever
    assert [r.card for r in rec.read_cards([cv2.GaussianBlur(_card(c), (0, 0), 2) for c in codes])] == list(codes)
