"""Photos of several cards at once, as players spread their hands under the camera at the end
of a hand: rendered faces laid in loose rows, touching or overlapping their neighbours the way
a spread hand does, with exact outlines for scoring `identify --all`.

Pure generation (numpy + OpenCV drawing); nothing here reads files.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..cardface import UNO_STYLES, is_ninety_nine, render_card
from ..classify_training import camera_effects, paste, random_table


@dataclass(frozen=True)
class SpreadCard:
    card: str
    quad: np.ndarray      # 4x2 float32 image pixels, TL, TR, BR, BL of the portrait card
    visible: float        # share of the card not covered by cards laid after it


def _outline(cx: float, cy: float, short: float, angle: float) -> np.ndarray:
    long_ = short * 87.0 / 56.0
    c, s = math.cos(angle), math.sin(angle)
    half = np.array([[-short / 2, -long_ / 2], [short / 2, -long_ / 2], [short / 2, long_ / 2], [-short / 2, long_ / 2]])
    return (half @ np.array([[c, s], [-s, c]]) + (cx, cy)).astype(np.float32)


def _visible_shares(quads: list[np.ndarray], size: tuple[int, int]) -> list[float]:
    """For each card, the share of it that the cards laid after it leave uncovered."""
    import cv2
    w, h = size
    out = []
    for i, q in enumerate(quads):
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(q).astype(np.int32)], 255)
        total = cv2.countNonZero(mask)
        for later in quads[i + 1:]:
            cv2.fillPoly(mask, [np.round(later).astype(np.int32)], 0)
        out.append(cv2.countNonZero(mask) / total if total else 0.0)
    return out


def spread_scene(codes: list[str], rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
                 overlap: float = 0.0, style: str | None = None) -> tuple[np.ndarray, list[SpreadCard]]:
    """A table photo with `codes` laid out in rows, left to right, each card placed over the
    one before it. `overlap` is how much of a card's width the next card covers (0 = cards
    apart or just touching, 0.4 = a fanned hand with the left 60% of each card showing)."""
    w, h = size
    n = len(codes)
    per_row = max(1, math.ceil(n / max(1, math.ceil(n / 7))))
    rows = math.ceil(n / per_row)
    # the card size that fits the rows into the frame, a little smaller at random
    step_share = max(0.15, 1.0 - overlap) + (0.0 if overlap > 0 else 0.15)
    short = min(0.9 * w / (per_row * step_share + 1.0), 0.85 * h / (rows * 1.7)) * rng.uniform(0.8, 1.0)
    long_ = short * 87.0 / 56.0
    scene = random_table(rng, h, w)
    x_step = short * step_share
    row_step = long_ * (1.08 if overlap <= 0 else 0.95)
    width = x_step * (per_row - 1) + short
    top = (h - (row_step * (rows - 1) + long_)) / 2 + long_ / 2
    quads: list[np.ndarray] = []
    for i, code in enumerate(codes):
        r, k = divmod(i, per_row)
        cx = (w - width) / 2 + short / 2 + k * x_step + rng.normal(0, 0.03 * short)
        cy = top + r * row_step + rng.normal(0, 0.03 * short)
        angle = rng.normal(0, 0.08) + (math.pi if rng.random() < 0.5 else 0.0)
        quads.append(_outline(cx, cy, short, angle))
    for code, quad in zip(codes, quads):
        st = style or ("ono99" if is_ninety_nine(code) else str(rng.choice(UNO_STYLES)))
        face = render_card(code, st, 200, rng)
        scene = paste(scene, face, quad)
    image = camera_effects(scene, rng, strength=0.7)
    cards = [SpreadCard(c, q, v) for c, q, v in zip(codes, quads, _visible_shares(quads, size))]
    return image, cards


__all__ = ["SpreadCard", "spread_scene"]
