"""The shapes of card outlines (4x2 quads, any pixels): whether one has a whole card's
proportions, whether one lies inside another as a part of its print (a panel across one end,
or a mark such as the numeral), and an outline nudged a little each way. Pure geometry,
shared by the single-card reader (recognise.py) and the spread reader (spread_read.py)."""
from __future__ import annotations

import cv2
import numpy as np

PANEL_SHARE = (0.2, 0.65)  # an outline inside a bigger card outline, this share of it, is a panel of its print
PANEL_OFF_CENTRE = 0.15  # ... and off the card's centre by this share of its length
PANEL_CROSS_COS = 0.35  # ... lying across the card (within ~20 degrees of its short side)
PANEL_SPAN = 0.8  # ... and reaching from one long side to the other: at least this share of the width each way
# long / short side of an outline that can be a whole card (87/56 = 1.55; not synth.script's
# CARD_ASPECT, the one a rendered card has)
CARD_ASPECT_RANGE = (1.3, 1.85)


def encloses_panel(outer: np.ndarray, inner: np.ndarray) -> bool:
    """`inner` is a panel of `outer`: a part of its print (part_of_print) that lies across the
    card at one end."""
    if not part_of_print(outer, inner):
        return False
    long_o, short_o = _side_pairs(outer)
    # a panel spans the card's width: its long side runs along the card's short side
    if abs(_cos(_side_pairs(inner)[0], long_o)) > PANEL_CROSS_COS:
        return False
    # ... from one long side to the other (a card outline cut by a bigger stray outline, such
    # as a hand-held card and the hand, lies across it but reaches only one side)
    across = _along(inner - outer.mean(axis=0), short_o)
    if across.min() > -PANEL_SPAN / 2 or across.max() < PANEL_SPAN / 2:
        return False
    # ... and sits towards one end of it, not in the middle
    return abs(float(_along(inner.mean(axis=0, keepdims=True) - outer.mean(axis=0), long_o)[0])) >= PANEL_OFF_CENTRE


def print_mark(outer: np.ndarray, inner: np.ndarray) -> bool:
    """`inner` may be a mark of `outer`'s print (its numeral, oval or an index): it lies
    inside a card-shaped `outer` and is far smaller than a panel."""
    share = _share_inside(outer, inner)
    return share is not None and share < PANEL_SHARE[0]


def part_of_print(outer: np.ndarray, inner: np.ndarray) -> bool:
    """`inner` may be a part of `outer`'s print as big as a panel (see PANEL_SHARE): it lies
    inside a card-shaped `outer` (a few px of slack) and covers a panel's share of it."""
    share = _share_inside(outer, inner)
    return share is not None and PANEL_SHARE[0] <= share <= PANEL_SHARE[1]


def _share_inside(outer: np.ndarray, inner: np.ndarray) -> float | None:
    """The share of a card-shaped `outer` that `inner`, lying inside it, covers; None where
    `outer` is no card's shape or `inner` is not inside it (print_mark, part_of_print)."""
    if not card_shaped(outer) or not _inside(outer, inner):
        return None
    area_o = cv2.contourArea(outer.astype(np.float32))
    return cv2.contourArea(inner.astype(np.float32)) / area_o if area_o > 0 else None


def _inside(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Every corner of `inner` lies inside `outer`, a few px of slack allowed."""
    o = outer.astype(np.float32).reshape(-1, 1, 2)
    slack = 0.02 * np.sqrt(cv2.contourArea(o))
    return all(cv2.pointPolygonTest(o, (float(x), float(y)), True) >= -slack for x, y in inner)


def card_shaped(quad: np.ndarray) -> bool:
    """Whether an outline has a whole card's proportions (long / short side)."""
    long, short = _side_pairs(quad)
    return CARD_ASPECT_RANGE[0] <= np.linalg.norm(long) / max(1e-6, float(np.linalg.norm(short))) <= CARD_ASPECT_RANGE[1]


def _side_pairs(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(long, short): the sums of a quad's two pairs of opposite sides, longer pair first."""
    q = quad.astype(np.float64)
    a = (q[1] - q[0]) + (q[2] - q[3])
    b = (q[3] - q[0]) + (q[2] - q[1])
    return (a, b) if np.linalg.norm(a) >= np.linalg.norm(b) else (b, a)


def _along(points: np.ndarray, side_pair: np.ndarray) -> np.ndarray:
    """Where points (relative to a quad's centre) lie along one of its `_side_pairs`, in
    units of that side's length: -0.5 and 0.5 are its two ends."""
    return points.astype(np.float64) @ side_pair / float(np.dot(side_pair, side_pair) / 2)


def _cos(u: np.ndarray, v: np.ndarray) -> float:
    return float(np.dot(u, v) / max(1e-9, np.linalg.norm(u) * np.linalg.norm(v)))


# the corner reader's views of one outline (recognise.Recogniser.corner_readings): as found,
# moved NUDGE of the card's mean side each way across and along, grown and shrunk twice as
# much. A fanned card's outline is proposed from its edges to within a few px, and the
# index's few px decide
NUDGE = 0.02
NUDGES = ((0, 0, 1.0), (1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
          (0, 0, 1 + 2 * NUDGE), (0, 0, 1 - 2 * NUDGE))


def nudged_views(quad: np.ndarray, views: int) -> list[np.ndarray]:
    """`quad` and views - 1 nudges of it (NUDGES, at most 7 views in all)."""
    q = np.asarray(quad, np.float64)
    centre = q.mean(axis=0)
    side = float(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).mean())
    return [((q - centre) * s + centre + np.array([dx, dy]) * NUDGE * side).astype(np.float32)
            for dx, dy, s in NUDGES[:max(1, views)]]


__all__ = ["CARD_ASPECT_RANGE", "card_shaped", "encloses_panel", "nudged_views", "part_of_print", "print_mark"]
