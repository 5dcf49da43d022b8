"""Reading the card that just landed: the one place where the watcher calls the recogniser.

The watcher knows *where* the pile changed; the recogniser knows what cards look like. Of
the card outlines the recogniser finds near the change, the one that covers the changed
pixels best is the new top card; it is rectified and classified.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from tableref.vision.find_card import warp_card

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Reading:
    card: str | None
    confidence: float
    quad: np.ndarray | None  # 4x2, frame pixels


def _coverage(quad: np.ndarray, changed: np.ndarray) -> float:
    """Fraction of the quad's outline band that changed (a new card's edges all changed)."""
    outline = np.zeros(changed.shape, np.uint8)
    cv2.polylines(outline, [np.round(quad).astype(np.int32)], True, 255, max(2, changed.shape[1] // 60))
    total = cv2.countNonZero(outline)
    return cv2.countNonZero(cv2.bitwise_and(outline, changed)) / total if total else 0.0


def read_top_card(recogniser: Any, frame_bgr: np.ndarray, box: Box, changed: np.ndarray) -> Reading:
    """Find and classify the new top card inside `box` (frame pixels).

    `changed` is a uint8 mask of the box (255 = changed since the last accepted pile image).
    Without a recogniser the card is unknown (None), never guessed.
    """
    if recogniser is None:
        return Reading(None, 0.0, None)
    x0, y0, x1, y1 = box
    crop = frame_bgr[y0:y1, x0:x1]
    quads = [np.asarray(q, np.float32).reshape(4, 2) for q in recogniser.find_cards(crop)]
    if not quads:
        return Reading(None, 0.0, None)
    scores = [_coverage(q, changed) for q in quads]
    # outlines come top card first; prefer the earliest among those that cover the change well
    best = max(range(len(quads)), key=lambda i: (round(scores[i], 1), -i))
    quad = quads[best]
    card, confidence = recogniser.classify_card(warp_card(crop, quad))
    return Reading(card, float(confidence), quad + np.array([x0, y0], np.float32))
