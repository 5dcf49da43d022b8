"""A card of a spread snapped onto its own edges (for `identify --all`).

The finder often outlines only the part of a card that shows (its neighbour covers the
rest), or a card's field inside its white border; a card proposed beside another inherits
that error. All cards of a spread are one size, so each outline is replaced by the card of
the spread's size, turned and moved a little, whose four sides run along the strongest
straight edges: the sides a neighbour covers find no edge and cost nothing, the ones that
show place the card. A coarse search, then a finer one around the best.

Pure geometry on a gradient image (spread_neighbours.edge_image); no reading here.
"""
from __future__ import annotations

import math

import numpy as np

from .cardface import ASPECT
from .find_card import order_quad, side_lengths
from .spread_neighbours import across

ALONG = np.linspace(0.1, 0.9, 20)  # where on each side the gradient is sampled
STRONG = 0.35  # an edge point: the gradient across it at least this share of the card area's 98th percentile
# (step as a share of the card's short side, steps each way) of the coarse and the fine search
COARSE = (0.04, 5)
FINE = (0.01, 3)
TURNS = np.radians([-3.0, -1.5, 0.0, 1.5, 3.0])
# the spread's size is measured on the finder's outlines, which often run along the print inside
# a card's white border (about 9% smaller than the card), and a tilted camera makes far cards smaller.
# (Preferring the bigger of fits up to 0.6 of an edge worse, as the card round its print, was tried:
# it took cards a border too big, seed 11 overlap 30% 31/33 against 32/33 without.)
SCALES = (0.96, 1.0, 1.04, 1.08, 1.12)


def spread_size(quads: list[np.ndarray]) -> tuple[float, float] | None:
    """(short, long) of the spread's cards: from the median long side (a neighbour covers a
    card across its width far more often than along it), at a card's aspect."""
    longs = [side_lengths(order_quad(q))[1] for q in quads]
    if not longs:
        return None
    long_ = float(np.median(longs))
    return long_ / ASPECT, long_


def frame(quad: np.ndarray) -> tuple[np.ndarray, float]:
    """The outline's centre and the angle of its long axis (radians)."""
    q = order_quad(quad).astype(np.float64)
    along = (q[3] - q[0]) + (q[2] - q[1])  # TL->BL: down the long side of the portrait card
    return q.mean(axis=0), math.atan2(along[1], along[0])


def cards_at(centres: np.ndarray, angles: np.ndarray, short: np.ndarray, long_: np.ndarray) -> np.ndarray:
    """Corners (N x 4 x 2, TL TR BR BL of the portrait card) of cards with these centres,
    long-axis angles and sides."""
    v = np.stack([np.cos(angles), np.sin(angles)], axis=1)  # down the long side
    u = np.stack([-v[:, 1], v[:, 0]], axis=1)               # across it
    hs, hl = (short / 2)[:, None], (long_ / 2)[:, None]
    c = centres
    return np.stack([c - hs * u - hl * v, c + hs * u - hl * v, c + hs * u + hl * v, c - hs * u + hl * v], axis=1)


def _side_support(grads: tuple[np.ndarray, np.ndarray], cards: np.ndarray, strong: float,
                  sides: tuple[int, ...] = (0, 1, 2, 3)) -> np.ndarray:
    """Per card (N x len(sides); sides 0-3: top, right, bottom, left), the share of the
    side's points where a strong edge runs along it."""
    return np.stack([np.mean(across(grads, cards[:, k], cards[:, (k + 1) % 4], ALONG) >= strong, axis=1)
                     for k in sides], axis=1)


def _strong(grads: tuple[np.ndarray, np.ndarray], quad: np.ndarray) -> float:
    """What counts as a strong edge about this card: a share of the gradient's 98th
    percentile over the card and a margin round it (the card's own edges are the strongest)."""
    gx, gy = grads
    h, w = gx.shape
    x0, y0 = np.maximum(0, np.floor(quad.min(axis=0)).astype(int))
    x1, y1 = np.minimum((w, h), np.ceil(quad.max(axis=0)).astype(int) + 1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mag = np.hypot(gx[y0:y1, x0:x1], gy[y0:y1, x0:x1])
    return STRONG * float(np.percentile(mag, 98))


def edge_fit(grads: tuple[np.ndarray, np.ndarray], quad: np.ndarray) -> float:
    """The share of a card's sides that runs along strong edges (0 to 1): how well the
    outline lies on a card (a side a neighbour covers finds none, whichever card it is)."""
    q = order_quad(np.asarray(quad, np.float32)).astype(np.float64)
    strong = _strong(grads, q)
    return float(_side_support(grads, q[None], strong)[0].mean()) if strong > 0 else 0.0


def snap(grads: tuple[np.ndarray, np.ndarray], quad: np.ndarray, size: tuple[float, float],
         scales: tuple[float, ...] = SCALES) -> np.ndarray:
    """The card of `size` (short, long) near the outline `quad` whose sides run best along
    strong edges (4x2 float32, ordered as order_quad orders), `quad` itself if none shows."""
    centre, angle = frame(np.asarray(quad, np.float32))
    short, long_ = size
    box = cards_at(centre[None], np.array([angle]), np.array([short * 1.3]), np.array([long_ * 1.3]))[0]
    strong = _strong(grads, box)
    if strong <= 0:
        return order_quad(quad)
    best = (centre, angle, 1.0)
    for step, n in (COARSE, FINE):
        c0, a0, s0 = best
        offs = np.arange(-n, n + 1) * step * short
        coarse = step == COARSE[0]
        # a long side's fit hardly depends on sliding along it, nor a short side's: the long
        # sides are scored across the du offsets alone, the short ones across dv, and the
        # grid's score is their sum; every turn and scale in one batch
        combos = [(a0 + t, sc) for t in (TURNS if coarse else TURNS / 3) for sc in (scales if coarse else (s0,))]
        k = len(offs)
        ang = np.array([a for a, _ in combos])
        v = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        u = np.stack([-v[:, 1], v[:, 0]], axis=1)
        sc = np.repeat(np.array([s for _, s in combos]), k)

        def sides_of(shift: np.ndarray, sides: tuple[int, int]) -> np.ndarray:
            """The summed support of two opposite sides of each combo's card moved by each offset along `shift`."""
            centres = (c0[None, None] + offs[None, :, None] * shift[:, None]).reshape(-1, 2)
            cards = cards_at(centres, np.repeat(ang, k), short * sc, long_ * sc)
            return _side_support(grads, cards, strong, sides).sum(axis=1).reshape(len(combos), k)
        score = sides_of(u, (1, 3))[:, :, None] + sides_of(v, (0, 2))[:, None, :]
        rows = [(a, s, u[m], v[m]) for m, (a, s) in enumerate(combos)]
        # among equal fits, the one nearest where the outline was
        du, dv = np.meshgrid(offs, offs, indexing="ij")
        score = score - 1e-3 * np.hypot(du, dv)[None] / short
        r, i, j = np.unravel_index(int(np.argmax(score)), score.shape)
        a, s, ur, vr = rows[r]
        best = (c0 + offs[i] * ur + offs[j] * vr, a, s)
    c, a, s = best
    return order_quad(cards_at(c[None], np.array([a]), np.array([short * s]), np.array([long_ * s]))[0])


__all__ = ["cards_at", "edge_fit", "frame", "snap", "spread_size"]
