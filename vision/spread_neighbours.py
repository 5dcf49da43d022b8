"""Where the cards beside a found card lie in a spread hand (for `identify --all`).

The cards of a spread are alike in size and lie in rows, each over the one before it, so a
card beside a found one shows at least one long edge whole: the one away from the found card
(nothing lies beyond it) or the one over the found card. Beside each card found, the card
itself shifted along its short side (and turned by a few degrees: hands are laid loosely)
from half a card's width to a little more than one is tried; where either long side of the
shifted card runs along a straight edge, a card is proposed there. The recogniser reads each proposal and keeps what
reads surely as a card apart from those it has.

Pure geometry on a gradient image; no reading here.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

SHIFTS = np.linspace(0.5, 1.3, 33)  # offsets (card widths) of the neighbour's far edge from the card's
TURNS = np.radians([-6.0, -3.0, 0.0, 3.0, 6.0])  # the neighbour turned against the card by this much
ALONG = np.linspace(0.15, 0.85, 24)  # where on an edge it is sampled (its ends may lie under other cards)
EDGE_SHARE = 0.7  # an edge: the gradient across the line is strong on this share of it ...
STRONG = 0.5  # ... strong meaning at least this share of the card's own edges' median gradient
MIRROR_MAX = 0.45  # share of a card that may be hidden and still be mirrored in from the rest
BORDER_STEPS = 5  # SHIFTS steps (~12% of a card's width): a card's white border is ~6.5%


def edge_image(image_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The x and y gradients of the lightly blurred grey image (float32)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)
    return cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1)


def across(grads: tuple[np.ndarray, np.ndarray], a: np.ndarray, b: np.ndarray,
           along: np.ndarray = ALONG) -> np.ndarray:
    """The gradient across the segments a -> b (arrays of segments, Nx2 each) at the `along`
    points (shares of each segment): N x len(along), 0 outside the image."""
    gx, gy = grads
    h, w = gx.shape
    d = b - a
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(1e-6, np.linalg.norm(d, axis=1))[:, None]
    p = a[:, None, :] + d[:, None, :] * along[None, :, None]
    x = np.clip(np.round(p[..., 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(p[..., 1]).astype(int), 0, h - 1)
    inside = (p[..., 0] >= 0) & (p[..., 0] < w) & (p[..., 1] >= 0) & (p[..., 1] < h)
    g = np.abs(gx[y, x] * n[:, None, 0] + gy[y, x] * n[:, None, 1])
    return np.where(inside, g, 0.0)


def _turned(quad: np.ndarray, angle: float) -> np.ndarray:
    c = quad.mean(axis=0)
    cs, sn = math.cos(angle), math.sin(angle)
    return ((quad - c) @ np.array([[cs, sn], [-sn, cs]]) + c).astype(np.float32)


def neighbours(grads: tuple[np.ndarray, np.ndarray], quad: np.ndarray) -> list[np.ndarray]:
    """Outlines of the cards that may lie beside the card `quad` (TL, TR, BR, BL of the portrait
    card, image pixels) in its row: for each side and each turn, the nearest shift at which a
    long side of the shifted card runs along a straight edge."""
    q = np.asarray(quad, np.float64)
    own = across(grads, np.array([q[3], q[1]]), np.array([q[0], q[2]]))
    strong = STRONG * float(np.median(own))
    if strong <= 0:
        return []
    out = []
    for angle in TURNS:
        t = _turned(q, float(angle)).astype(np.float64)
        ut = ((t[1] - t[0]) + (t[2] - t[3])) / 2
        left, right = (t[3], t[0]), (t[1], t[2])
        for side in (-1, 1):
            shift = side * SHIFTS[:, None] * ut[None, :]
            # either long edge of the card shifted so far: the far one shows when nothing lies
            # beyond it, the near one when the neighbour lies over this card
            near, far = (np.mean(across(grads, a + shift, b + shift) >= strong, axis=1) for a, b in (left, right))
            support = np.maximum(near, far)
            edges = np.flatnonzero(support >= EDGE_SHARE)
            if len(edges):
                # the nearest edge (further ones belong to cards beyond), but the outer one
                # of the pair a white border makes: the print's edge lies just inside it
                k = int(edges[edges <= edges[0] + BORDER_STEPS].max())
                out.append((t + side * SHIFTS[k] * ut).astype(np.float32))
            # a card lying apart or touching shows both long edges: where the card's own
            # edges are faint (a white border on a pale table) its print's edges pass the
            # nearest-edge test half a card short, so the nearest shift both edges support
            # is proposed too
            both = np.flatnonzero(np.minimum(near, far) >= EDGE_SHARE)
            if len(both) and (not len(edges) or both[0] > k):
                kb = int(both[both <= both[0] + BORDER_STEPS].max())
                out.append((t + side * SHIFTS[kb] * ut).astype(np.float32))
    return out


def mirrored_in(image_bgr: np.ndarray, quad: np.ndarray, cover: np.ndarray) -> np.ndarray | None:
    """The image with the part of the card `quad` that `cover` (a uint8 mask) hides replaced by
    the card's own print half a turn round (a card's face is the same turned upside down),
    or None when nothing is hidden, or too much for the turned part to show."""
    h, w = image_bgr.shape[:2]
    pts = np.round(quad).astype(np.int32)
    # the card's bounding box alone (a spread's photo holds many cards)
    x0, y0 = np.clip(pts.min(axis=0), 0, (w, h))
    x1, y1 = np.clip(pts.max(axis=0) + 1, 0, (w, h))
    card = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(card, [pts - (x0, y0)], 255)
    hidden = (card > 0) & (cover[y0:y1, x0:x1] > 0)
    count = int(np.count_nonzero(hidden))
    if count == 0 or count > MIRROR_MAX * max(1, int(np.count_nonzero(card))):
        return None
    c = np.asarray(quad, np.float64).mean(axis=0)
    ys, xs = np.nonzero(hidden)
    ys, xs = ys + y0, xs + x0
    sx = np.clip(np.round(2 * c[0] - xs).astype(int), 0, w - 1)
    sy = np.clip(np.round(2 * c[1] - ys).astype(int), 0, h - 1)
    out = image_bgr.copy()
    out[ys, xs] = image_bgr[sy, sx]
    return out


__all__ = ["across", "edge_image", "mirrored_in", "neighbours"]
