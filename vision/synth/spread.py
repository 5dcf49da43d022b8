"""Photos of several cards at once, as players spread their hands under the camera at the end
of a hand: rendered faces laid in loose rows, touching or overlapping their neighbours the way
a spread hand does, or fanned about a common corner as a hand is held, with exact outlines
for scoring `identify --all`.

`spread_scene` with its defaults is the plain spread the tests were measured on (the same
seed gives the same scene); its other parameters, drawn at random by `varied_spread`, make
the scene vary as real tables do: table texture, a lamp's gradient, a tilted camera, the
card size, fans and rows touching.

Pure generation (numpy + OpenCV drawing); nothing here reads files.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from ..cardface import UNO_STYLES, is_ninety_nine, render_card
from ..classify_training import camera_effects, paste, random_table
from .camera import random_tilt
from .textures import TEXTURES, table_texture

LAYOUTS = ("rows", "touching", "fan", "scattered")
CARD_SHARES = (1 / 12, 1 / 4)  # a card's long side against the frame's long side (varied_spread)


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


def _fan(n: int, short: float, overlap: float, pivot: tuple[float, float], turn: float) -> list[np.ndarray]:
    """`n` cards held as a fan: each turned about the common bottom-left corner `pivot` a
    little further than the one under it, so the card after covers `overlap` of its width
    at its top (the index corner of each stays in sight)."""
    long_ = short * 87.0 / 56.0
    step = max(0.05, 1.0 - overlap) * short / long_
    corners = np.array([[0.0, -long_], [short, -long_], [short, 0.0], [0.0, 0.0]])
    out = []
    for i in range(n):
        a = turn + (i - (n - 1) / 2) * step
        c, s = math.cos(a), math.sin(a)
        out.append((corners @ np.array([[c, s], [-s, c]]) + pivot).astype(np.float32))
    return out


def _fans(n: int, rng: np.random.Generator, size: tuple[int, int], short: float, overlap: float) -> list[np.ndarray]:
    """Up to 7 cards a fan, the fans side by side, each turned a little its own way and made
    smaller if it would not fit its share of the frame."""
    w, h = size
    groups = [len(g) for g in np.array_split(np.arange(n), math.ceil(n / 7))]
    slot = w / len(groups)
    quads: list[np.ndarray] = []
    for g, k in enumerate(groups):
        turn = rng.normal(0, 0.15)
        fan = _fan(k, short, overlap, (0.0, 0.0), turn)
        lo, hi = np.min(fan, axis=(0, 1)), np.max(fan, axis=(0, 1))
        fit = min(1.0, 0.92 * slot / (hi[0] - lo[0]), 0.92 * h / (hi[1] - lo[1]))
        fan = [q * fit for q in fan]
        centre = np.array([slot * (g + 0.5), h / 2]) + rng.normal(0, 0.02, 2) * (1 - fit + 0.02) * (w, h)
        quads += [(q - (lo + hi) * fit / 2 + centre).astype(np.float32) for q in fan]
    return quads


def _rows(n: int, rng: np.random.Generator, size: tuple[int, int], short: float, step_share: float,
          row_share: float) -> list[np.ndarray]:
    w, h = size
    per_row = max(1, math.ceil(n / max(1, math.ceil(n / 7))))
    rows = math.ceil(n / per_row)
    long_ = short * 87.0 / 56.0
    x_step = short * step_share
    row_step = long_ * row_share
    width = x_step * (per_row - 1) + short
    top = (h - (row_step * (rows - 1) + long_)) / 2 + long_ / 2
    quads = []
    for i in range(n):
        r, k = divmod(i, per_row)
        cx = (w - width) / 2 + short / 2 + k * x_step + rng.normal(0, 0.03 * short)
        cy = top + r * row_step + rng.normal(0, 0.03 * short)
        angle = rng.normal(0, 0.08) + (math.pi if rng.random() < 0.5 else 0.0)
        quads.append(_outline(cx, cy, short, angle))
    return quads


def _scattered(n: int, rng: np.random.Generator, size: tuple[int, int], short: float, overlap: float
               ) -> list[np.ndarray]:
    """Cards dropped anywhere on the table at any angle, as a photo of a table mid-game shows
    them: each placed where it leaves every card under it at least `1 - overlap` in sight (0:
    no card touches another). A card that finds no such place in 200 tries is left out, so a
    crowded table may hold fewer than `n`."""
    w, h = size
    long_ = short * 87.0 / 56.0
    margin = math.hypot(short, long_) / 2 + 2  # the card inside the frame at any angle
    quads: list[np.ndarray] = []
    seen: list[np.ndarray] = []  # each card's pixels still in sight
    areas: list[int] = []
    for _ in range(n):
        for _try in range(200):
            quad = _outline(rng.uniform(margin, w - margin), rng.uniform(margin, h - margin), short,
                            rng.uniform(0, 2 * math.pi))
            mask = np.zeros((h, w), np.uint8)
            cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 255)
            left = [cv2.countNonZero(cv2.bitwise_and(m, cv2.bitwise_not(mask))) for m in seen]
            if all(k >= (1.0 - overlap) * a if overlap > 0 else k == a for k, a in zip(left, areas)):
                break
        else:
            continue
        quads.append(quad)
        seen = [cv2.bitwise_and(m, cv2.bitwise_not(mask)) for m in seen] + [mask]
        areas.append(cv2.countNonZero(mask))
    return quads


def _lamp(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A lamp to one side: light falling off linearly across the table, by up to half."""
    w, h = size
    t = rng.uniform(0, 2 * math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xx - w / 2) * math.cos(t) + (yy - h / 2) * math.sin(t)) / (max(w, h) / 2)
    return (1.0 + rng.uniform(0.15, 0.5) * ramp)[..., None]


