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
FAN_TURNS = np.radians(np.arange(7.0, 50.0, 1.0))  # a fanned card turned from the one over it by this much (less: its own border)
# a fanned card's swung-out side: the median gradient across it, as a share of the card's own
# long edges' median, at least FAN_EDGE at that turn and FAN_PEAK times what it is FAN_GAP
# degrees either way (the lesser side: a white border makes two edges a few degrees apart)
FAN_EDGE = 0.2
FAN_PEAK = 3.0
FAN_GAP = 3


def edge_image(image_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The x and y gradients of the lightly blurred grey image (float32)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)
    return cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1)


def across(grads: tuple[np.ndarray, np.ndarray], a: np.ndarray, b: np.ndarray,
           along: np.ndarray = ALONG, signed: bool = False) -> np.ndarray:
    """The gradient across the segments a -> b (arrays of segments, Nx2 each) at the `along`
    points (shares of each segment): N x len(along), 0 outside the image; its size, or with
    `signed` its sign too (positive: brighter to the right of a -> b, in image coordinates)."""
    gx, gy = grads
    h, w = gx.shape
    d = b - a
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(1e-6, np.linalg.norm(d, axis=1))[:, None]
    p = a[:, None, :] + d[:, None, :] * along[None, :, None]
    x = np.clip(np.round(p[..., 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(p[..., 1]).astype(int), 0, h - 1)
    inside = (p[..., 0] >= 0) & (p[..., 0] < w) & (p[..., 1] >= 0) & (p[..., 1] < h)
    g = gx[y, x] * n[:, None, 0] + gy[y, x] * n[:, None, 1]
    return np.where(inside, g if signed else np.abs(g), 0.0)


def turned_about(quad: np.ndarray, pivot: np.ndarray, angle: float) -> np.ndarray:
    """The outline `quad` turned by `angle` (radians) about `pivot`."""
    cs, sn = math.cos(angle), math.sin(angle)
    return ((quad - pivot) @ np.array([[cs, sn], [-sn, cs]]) + pivot).astype(np.float32)


def _own_strength(grads: tuple[np.ndarray, np.ndarray], q: np.ndarray, share: float = STRONG) -> float:
    """What counts as a strong edge beside the card `q`: `share` of its own long edges' median."""
    return share * float(np.median(across(grads, np.array([q[3], q[1]]), np.array([q[0], q[2]]))))


def _nearest_edged(grads: tuple[np.ndarray, np.ndarray], steps: np.ndarray, strong: float) -> list[np.ndarray]:
    """Of `steps` (S x 4 x 2: a card moved ever further from where it was, TL, TR, BR, BL),
    the nearest where one of its long sides runs along a straight edge (the far side shows
    when nothing lies beyond it, the near one when the moved card lies over the first), but
    the outer one of the pair a white border makes: the print's edge lies just inside it."""
    support = [np.mean(across(grads, steps[:, a], steps[:, b]) >= strong, axis=1) for a, b in ((3, 0), (1, 2))]
    out = []
    edges = np.flatnonzero(np.max(support, axis=0) >= EDGE_SHARE)
    if len(edges):
        k = int(edges[edges <= edges[0] + BORDER_STEPS].max())
        out.append(steps[k].astype(np.float32))
    # a card lying apart or touching shows both long edges: where the card's own edges are
    # faint (a white border on a pale table) its print's edges pass the nearest-edge test
    # half a card short, so the nearest step both edges support is proposed too
    both = np.flatnonzero(np.min(support, axis=0) >= EDGE_SHARE)
    if len(both) and (not len(edges) or both[0] > k):
        kb = int(both[both <= both[0] + BORDER_STEPS].max())
        out.append(steps[kb].astype(np.float32))
    return out


def neighbours(grads: tuple[np.ndarray, np.ndarray], quad: np.ndarray) -> list[np.ndarray]:
    """Outlines of the cards that may lie beside the card `quad` (TL, TR, BR, BL of the portrait
    card, image pixels) in its row: for each side and each turn, the nearest shift at which a
    long side of the shifted card runs along a straight edge."""
    q = np.asarray(quad, np.float64)
    strong = _own_strength(grads, q)
    if strong <= 0:
        return []
    out = []
    for angle in TURNS:
        t = turned_about(q, q.mean(axis=0), float(angle)).astype(np.float64)
        ut = ((t[1] - t[0]) + (t[2] - t[3])) / 2
        for side in (-1, 1):
            out += _nearest_edged(grads, t[None] + side * SHIFTS[:, None, None] * ut[None, None, :], strong)
    return out


LONG_PARTNER = {0: 3, 3: 0, 1: 2, 2: 1}  # the corner at the other end of each corner's long side


def fanned(grads: tuple[np.ndarray, np.ndarray], quad: np.ndarray) -> list[np.ndarray]:
    """Outlines of the cards that may lie fanned under the card `quad`, as a hand is held:
    the card turned about each of its corners, its long side through that corner swinging
    out from under it, to each angle at which that side runs along a straight edge (the card
    under it in a fan shows that side whole; its other side lies under the card).

    Such an edge is a sharp peak in the gradient across the swung side (its median, signed)
    against the angle: turned a few degrees off, the side crosses it at a point. The edges
    between fanned cards (a white border on a white border) are far fainter than a card's
    edges on the table, so no fixed share of those can find them, while print and table
    texture rise broadly, not sharply. Every peak is proposed, not the nearest: the nearest
    is often the print inside a card's border, or a print's straight edge, and the reader
    decides (surest first)."""
    q = np.asarray(quad, np.float64)
    own = _own_strength(grads, q, 1.0)
    if own <= 0:
        return []
    centre = q.mean(axis=0)
    out = []
    for i, pivot in enumerate(q):
        j = LONG_PARTNER[i]
        for side in (-1, 1):
            a = side * FAN_TURNS
            c, s = np.cos(a), np.sin(a)
            rot = np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)  # S x 2 x 2
            steps = np.einsum("kj,sji->ski", q - pivot, rot) + pivot
            if np.linalg.norm(steps[0, j] - centre) > np.linalg.norm(q[j] - centre):  # swinging out
                # signed: an edge between two surfaces keeps one sign along its length, a
                # checked or printed table's edges alternate
                rise = np.abs(np.median(across(grads, steps[:, i], steps[:, j], signed=True), axis=1)) / own
                out += [steps[k].astype(np.float32) for k in _peaks(rise)]
    return out


def _peaks(rise: np.ndarray) -> np.ndarray:
    """Where the profile `rise` (per degree of turn) peaks sharply (FAN_EDGE, FAN_PEAK, FAN_GAP)."""
    wide = np.pad(rise, FAN_GAP, mode="edge")
    near = np.pad(rise, 1, mode="edge")
    return np.flatnonzero((rise >= near[:-2]) & (rise >= near[2:]) & (rise >= FAN_EDGE)
                          & (rise >= FAN_PEAK * np.minimum(wide[:-2 * FAN_GAP], wide[2 * FAN_GAP:])))


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


__all__ = ["across", "edge_image", "fanned", "mirrored_in", "neighbours", "turned_about"]
