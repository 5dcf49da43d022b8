"""Reading the card that just landed: the one place where the watcher calls the recogniser.

The watcher knows *where* the pile changed; the recogniser knows what cards look like. Of
the card outlines the recogniser finds near the change, those that cover the changed pixels
best are tried, and so are card-sized outlines fitted to the change itself (card_fit.py: the
finder often misses a card lying on other cards); the surest classification wins.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .card_fit import card_like_short_side, edge_fitted_quads, fitted_quads
from .find_card import warp_card

Box = tuple[int, int, int, int]

# a finder outline read this surely is taken as the card's true size (see card_short_side)
SURE_OF_SIZE = 0.9


@dataclass(frozen=True)
class Reading:
    card: str | None
    confidence: float
    quad: np.ndarray | None  # 4x2, frame pixels
    found: bool = False  # the quad is the card finder's own outline (not fitted to the change)


def _coverage(quad: np.ndarray, changed: np.ndarray) -> float:
    """Fraction of the quad's outline band that changed (a new card's edges all changed)."""
    outline = np.zeros(changed.shape, np.uint8)
    cv2.polylines(outline, [np.round(quad).astype(np.int32)], True, 255, max(2, changed.shape[1] // 60))
    total = cv2.countNonZero(outline)
    return cv2.countNonZero(cv2.bitwise_and(outline, changed)) / total if total else 0.0


def card_short_side(reading: Reading) -> float | None:
    """The card's short side in frame pixels, when this reading measured it (a sure read of
    the finder's own outline); None otherwise."""
    if not reading.found or reading.quad is None or reading.card is None or reading.confidence < SURE_OF_SIZE:
        return None
    q = np.asarray(reading.quad, np.float32).reshape(4, 2)
    return float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])) / 2


def read_top_card(recogniser: Any, frame_bgr: np.ndarray, box: Box, changed: np.ndarray,
                  short_side: float | None = None) -> Reading:
    """Find and classify the new top card inside `box` (frame pixels).

    `changed` is a uint8 mask of the box (255 = changed since the last accepted pile image);
    `short_side` the card's short side in frame pixels if known. Without a recogniser the
    card is unknown (None), never guessed.
    """
    if recogniser is None:
        return Reading(None, 0.0, None)
    x0, y0, x1, y1 = box
    crop = frame_bgr[y0:y1, x0:x1]
    candidates: list[tuple[np.ndarray, bool]] = []
    quads = [np.asarray(q, np.float32).reshape(4, 2) for q in recogniser.find_cards(crop)]
    if quads:
        scores = [_coverage(q, changed) for q in quads]
        # outlines come top card first; keep those whose edges changed, best covered first
        order = sorted(range(len(quads)), key=lambda i: (-round(scores[i], 1), i))
        candidates += [(quads[i], True) for i in order[:3] if scores[i] >= 0.3]
    # no sure read yet: the size of whole cards the finder saw is worth a try too
    hint = card_like_short_side(quads) if short_side is None else None
    candidates += [(q, False) for q in edge_fitted_quads(crop, changed, short_side, hint)]
    candidates += [(q, False) for q in fitted_quads(changed, short_side, hint)]
    offset = np.array([x0, y0], np.float32)
    best_reading = Reading(None, 0.0, candidates[0][0] + offset if candidates else None)
    for quad, found in candidates:
        card, confidence = recogniser.classify_card(warp_card(crop, quad))
        if card is not None and (best_reading.card is None or confidence > best_reading.confidence):
            best_reading = Reading(card, float(confidence), quad + offset, found)
    return best_reading