def spread_scene(codes: list[str], rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
                 overlap: float = 0.0, style: str | None = None, layout: str = "rows",
                 card_share: float | None = None, table: str | None = None, lamp: bool = False,
                 tilt: bool = False, faces: Callable[[str], np.ndarray] | None = None
                 ) -> tuple[np.ndarray, list[SpreadCard]]:
    """A table photo with `codes` laid out left to right, each card placed over the one before
    it. `overlap` is how much of a card's width the next card covers (0 = cards apart, 0.4 =
    the left 60% of each card showing). `layout`: "rows" (apart when `overlap` is 0),
    "touching" (rows of cards edge to edge when `overlap` is 0), "fan" (see _fan) or
    "scattered" (any place and angle, each card covered by at most `overlap` of it; see
    _scattered: a crowded table may hold fewer cards than `codes`).
    `card_share`: the card's long side as a share of the frame's long side (smaller if the
    cards would not fit; None: as big as fits, a little smaller at random). `table`: one of
    textures.TEXTURES (None: a random procedural table); `lamp`: a light gradient across it;
    `tilt`: a camera a few degrees off vertical. `faces`: code -> BGRA face (card_faces.CardFaces
    .face, e.g. crops of real photos; None: the project's renders)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    w, h = size
    n = len(codes)
    per_row = max(1, math.ceil(n / max(1, math.ceil(n / 7))))
    rows = math.ceil(n / per_row)
    # the card size that fits the rows into the frame, a little smaller at random
    # (scattered cards need the room of cards apart in rows, or they find no place)
    apart = (overlap <= 0 and layout == "rows") or layout == "scattered"
    step_share = max(0.15, 1.0 - overlap) + (0.15 if apart else 0.0)
    fit = min(0.9 * w / (per_row * step_share + 1.0), 0.85 * h / (rows * 1.7))
    if card_share is None:
        short = fit * rng.uniform(0.8, 1.0)
    else:
        short = min(fit if layout != "fan" else 0.8 * h / 1.7, card_share * max(w, h) * 56.0 / 87.0)
    scene = random_table(rng, h, w) if table is None else table_texture(table, size, rng)
    if layout == "fan":
        quads = _fans(n, rng, size, short, overlap)
    elif layout == "scattered":
        quads = _scattered(n, rng, size, short, overlap)
    else:
        quads = _rows(n, rng, size, short, step_share, 1.08 if apart else (1.0 if overlap <= 0 else 0.95))
    codes = codes[:len(quads)]
    for code, quad in zip(codes, quads):
        if faces is not None:
            face = faces(code)
        else:
            st = style or ("ono99" if is_ninety_nine(code) else str(rng.choice(UNO_STYLES)))
            face = render_card(code, st, 200, rng)
        scene = paste(scene, face, quad)
    if lamp:
        scene = np.clip(scene.astype(np.float32) * _lamp(size, rng), 0, 255).astype(np.uint8)
    if tilt:
        m = random_tilt(size, rng)
        scene = cv2.warpPerspective(scene, m, size, borderMode=cv2.BORDER_REFLECT)
        quads = [cv2.perspectiveTransform(q.reshape(-1, 1, 2), m).reshape(4, 2).astype(np.float32) for q in quads]
    image = camera_effects(scene, rng, strength=0.7)
    cards = [SpreadCard(c, q, v) for c, q, v in zip(codes, quads, _visible_shares(quads, size))]
    return image, cards


def varied_spread(codes: list[str], rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
                  overlap: float = 0.0, layout: str = "rows",
                  faces: Callable[[str], np.ndarray] | None = None) -> tuple[np.ndarray, list[SpreadCard]]:
    """spread_scene as real tables vary: a table texture or a procedural one, a lamp to one
    side half the time, a tilted camera half the time, cards of any size in CARD_SHARES."""
    kinds = (*TEXTURES, None)
    table = kinds[int(rng.integers(len(kinds)))]
    share = float(np.exp(rng.uniform(math.log(CARD_SHARES[0]), math.log(CARD_SHARES[1]))))
    return spread_scene(codes, rng, size, overlap, layout=layout, card_share=share, table=table,
                        lamp=bool(rng.random() < 0.5), tilt=bool(rng.random() < 0.5), faces=faces)


__all__ = ["LAYOUTS", "SpreadCard", "spread_scene", "varied_spread"]
