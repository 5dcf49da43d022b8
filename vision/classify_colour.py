"""Colour of a rectified card face: red / yellow / green / blue, or black (wilds, dark fields).

White balance first: the brightest near-grey pixels of the card (its border and oval) are
white paper, so scaling them to grey removes the colour cast of the light. The field colour
is then the dominant hue among the saturated pixels.
"""
from __future__ import annotations

import cv2
import numpy as np

COLOURS = ("red", "yellow", "green", "blue")
# OpenCV hue (0..180) ranges of the printed inks after white balance. Orange sits between red
# and yellow and is split at 14. Yellow inks agree across printings (22..30 on every dev
# source) but greens range from olive (38) to blue-green (85), so the yellow/green edge sits
# just above the yellows, not halfway to a typical green: at 37 olive greens read yellow.
HUE_EDGES = ((0, 14, "red"), (14, 33, "yellow"), (33, 88, "green"), (88, 140, "blue"), (140, 181, "red"))

# Each deck prints its inks a little differently (general print shades, not measured on any
# photo): hue (OpenCV's 0..180), saturation and value ranges of one deck's ink. Greens run
# from olive and lime to emerald, yellows from lemon to amber; yellow stays the brightest.
# The learned reader is trained on these shades; deck_inks moves an enrolled deck's into them.
INK_SHADES: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "red": ((-8, 6), (170, 255), (160, 245)),
    "yellow": ((18, 29), (170, 255), (215, 255)),
    "green": ((36, 76), (140, 255), (95, 185)),
    "blue": ((98, 116), (160, 255), (140, 240)),
}

# The inks the readers read right, as (hue range, brightest value) per colour: INK_SHADES, the
# greens widened to blue-green (85, as HUE_EDGES allow) and the yellows to 31, as far as the
# dev photos' inks reach (a wider range only doubts less). An ink between two of them is
# doubted (deck_inks.ink_share): an orange is neither red nor yellow, and a yellow as bright
# as paper is no green, whatever its hue.
KNOWN_INKS: dict[str, tuple[tuple[float, float], float]] = {
    "red": ((-8, 6), 245), "yellow": ((18, 31), 255), "green": ((36, 86), 190), "blue": ((97, 118), 240),
}


