"""The finder's cheap parts against plain references: the histogram percentile is numpy's,
and the edge support of outlines scored all at once follows the image's edges."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.find_card import _border_score, _edge_support, _percentile, _strong_edges, order_quad


@pytest.mark.parametrize("q", [0, 12.5, 50, 55, 95, 100])
def test_percentile_is_numpys(q: float) -> None:
    rng = np.random.default_rng(int(q))
    for shape in ((7, 5), (240, 426), (1, 1)):
        img = rng.integers(0, 256, shape, dtype=np.uint8)
        assert _percentile(img, q) == pytest.approx(float(np.percentile(img, q)), abs=1e-9)


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return order_quad(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32))


def test_edge_support_follows_the_edges_for_each_outline() -> None:
    gray = np.full((200, 300), 40, np.uint8)
    cv2.rectangle(gray, (100, 50), (160, 145), 220, -1)
    strong = _strong_edges(gray)
    on = _rect(100, 50, 160, 145)
    off = _rect(20, 20, 70, 100)
    half = _rect(100, 50, 160, 190)  # three sides on edges but the bottom one
    support = _edge_support(strong, np.array([on, off, half]))
    assert support[0] == 1.0
    assert support[1] == 0.0
    assert 0.5 < support[2] < 0.95
    # an outline outside the image has too few points to judge
    assert _edge_support(strong, np.array([_rect(400, 400, 460, 490)]))[0] == 0.0


def test_border_scores_do_not_depend_on_the_batch() -> None:
    rng = np.random.default_rng(2)
    img = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    cv2.rectangle(img, (100, 40), (180, 164), (235, 235, 235), -1)
    cv2.rectangle(img, (108, 52), (172, 152), (30, 30, 200), -1)
    quads = [_rect(100, 40, 180, 164), _rect(10, 10, 60, 90)]
    both = _border_score(img, quads)
    alone = [float(_border_score(img, [q])[0]) for q in quads]
    assert both.tolist() == pytest.approx(alone, abs=1e-6)
    assert both[0] > both[1] + 0.2  # the card-like outline looks more like a card than noise
