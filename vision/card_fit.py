"""Card outlines fitted to where the pile changed, for when the card finder misses the new card.

A card landing changes the pile image over (most of) its own area: the changed region's
rotated bounding rectangle gives the card's angle and roughly its place. Its size is not
trusted: shadows make it larger, and where the new card matches what lies below (its border
on another card's border, the same card on itself) the change is only part of the card. So
the rectangle is replaced by card-sized ones (known aspect, short side learnt or estimated)
in both orientations, centred on the change and snapped to each of its edges; the reader
classifies them all and keeps the surest.
"""
from __future__ import annotations

import cv2
import numpy as np

from .cardface import ASPECT
from .find_card import order_quad


def change_rect(changed: np.ndarray) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """minAreaRect ((cx, cy), (w, h), angle) of the largest changed piece, holes closed."""
    k = max(3, (min(changed.shape[:2]) // 40) | 1)
    closed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero((labels == biggest).astype(np.uint8))
    rect = cv2.minAreaRect(pts)
    if min(rect[1]) < 8:
        return None
    return rect


def short_sides(rect_size: tuple[float, float], known: float | None, hint: float | None = None) -> list[float]:
    """Card short sides worth trying: the known one, else what the changed rectangle suggests
    (its short side, or its long side over the card aspect when the short one is cut) and
    the `hint` (a size measured less surely)."""
    if known:
        return [known]
    lo, hi = sorted(rect_size)
    guesses: list[float] = []
    for g in (lo, hi / ASPECT, hint):
        if g and all(abs(g - o) >= 0.08 * o for o in guesses):
            guesses.append(g)
    return guesses


def card_like_short_side(quads: list[np.ndarray], tolerance: float = 0.1) -> float | None:
    """Median short side of the outlines with a card's aspect (whole cards in the pile: all
    cards of a deck are the same size), None if there are none."""
    sides = []
    for q in quads:
        q = np.asarray(q, np.float32).reshape(4, 2)
        short = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])) / 2
        long = (np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3])) / 2
        if short > 0 and abs(long / short / ASPECT - 1) <= tolerance:
            sides.append(float(short))
    return float(np.median(sides)) if sides else None


def fitted_quads(changed: np.ndarray, short_side: float | None, hint: float | None = None) -> list[np.ndarray]:
    """Card-sized candidate outlines (4x2, mask pixels) around the largest changed piece."""
    rect = change_rect(changed)
    if rect is None:
        return []
    (cx, cy), (rw, rh), angle = rect
    t = np.radians(angle)
    u = np.array([np.cos(t), np.sin(t)], np.float32)  # the rectangle's "w" axis
    v = np.array([-np.sin(t), np.cos(t)], np.float32)
    centre = np.array([cx, cy], np.float32)
    quads = []
    for s in short_sides((rw, rh), short_side, hint):
        for a, b in ((s * ASPECT, s), (s, s * ASPECT)):  # card extent along u, along v
            # where the change is smaller than the card, the card may sit anywhere over it:
            # try it centred and flush with either edge along each axis
            du = [0.0] + ([-(a - rw) / 2, (a - rw) / 2] if a > rw * 1.1 else [])
            dv = [0.0] + ([-(b - rh) / 2, (b - rh) / 2] if b > rh * 1.1 else [])
            for x in du:
                for y in dv:
                    c = centre + x * u + y * v
                    corners = [c + sx * a / 2 * u + sy * b / 2 * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
                    quads.append(order_quad(np.array(corners, np.float32)))
    return quads
