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

from tableref.vision.find_card import order_quad, warp_card

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
    candidates = []
    quads = [np.asarray(q, np.float32).reshape(4, 2) for q in recogniser.find_cards(crop)]
    if quads:
        scores = [_coverage(q, changed) for q in quads]
        # outlines come top card first; keep those whose edges changed, best covered first
        order = sorted(range(len(quads)), key=lambda i: (-round(scores[i], 1), i))
        candidates += [quads[i] for i in order[:3] if scores[i] >= 0.3]
    own = quad_from_change(changed)
    if own is not None:
        candidates.append(own)
    best_reading = Reading(None, 0.0, candidates[0] + np.array([x0, y0], np.float32) if candidates else None)
    for quad in candidates:
        card, confidence = recogniser.classify_card(warp_card(crop, quad))
        if card is not None and (best_reading.card is None or confidence > best_reading.confidence):
            best_reading = Reading(card, float(confidence), quad + np.array([x0, y0], np.float32))
    return best_reading


def quad_from_change(changed: np.ndarray) -> np.ndarray | None:
    """The new top card's outline from where the pile changed: the smallest rectangle around
    the largest changed piece (the card finder may miss a card lying on others)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero((labels == biggest).astype(np.uint8))
    (cx, cy), (w, h), angle = cv2.minAreaRect(pts)
    if min(w, h) < 8:
        return None
    return order_quad(cv2.boxPoints(((cx, cy), (w, h), angle)))
