"""Cards of a tight cluster that no outline parts, found by reading a grid of windows (for
`identify --all`).

In a tight cluster of small cards no table shows between one card and the next, so the
finder outlines the cluster, or a card's oval, never a card; and with no card found there is
no card size to place others by. The learned reader was trained to read a card on an outline
jittered by a tenth of its size, and a view straddling two cards, or half on the table, as no
card, so card-sized windows laid over the cluster read surely only near a card's own outline:
each card shows as a peak of the reader's sureness. The card size, when no card found gives
it, is the one at which the most windows read surely. Pure geometry round a reading function
(`Sureness`); the reading is recognise.Recogniser's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from .cardface import ASPECT
from .find_card import order_quad, overlap_share

# card stock: saturation below this (of 255), brightness above this share of the photo's brightest
PAPER_SATURATION = 70
PAPER_BRIGHT = 0.6

# a sweep for the card size reads at most ScanConfig.most_windows / SWEEP_SHARE windows at each
# size it tries (up to 15), read one end up: card-free scenes cost it up to about 1 s
SWEEP_SHARE = 12

# (how sure, which code) of each window read: Recogniser.window_sureness
Sureness = Callable[[np.ndarray], tuple[np.ndarray, list[str | None]]]


@dataclass(frozen=True)
class ScanConfig:
    sure: float = 0.95      # a window this sure of a card code is a card's peak
    stride: float = 0.2     # windows this share of the card's short side apart ...
    sweep_stride: float = 0.3  # ... and this far apart while the card size is sought
    size_step: float = 1.12  # card sizes tried, each this much bigger than the last ...
    least_short: float = 0.04  # ... from this share of the image's long side (a card's long side 1/16 of it) ...
    least_px: float = 40.0     # ... and at least this (a smaller card's index is a few pixels) ...
    most_short: float = 0.2    # ... to this share (1/3)
    apart: float = 0.5      # peaks overlapping a surer one by more than this share are the same card
    most_windows: int = 6000  # a scan reads at most this many windows (3-4 s on one core) ...
    run_middle: bool = True  # the card size is the middle of the sizes read most (false: the smallest of them)


def paper(image_bgr: np.ndarray, least_area: float) -> np.ndarray:
    """Where card stock shows, filled (uint8 mask): a card's white border is the brightest
    unsaturated part of a table photo (read_spread has taken a lamp's cast out), and the
    borders of a cluster's cards join into one shape; a shape smaller than `least_area` px
    (a glint) is left out."""
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2]
    white = (hsv[..., 1] < PAPER_SATURATION) & (v > PAPER_BRIGHT * float(np.percentile(v[::4, ::4], 99.5)))
    white = cv2.morphologyEx(white.astype(np.uint8) * 255, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros(white.shape, np.uint8)
    cv2.drawContours(out, [c for c in contours if cv2.contourArea(c) >= least_area], -1, 255, cv2.FILLED)
    return out


def unexplained(stock: np.ndarray, outlines: list[np.ndarray], cards: list[np.ndarray], grow: float) -> np.ndarray:
    """Where a card not yet found may lie (uint8 mask): on card stock (`stock`, see paper)
    inside the finder's `outlines` (a cluster's, a card's oval), each grown by `grow` px, but
    not inside the `cards` found."""
    region = np.zeros(stock.shape, np.uint8)
    hulls = [np.round(cv2.convexHull(o.astype(np.float32))).astype(np.int32) for o in outlines]
    for hull in hulls:
        cv2.fillConvexPoly(region, hull, 255)
    if grow >= 1 and hulls:
        # a convex shape grown by a disc is the shape and its outline drawn as thick (round-
        # capped) lines; a dilation with a disc that size took seconds on a phone's photo
        cv2.polylines(region, hulls, True, 255, 2 * int(round(grow)) + 1)
    region &= stock
    for q in cards:
        cv2.fillConvexPoly(region, np.round(q).astype(np.int32), 0)
    return region


def lie(grads: tuple[np.ndarray, np.ndarray], region: np.ndarray) -> float:
    """The angle (radians) along which the edges over `region` run, either way round: the
    cards of a cluster lie alike, and their edges outweigh their print's."""
    gx, gy = (g[region > 0] for g in grads)
    weight = np.hypot(gx, gy)
    turn = np.sum(weight * np.exp(4j * np.arctan2(gy, gx)))  # a quarter turn is the same lie
    return float(np.angle(turn) / 4) if abs(turn) > 0 else 0.0


def windows(region: np.ndarray, short: float, angle: float, stride: float) -> np.ndarray:
    """Card-sized windows (N x 4 x 2, ordered as order_quad orders) centred on a grid `stride`
    px apart over the non-zero pixels of `region`, the card `short` px wide with its long side
    at `angle` (radians)."""
    ys, xs = np.nonzero(region)
    if len(xs) == 0:
        return np.zeros((0, 4, 2), np.float32)
    gx = np.arange(xs.min(), xs.max() + 1, stride)
    gy = np.arange(ys.min(), ys.max() + 1, stride)
    cx, cy = np.meshgrid(gx, gy)
    h, w = region.shape
    inside = region[np.clip(np.round(cy).astype(int), 0, h - 1), np.clip(np.round(cx).astype(int), 0, w - 1)] > 0
    centres = np.stack([cx[inside], cy[inside]], axis=1)
    v = np.array([math.cos(angle), math.sin(angle)]) * short * ASPECT / 2  # half the long side
    u = np.array([-math.sin(angle), math.cos(angle)]) * short / 2          # half the short side
    corners = np.stack([centres - u - v, centres + u - v, centres + u + v, centres - u + v], axis=1)
    return np.array([order_quad(q) for q in corners], np.float32).reshape(-1, 4, 2)


def peaks(quads: np.ndarray, sure: np.ndarray, codes: list[str | None], config: ScanConfig) -> list[int]:
    """Indices of the windows that are a card's peak: at least config.sure of a code, and
    overlapping no surer peak by more than config.apart of a window, surest first."""
    taken: list[int] = []
    for i in np.argsort(-sure, kind="stable"):
        if sure[i] < config.sure:
            break
        if codes[i] is None:
            continue
        if all(overlap_share(quads[i], quads[j]) <= config.apart for j in taken):
            taken.append(int(i))
    return taken


def _both_ways(region: np.ndarray, short: float, angle: float, stride: float, most: int) -> np.ndarray:
    """windows() of a card either way round (its long side along `angle`, or across), the
    grid made coarser where there would be more than `most` (a region far bigger than a
    cluster: a pale table is all card stock)."""
    def grid(step: float) -> np.ndarray:
        return np.concatenate([windows(region, short, a, step) for a in (angle, angle + math.pi / 2)])
    quads = grid(stride)
    return grid(stride * math.sqrt(len(quads) / most)) if len(quads) > most else quads


def card_size(read: Sureness, region: np.ndarray, angle: float, config: ScanConfig = ScanConfig()) -> float | None:
    """The short side (px) at which most windows over `region` read surely as a card (either
    way round), None if none does. The reader reads a card surely in windows a little smaller
    or bigger than it (it was trained on jittered outlines), so the count holds over a run of
    sizes: the middle of the first run at the most (the run's smallest, as first taken, was
    0.80-0.90 of the true size on photo-faced fans of seeds 761, 771, 772 and 775)."""
    sizes = []
    short = max(config.least_short * max(region.shape), config.least_px)
    while short <= config.most_short * max(region.shape):
        sizes.append(short)
        short *= config.size_step
    counts = []
    for short in sizes:
        quads = _both_ways(region, short, angle, short * config.sweep_stride, config.most_windows // SWEEP_SHARE)
        if not len(quads):
            counts.append(0)
            continue
        sure, codes = read(quads)
        counts.append(len(peaks(quads, sure, codes, config)))
    most = max(counts, default=0)
    if most == 0:
        return None
    first = counts.index(most)
    last = first
    while last + 1 < len(counts) and counts[last + 1] == most:
        last += 1
    return math.sqrt(sizes[first] * sizes[last]) if config.run_middle else sizes[first]


def scan(read: Sureness, region: np.ndarray, short: float, angle: float,
         config: ScanConfig = ScanConfig()) -> list[tuple[np.ndarray, str, float]]:
    """The cards over `region` at card size `short` (px) lying along `angle` either way round:
    (quad, code, sureness) of each peak, surest first."""
    quads = _both_ways(region, short, angle, short * config.stride, config.most_windows)
    if not len(quads):
        return []
    sure, codes = read(quads)
    return [(quads[i], str(codes[i]), float(sure[i])) for i in peaks(quads, sure, codes, config)]


__all__ = ["ScanConfig", "Sureness", "paper", "unexplained", "lie", "windows", "peaks", "card_size", "scan"]
