"""Card outlines against the pile's change (pure geometry).

The reader (top_card.py) gives the outline of the card it read, in frame pixels; the pile
watcher's stages ask of it: is it a whole card, or part of one; does much of the change lie
well beside it (a hand still holding it); is it the outline of a card read before. Outlines
come in frame pixels and are brought to the watcher's working size (`scale`) here.
"""
from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .cardface import ASPECT
from .find_card import quad_iou


def short_long(quad: Any) -> tuple[float, float]:
    """(short, long) sides of the smallest rectangle around an outline."""
    (_, _), sides, _ = cv2.minAreaRect(np.asarray(quad, np.float32).reshape(-1, 2))
    return float(min(sides)), float(max(sides))


def at_size(quad: Any, short: float) -> np.ndarray:
    """The outline scaled about its centre to a short side of `short`."""
    q = np.asarray(quad, np.float32).reshape(-1, 2)
    centre = q.mean(axis=0)
    return centre + (q - centre) * np.float32(short / max(short_long(q)[0], 1.0))


def small_quad(quad: Any, scale: float, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """An outline in frame pixels -> working-size pixels from `origin`."""
    return np.asarray(quad, np.float32).reshape(-1, 2) * scale - np.array(origin, np.float32)


def quad_tuple(quad: np.ndarray | None) -> tuple[tuple[float, float], ...] | None:
    if quad is None:
        return None
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(-1, 2))


def same_place(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    """Whether two outlines (frame pixels) mostly overlap: the same card, read twice."""
    if a is None or b is None:
        return False
    return quad_iou(np.asarray(a, np.float32).reshape(-1, 2), np.asarray(b, np.float32).reshape(-1, 2)) >= 0.5


def fill(quad: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """A mask of `shape` inside the outline `quad` (in its pixels)."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 255)
    return mask


def whole_card(quad: np.ndarray, card_size: float, early_side: float = 0.0) -> tuple[float, float] | None:
    """(short, long) sides of the outline `quad` (working pixels) if it is a whole card's:
    most of a card of the size the pile's cards have shown (`card_size`, 0 while none has);
    before any has, well over half a card of short side `early_side` (an outline read in a
    moving hand may take in blur) or, knowing no size, a card's proportions. None for an
    outline of part of a card."""
    short, long = short_long(quad)
    if short <= 0:
        return None
    if card_size:
        whole = short * long >= 0.8 * ASPECT * card_size ** 2
    elif early_side:
        whole = short * long >= 0.6 * ASPECT * early_side ** 2
    else:
        whole = abs(long / short / ASPECT - 1) <= 0.15
    return (short, long) if whole else None


def beside_card(interior: np.ndarray, quad: np.ndarray, card_size: float, reach: float, share: float) -> bool:
    """Whether much of the change `interior` lies well away from the card outlined by `quad`
    (working pixels of `interior`): the hand that still holds it. Only a whole card's
    outline tells: an outline of one end's field or of the oval leaves the rest of the card
    beyond it. It judges the change halo and all: of a flat hand, the ratio view shows
    little more than its outline's halo. Change further than `reach` card short sides from
    the card, `share` of its area, is a hand."""
    sides = whole_card(quad, card_size)
    if sides is None:
        return False
    short, long = sides
    card = fill(quad, interior.shape[:2])
    away = cv2.distanceTransform(cv2.bitwise_not(card), cv2.DIST_L2, 3) > reach * short
    return bool(np.count_nonzero((interior > 0) & away) >= share * short * long)


FRAME_SIDES = ((slice(None), 0), (0, slice(None)), (slice(None), -1), (-1, slice(None)))  # left, top, right, bottom


def explains_cut(quad: np.ndarray, own: np.ndarray, edge: np.ndarray, cut: tuple[bool, bool, bool, bool],
                 halo: int, spill: float) -> bool:
    """Whether the outline `quad` (working pixels of the region) of a card that the frame's
    edge cuts explains the change: `edge` is the change reaching the sides of the region
    that `cut` names (left, top, right, bottom: the frame's own edges), `own` the change
    without its halo. The card's outline must itself cross each such side, what meets it
    there must lie within the card and its halo (`halo` pixels), and little of the change
    (`spill`, a share) may lie beside the card. An arm reaching across the edge to a card
    near it meets the edge beside or beyond the card, and changes well beside it."""
    inside = fill(quad, own.shape[:2])
    card = cv2.dilate(inside, np.ones((5, 5), np.uint8)) > 0  # outlines fit to a pixel or two
    if any(c and not card[side].any() for side, c in zip(FRAME_SIDES, cut)):
        return False
    border = np.zeros(edge.shape, bool)
    for side, c in zip(FRAME_SIDES, cut):
        if c:
            border[side] = True
    meets = edge & border
    reach = cv2.dilate(inside, np.ones((halo, halo), np.uint8)) > 0
    if np.count_nonzero(meets & ~reach) > spill * np.count_nonzero(meets):
        return False
    return np.count_nonzero((own > 0) & ~card) <= spill * max(1, np.count_nonzero(own))
