"""EdgeFit: card-sized outlines over a change, fitted to the edges; its coarse search scores
every outline on a quarter of its samples first and only the likeliest in full."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision import card_fit
from tableref.vision.cardface import ASPECT
from tableref.vision.find_card import quad_iou


def _landed(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A crop of a speckled cloth with an older card under a new one, turned a little, and
    the change the new card made (its own place, and a cast shadow beside it)."""
    rng = np.random.default_rng(seed)
    crop = rng.integers(50, 70, (180, 240, 3)).astype(np.uint8)
    crop = cv2.GaussianBlur(crop, (5, 5), 0)

    def card(centre: tuple[float, float], short: float, angle: float) -> np.ndarray:
        box = cv2.boxPoints((centre, (short, short * ASPECT), angle))
        return box.astype(np.float32)

    older = card((100, 95), 60, 12)
    cv2.fillConvexPoly(crop, np.round(older).astype(np.int32), (200, 60, 40))
    new = card((130 + rng.uniform(-5, 5), 88 + rng.uniform(-5, 5)), 64, rng.uniform(-25, 25))
    cv2.fillConvexPoly(crop, np.round(new).astype(np.int32), (235, 235, 235))
    changed = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(changed, np.round(new + np.float32([4, 5])).astype(np.int32), 255)
    cv2.fillConvexPoly(changed, np.round(new).astype(np.int32), 255)
    return crop, changed, new


@pytest.mark.parametrize("seed", range(12))
def test_the_fitted_outline_is_the_new_card(seed: int) -> None:
    crop, changed, new = _landed(seed)
    quads = card_fit.EdgeFit(crop, changed).quads(None)
    assert quads and quad_iou(quads[0], new) > 0.8  # the older card or the shadow: under 0.5


@pytest.mark.parametrize("seed", range(16))
def test_the_quick_first_look_loses_no_outline_the_full_search_finds(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    crop, changed, new = _landed(seed)
    quick = card_fit.EdgeFit(crop, changed).quads(None)
    monkeypatch.setattr(card_fit, "COARSE_KEEP", 10 ** 9)  # every outline scored in full
    full = card_fit.EdgeFit(crop, changed).quads(None)
    assert max(quad_iou(q, new) for q in quick) >= max(quad_iou(q, new) for q in full) - 0.02
