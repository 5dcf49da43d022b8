"""A deck's own inks, learned from its enrolled shots, and the recolouring that shows its cards
to the readers in the inks they know.

Both readers were made on a range of ink shades per colour (classify_colour.INK_SHADES; the
classic reader's hue edges hold the same ranges). A deck printed outside them, a lime yellow
or an orange red, reads as the neighbouring colour, and enrolled shots alone could not mend
that: the classic reader's nearest neighbours learn symbols, its colour comes from fixed hue
edges, and the learned reader knows only the shades it was trained on. So enrolment also
measures each colour's ink on the deck's shots, and every card read for that deck is
recoloured first: its hues moved, piecewise linearly round the hue circle, so that each of the
deck's inks lands on the nearest shade the readers know. A deck whose inks already lie in
those ranges is not touched at all.

Pure logic on images; no I/O.
"""
from __future__ import annotations

import cv2
import numpy as np

from .classify_colour import COLOURS, INK_SHADES, KNOWN_INKS, white_balance, white_gains

HUES = 180          # OpenCV's 8-bit hue scale
MARGIN = 2.0        # a moved ink lands this far inside its known range, not on its edge
MIN_SHARE = 0.05    # fewer saturated pixels than this: the shot shows no ink to measure


def _signed(d: float) -> float:
    """A hue difference as the shorter way round the circle, signed."""
    return (d + HUES / 2) % HUES - HUES / 2


def _mid(colour: str) -> float:
    lo, hi = INK_SHADES[colour][0]
    return ((lo + hi) / 2) % HUES


def _from_middle(hue: float, shades: tuple[float, float]) -> tuple[float, float]:
    """(`hue`'s signed distance round the circle from the middle of the range of `shades`
    (lo, hi), the range's half width)."""
    lo, hi = shades
    return _signed(hue - (lo + hi) / 2), (hi - lo) / 2


def _inside(hue: float, colour: str) -> float:
    """The hue within the readers' range for `colour` nearest to `hue` (circular)."""
    d, half = _from_middle(hue, INK_SHADES[colour][0])
    half = max(0.0, half - MARGIN)
    return float((_mid(colour) + float(np.clip(d, -half, half))) % HUES)


def ink_hue(card_bgr: np.ndarray) -> float | None:
    """The dominant hue (0..180) of a rectified card's ink after white balance, or None
    when too little of it is saturated ink (a wild, a black card, a washed-out shot)."""
    tone = ink_tone(card_bgr)
    return None if tone is None else tone[0]


