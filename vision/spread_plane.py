"""The table's plane under a slanted camera, from the cards found on it (spread_read).

A camera that looks at the table at a slant shows the far cards smaller than the near ones and
every card squatter than a card is, so a card proposed at the others' size and a card's
proportions (spread_neighbours, spread_scan, spread_fit.snap) lies off the card it is meant
for, and reads as another. All the cards of a spread lie on one plane and are one size: the
homography that makes every card found a rectangle of a card's proportions, and all of one
size, is the table seen square-on (up to a similarity, which nothing needs). Pure: no reading here.
"""
from __future__ import annotations

import cv2
import numpy as np

from .cardface import ASPECT

STEPS = 30  # Gauss-Newton steps with damping; the fit starts at no slant and is smooth
# a slant stands only where it explains the cards' shapes this much better than none: the cards'
# outlines are a few px off: slanted spreads of seed 683 left 0.2-0.6 of it, the placed cards 0.6-0.8
BETTER = 0.85
# ... and leaves them at most this far off cards (RMS of the residuals): outlines of a card's
# print or of two cards, read surely, made plain spreads fit a slant that left 0.18 (seed 661)
FITS = 0.06
# two cards fix a slant poorly: seed 683's slanted spreads fitted 0.10-0.93 from two, where
# the truth was 0.53-0.68
FEWEST = 3
MOST_GROWTH = 1.6  # the photo seen square-on is at most this times its longer side
HORIZON = 0.4  # the least a corrected photo's corner may be scaled by the projective part


def through(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points (..., 2) through the 3x3 homography `hom`, in the same shape."""
    pts = np.asarray(pts, np.float64)
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hom).reshape(pts.shape)


def _normalising(size: tuple[int, int]) -> np.ndarray:
    """Pixels of a w x h image -> centred, divided by its longer side (where params live)."""
    w, h = size
    scale = float(max(w, h))
    return np.array([[1 / scale, 0, -w / 2 / scale], [0, 1 / scale, -h / 2 / scale], [0, 0, 1]])


def _correction(params: np.ndarray) -> np.ndarray:
    """The correction of `params` on normalised points: a projective part (p, q), then an
    affine part (shear k, stretch a)."""
    k, a, p, q = params
    return np.array([[1, k, 0], [0, a, 0], [0, 0, 1]]) @ np.array([[1, 0, 0], [0, 1, 0], [p, q, 1]])


def _depth(params: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """How much the projective part divides each normalised point by (1: not at all; near 0:
    near the table's horizon)."""
    return 1.0 + pts @ params[2:]


def _residuals(params: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """How far each corrected quad is from a rectangle of a card's proportions, the same size
    as the others: opposite sides and diagonals unequal, the long/short ratio off, the area
    off the mean (logs, so a twice-too-big card costs as a half-too-small one)."""
    q = through(_correction(params), quads)
    sides = np.linalg.norm(np.roll(q, -1, axis=1) - q, axis=2)  # (n, 4)
    diag = np.linalg.norm(q[:, 2] - q[:, 0], axis=1), np.linalg.norm(q[:, 3] - q[:, 1], axis=1)
    mean = sides.mean(axis=1)
    a, b = sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]
    ratio = np.log(np.maximum(a, b) / np.minimum(a, b) / ASPECT)
    area = np.log(np.maximum(a, 1e-9) * np.maximum(b, 1e-9))
    return np.concatenate([(sides[:, 0] - sides[:, 2]) / mean, (sides[:, 1] - sides[:, 3]) / mean,
                           (diag[0] - diag[1]) / mean, ratio, (area - area.mean()) / 2])


def fit(quads: list[np.ndarray], size: tuple[int, int]) -> tuple[np.ndarray, float, float]:
    """(params, cost before, cost after): the correction that makes `quads` (cards found in a
    w x h image, pixels) most nearly cards of one size seen square-on, and the RMS of its
    residuals before and after (0: they already are)."""
    pts = through(_normalising(size), np.asarray(quads, np.float64).reshape(-1, 4, 2))
    params = np.array([0.0, 1.0, 0.0, 0.0])
    first = float(np.sqrt(np.mean(_residuals(params, pts) ** 2)))
    damping = 1e-3
    cost = first
    for _ in range(STEPS):
        r = _residuals(params, pts)
        jac = np.empty((r.size, 4))
        for j in range(4):
            step = np.zeros(4)
            step[j] = 1e-6
            jac[:, j] = (_residuals(params + step, pts) - r) / 1e-6
        move = np.linalg.solve(jac.T @ jac + damping * np.eye(4), -jac.T @ r)
        trial = params + move
        if abs(trial[1]) < 0.2 or np.any(_depth(trial, pts) <= 0.2):
            damping *= 10  # a correction that folds the picture or squashes it flat is no table
            continue
        new = float(np.sqrt(np.mean(_residuals(trial, pts) ** 2)))
        if new < cost:
            params, cost, damping = trial, new, damping / 3
            if np.linalg.norm(move) < 1e-7:
                break
        else:
            damping *= 10
    return params, first, cost


def square_on(quads: list[np.ndarray], size: tuple[int, int], least: float
              ) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The pixel homography that shows a w x h photo's table square-on, fitted to `quads` (the
    cards found surely, whole), and the (w, h) that holds the whole photo so shown; or None:
    fewer than FEWEST cards, a fit that leaves them far off cards or hardly explains them
    better than no slant, or a slant under `least` (the projective part of the correction: the
    share by which it shrinks a card across the photo's longer side)."""
    if len(quads) < FEWEST:
        return None
    params, before, after = fit(quads, size)
    if after > min(before * BETTER, FITS) or float(np.hypot(params[2], params[3])) < least:
        return None
    w, h = size
    norm = _normalising(size)
    if np.any(_depth(params, through(norm, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))) < HORIZON):
        return None  # the photo would reach (near) the table's horizon: no slant a photo of cards has
    # back to pixels, scaled so no card comes out smaller than it was (small cards read worse;
    # the near ones would shrink), though no more than MOST_GROWTH times the photo's longer
    # side, and placed so the whole photo lands at (0, 0) onward
    m = _correction(params) @ norm
    cards = [np.asarray(q, np.float32).reshape(4, 2) for q in quads]
    grow = float(np.sqrt(max(cv2.contourArea(q) / max(cv2.contourArea(through(m, q).astype(np.float32)), 1e-12)
                             for q in cards)))
    corners = through(m, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    grow = min(grow, MOST_GROWTH * max(w, h) / float(np.ptp(corners, axis=0).max()))
    lo = corners.min(axis=0) * grow
    hom = np.array([[grow, 0, -lo[0]], [0, grow, -lo[1]], [0, 0, 1]]) @ m
    far = np.ceil(np.ptp(corners, axis=0) * grow).astype(int)
    return hom, (int(far[0]), int(far[1]))


__all__ = ["FEWEST", "fit", "square_on", "through"]