def channel_max_min(px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel max and min over the 3 colour channels (last axis). numpy's max(axis=-1)
    over a length-3 axis is ~20x slower than these element-wise calls."""
    b, g, r = px[..., 0], px[..., 1], px[..., 2]
    return np.maximum(np.maximum(b, g), r), np.minimum(np.minimum(b, g), r)


def paper(v: np.ndarray, mn: np.ndarray) -> np.ndarray:
    """Which pixels, given their channel max `v` and min `mn` (channel_max_min), look like
    white card paper: light and nearly grey."""
    return ((v - mn) / np.maximum(v, 1) < 0.35) & (v > 60)


def paper_share(v: np.ndarray, mn: np.ndarray) -> float:
    """Share of the pixels that look like white card paper (see paper)."""
    return float(np.mean(paper(v, mn)))


def rim_paper_share(card_bgr: np.ndarray, width: int = 2) -> float:
    """paper_share of the outermost `width` pixels of a 32x50 copy of a rectified card, where a
    card shows its white border."""
    small = cv2.resize(card_bgr, (32, 50), interpolation=cv2.INTER_AREA)
    ring = np.ones((50, 32), bool)
    ring[width:-width, width:-width] = False
    return paper_share(*channel_max_min(small[ring].astype(np.float32)))


def white_gains(card_bgr: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the card's white paper neutral and bright (from a small
    copy: the paper is large, so 32x50 pixels are plenty and it keeps this cheap)."""
    small = cv2.resize(card_bgr, (32, 50), interpolation=cv2.INTER_AREA) if card_bgr.shape[0] > 50 else card_bgr
    flat = small.reshape(-1, 3).astype(np.float32)
    mx, mn = channel_max_min(flat)
    greyish = (mx - mn) < 0.35 * np.maximum(mx, 1)
    cand = flat[greyish] if greyish.sum() > 0.03 * len(flat) else flat
    clum = cand.sum(axis=1)
    top = cand[clum >= np.percentile(clum, 80)]
    ref = np.median(top, axis=0) if len(top) else np.array([255.0, 255, 255])
    ref = np.maximum(ref, 20)
    gains = np.clip(235.0 / ref, 0.6, 4.0)
    # keep the gains' ratios bounded: a strongly coloured "white" is more likely a wrong reference
    return np.clip(gains, gains.min(), gains.min() * 1.8).astype(np.float32)


def white_balance(card_bgr: np.ndarray, gains: np.ndarray | None = None) -> np.ndarray:
    """The card scaled so its white paper is neutral and bright (float32, 0..255)."""
    g = white_gains(card_bgr) if gains is None else gains
    return np.minimum(card_bgr.astype(np.float32) * g, 255)


def colour_scores(card_bgr: np.ndarray, gains: np.ndarray | None = None) -> dict[str, float]:
    """Probabilities for red/yellow/green/blue/black of a rectified card (any size)."""
    small = cv2.resize(card_bgr, (48, 75), interpolation=cv2.INTER_AREA)
    wb = white_balance(small, white_gains(card_bgr) if gains is None else gains)
    hsv = cv2.cvtColor(wb.astype(np.uint8), cv2.COLOR_BGR2HSV)
    h, s, v = hsv[:, :, 0].ravel(), hsv[:, :, 1].ravel(), hsv[:, :, 2].ravel()
    inner = np.zeros(small.shape[:2], bool)
    inner[3:-3, 3:-3] = True
    inner = inner.ravel()
    # dark prints (olive green, navy) stay saturated; a black field is dark AND grey
    sat = inner & (s > 90) & (v > 35)
    dark = inner & (v < 60) & (s < 110)
    n = inner.sum()
    frac_sat, frac_dark = sat.sum() / n, dark.sum() / n
    votes = {c: 0.0 for c in COLOURS}
    if sat.any():
        hs = h[sat]
        weights = (s[sat] / 255.0) * (v[sat] / 255.0)
        for lo, hi, name in HUE_EDGES:
            votes[name] += float(weights[(hs >= lo) & (hs < hi)].sum())
    total = sum(votes.values()) or 1.0
    probs = {c: votes[c] / total for c in COLOURS}
    top = max(probs.values())
    # Black field: lots of dark pixels, few saturated ones, and no single dominant hue.
    black = float(np.clip((frac_dark - 0.2) / 0.25, 0, 1) * np.clip(1.2 - top, 0, 1) ** 0.5)
    if frac_sat < 0.05:
        black = max(black, float(np.clip((frac_dark - 0.1) / 0.2, 0, 1)))
    out = {c: p * (1 - black) for c, p in probs.items()}
    out["black"] = black
    out["_saturated"] = float(frac_sat)
    return out


def field_darkness(card_bgr: np.ndarray, gains: np.ndarray | None = None) -> float:
    """Share of dark grey pixels on a ring just inside the card's edge, where the field shows.
    Wilds (and the 99 deck's black card) have a black field; coloured cards, whatever their
    print, a coloured one: on the dev photos wilds give 0.36 and more, coloured cards 0.14 at
    most."""
    small = cv2.resize(card_bgr, (32, 50), interpolation=cv2.INTER_AREA)
    wb = white_balance(small, white_gains(card_bgr) if gains is None else gains)
    mx, mn = channel_max_min(wb)
    dark = (mx < 80) & ((mx - mn) < 0.45 * np.maximum(mx, 1))
    ring = np.zeros(dark.shape, bool)
    ring[3:-3, 3:-3] = True
    ring[6:-6, 6:-6] = False
    return float(dark[ring].mean())