def ink_tone(card_bgr: np.ndarray) -> tuple[float, float] | None:
    """(hue 0..180, value 0..255) of a rectified card's dominant ink after white balance
    (the value: the median of its pixels within a few hue steps of the peak), or None as
    for ink_hue."""
    small = cv2.resize(card_bgr, (48, 75), interpolation=cv2.INTER_AREA)
    wb = white_balance(small, white_gains(card_bgr)).astype(np.uint8)
    hsv = cv2.cvtColor(wb[3:-3, 3:-3], cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    sat = (hsv[:, 1] > 90) & (hsv[:, 2] > 35)
    if sat.mean() < MIN_SHARE:
        return None
    weights = hsv[sat, 1] * hsv[sat, 2]
    hist = np.bincount(hsv[sat, 0].astype(np.int64) % HUES, weights, HUES)
    # smoothed round the circle (red lies at both ends), then the peak
    smooth = sum(np.roll(hist, k) for k in range(-3, 4))
    hue = float(np.argmax(smooth))
    near = np.abs((np.arange(HUES) - hue + HUES / 2) % HUES - HUES / 2)[hsv[sat, 0].astype(np.int64) % HUES] <= 4
    return hue, float(np.median(hsv[sat, 2][near]))


def ink_share(tone: tuple[float, float], colour: str, spread: float = 3.0) -> float:
    """How surely an ink of `tone` (ink_tone: hue, value) is `colour` rather than another of
    the four: each colour weighs exp(-(d / spread)^2), d the ink's distance outside the inks
    the readers know for that colour (classify_colour.KNOWN_INKS; 0 inside them). An ink
    inside a colour's known inks is that colour; one midway between two colours', an orange
    between red and yellow, is either at about even odds, however clearly a reader names
    one of them."""
    return ink_shares(tone, spread)[colour]


def ink_shares(tone: tuple[float, float], spread: float = 3.0) -> dict[str, float]:
    """ink_share of each of the four colours."""
    weight = {c: float(np.exp(-(_outside(tone, c) / spread) ** 2)) for c in COLOURS}
    total = sum(weight.values())
    return {c: w / total for c, w in weight.items()}


VALUE_STEP = 4.0  # value levels above a colour's brightest shade that weigh as one hue step


def _outside(tone: tuple[float, float], colour: str) -> float:
    """How far the ink `tone` lies outside the shades of `colour`, in hue steps. Value counts
    only above the colour's brightest shade: shade and shadow darken any ink, but no light
    makes a green as bright as a yellow (a lime yellow has a green's hue, not its value)."""
    hue, value = tone
    shades, v_hi = KNOWN_INKS[colour]
    d, half = _from_middle(hue, shades)
    off_hue = max(0.0, abs(d) - half)
    return float(np.hypot(off_hue, max(0.0, value - v_hi) / VALUE_STEP))


def circular_median(hues: list[float]) -> float:
    """The hue nearest to all of `hues` on the circle (their median about their mean angle)."""
    ang = np.asarray(hues, np.float64) * (2 * np.pi / HUES)
    mean = float(np.arctan2(np.sin(ang).mean(), np.cos(ang).mean())) * HUES / (2 * np.pi)
    return float((mean + float(np.median([_signed(h - mean) for h in hues]))) % HUES)


def hue_map(inks: dict[str, float]) -> np.ndarray | None:
    """A 256-entry lookup table for OpenCV hues that moves each learned ink (colour -> hue)
    into the readers' range for that colour, or None when nothing needs moving or the inks
    are not in the colour circle's order (red, yellow, green, blue): then no single map
    keeps every other colour in place, and the cards are read as they are."""
    if not moved(inks):
        return None
    # colours not learned stay where the readers expect them
    anchors = [(inks[c], _inside(inks[c], c)) if c in inks else (_mid(c), _mid(c)) for c in COLOURS]
    src = np.unwrap(np.array([s for s, _ in anchors]) * (2 * np.pi / HUES)) * HUES / (2 * np.pi)
    dst = np.unwrap(np.array([t for _, t in anchors]) * (2 * np.pi / HUES)) * HUES / (2 * np.pi)
    if np.any(np.diff(src) <= 0) or src[-1] - src[0] >= HUES:
        return None
    # one lap, closed: the first anchor again one turn on
    src, dst = np.append(src, src[0] + HUES), np.append(dst, dst[0] + HUES)
    h = np.arange(HUES, dtype=np.float64)
    lap = src[0] + (h - src[0]) % HUES  # each hue, unwrapped to lie in [src[0], src[0] + HUES)
    lut = np.arange(256, dtype=np.uint8)
    lut[:HUES] = np.round(np.interp(lap, src, dst)).astype(np.int64) % HUES
    return lut


def moved(inks: dict[str, float]) -> list[str]:
    """The colours whose learned ink lies outside the readers' shades (hue_map moves them)."""
    return [c for c in COLOURS if c in inks and abs(_signed(_inside(inks[c], c) - inks[c])) >= 0.5]


def recolour(card_bgr: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """The card with its inks moved by `lut` (see hue_map), in the white balance it had:
    the hues are moved on the white-balanced card, which is then unbalanced again, so a
    colour cast of the light stays as the readers were trained to meet it."""
    gains = white_gains(card_bgr)
    wb = white_balance(card_bgr, gains).astype(np.uint8)
    hsv = cv2.cvtColor(wb, cv2.COLOR_BGR2HSV)
    hsv[:, :, 0] = lut[hsv[:, :, 0]]
    out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32) / gains
    return np.clip(out, 0, 255).astype(np.uint8)


__all__ = ["ink_hue", "ink_tone", "ink_share", "ink_shares", "circular_median", "hue_map", "moved", "recolour"]
