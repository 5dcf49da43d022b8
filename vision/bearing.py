"""Where the hand that brought a card came from: its bearing seen from the pile.

Per frame (cheap): what moved since the previous frame, over the whole frame at half the
watcher's working size (brightness or colour changed), kept for the last few seconds.

Per landing (rare): around where the card now lies, the frames in which something moving
touched it are the delivering hand's; the last run of them (the pass of an empty hand
earlier, or the hand that left the card below, lies apart in time) is that hand coming,
laying the card and leaving. (Leaving out moving pieces that changed only in brightness, as
a passing shadow does, dropped real hands too: a grey sleeve over a grey table after a video
codec changes no colour either.) What of the moving pieces lies
beyond the card itself is hand and arm, on the side of the player. Two directions come
from them: the hand's, their mean direction from the card's centre, and the arm's, towards
where they cross the frame's edge (an arm comes in from outside the frame, so where it
crosses the edge lies on its line). The bearing is the mean of the two, or the hand's when
nothing crossed the edge; where the hand barely shows beyond the card, the arm's alone. A pile
near the frame's edge shrinks "beyond the card" to short of that edge, and the crossing is
taken from all of the hand at the edge: else only the hand's sides were left to count there,
and hands from that edge came out 35 to 55 degrees off. (Near the frame's edge the hand's
own shape, the card it carries and its turn as it leaves pull the hand's direction aside by
up to 25 degrees; the edge crossing alone strays when the hand leaves sideways; their mean strayed least on the
synthetic clips. Weighing far pixels more, or the principal axis of the moving pixels, did
worse: a limb sliding along itself changes across it, not along it.)

Bearing: degrees in the image, 0 = towards the right edge, 90 = towards the top edge,
counter-clockwise, in [0, 360). Confidence (0..1) is low whenever the bearing may be wrong,
so that the referee goes by turn order instead: the product of how well the directions of
the hand's pixels agree (the mean resultant length: low for a hand that came along the
pile's edge or two arms at once), how much of the hand was seen, how far out from the card
it was seen (a hand whose arm soon left the frame shows only its own shape), how well the
hand's and the arm's directions agree, and in how many frames it showed (a short track).
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from .motion import MotionConfig, brightness_change, chroma_change


@dataclass(frozen=True)
class BearingConfig:
    keep_frames: int = 150  # frames of motion kept (6 s at 25 fps): a landing put off waits up to 3 s
    run_gap: int = 4  # frames in which something moved without touching the card that still belong to one run
    still_gap: int = 8  # ... and frames between two that touched it
    touch_reach: float = 0.35  # the card's zone: its outline widened by this many card short sides
    skip_reach: float = 1.0  # pixels nearer the card's centre than this many short sides say nothing ...
    edge_skip: float = 0.8  # ... nor nearer than this share of its distance to the frame's nearest edge
    enough: float = 0.15  # hand seen per frame beyond the card (card short sides squared) for full confidence
    flood: float = 0.4  # a frame where more than this share moved is the light changing: ignored
    least_share: float = 0.0005  # fewer moving pixels than this share of the frame: nothing moved
    border_px: int = 2  # the frame's edge band (trail pixels) in which an arm comes into view
    least_cross: int = 3  # moving pixels in that band, joined to the hand, that show the arm crossing it
    short_reach: float = 1.0  # hand seen no farther out than this many card short sides: its shape alone, unsure ...
    long_reach: float = 1.5  # ... and this far out: enough of the arm seen
    arm_shown: float = 2.0  # hand and arm seen this far out: the hand's direction alone
    accord: float = 15.0  # degrees between the hand's and the arm's (edge) directions above which confidence falls
    least_track: int = 3  # frames showing the hand beyond the card for full confidence


@dataclass(frozen=True)
class Bearing:
    degrees: float
    confidence: float


@dataclass(frozen=True)
class _Moved:
    frame: int
    mask: np.ndarray  # uint8, 255 = moved since the previous frame (trail pixels)


class BearingTrail:
    """Keeps what moved in the last frames; tells, for a card that landed, where its hand came from."""

    def __init__(self, small_size: tuple[int, int], motion: MotionConfig = MotionConfig(),
                 config: BearingConfig = BearingConfig()):
        self.config = config
        self.motion = motion
        sw, sh = small_size
        self.size = (max(8, sw // 2), max(8, sh // 2))
        self.scale = self.size[0] / sw  # trail pixels per working pixel
        self._prev: np.ndarray | None = None
        self._least = max(4, int(config.least_share * self.size[0] * self.size[1]))
        self._moved: deque[_Moved] = deque(maxlen=config.keep_frames)

    def feed(self, frame_index: int, small: np.ndarray) -> None:
        """Note what moved between the previous frame's working image and `small`."""
        self._note(frame_index, cv2.resize(small, self.size, interpolation=cv2.INTER_AREA))

    def _note(self, frame_index: int, half: np.ndarray) -> None:
        prev, self._prev = self._prev, half
        if prev is None:
            return
        mc = self.motion
        mask = cv2.bitwise_or(brightness_change(half, prev, mc.brightness_threshold, mc.dark_offset),
                              chroma_change(half, prev, mc.chroma_threshold))
        mask = _open(mask)
        n = cv2.countNonZero(mask)
        if n < self._least:
            return  # nothing moved (a few pixels of noise): a hand held still does not show
        if n > self.config.flood * mask.size:
            return  # the light changed: it says nothing about hands
        self._moved.append(_Moved(frame_index, mask))

    def bearing(self, frame_index: int, quad: np.ndarray, since: int = -1) -> Bearing | None:
        """The bearing of the hand that laid the card outlined by `quad` (working pixels),
        from the motion after frame `since` up to `frame_index`; None when nothing touched it."""
        q = np.asarray(quad, np.float32).reshape(-1, 2) * self.scale
        (cx, cy), sides, _ = cv2.minAreaRect(q)
        short = max(2.0, float(min(sides)))
        run = self._last_run(self._zone(q, short), since, frame_index)
        if not run:
            return None
        return estimate(run, (cx, cy), short, self.config)

    def _zone(self, q: np.ndarray, short: float) -> np.ndarray:
        """The card's outline widened by the touch reach (bool, trail pixels)."""
        w, h = self.size
        zone = np.zeros((h, w), np.uint8)
        cv2.fillPoly(zone, [np.round(q).astype(np.int32)], 255)
        r = max(1, int(round(self.config.touch_reach * short)))
        return cv2.dilate(zone, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))) > 0

    def _last_run(self, zone: np.ndarray, since: int, frame_index: int) -> list[np.ndarray]:
        """The moving pieces that touched the card in each frame of the last run of such
        frames (newest first)."""
        cfg = self.config
        # each frame in which something moved: the moving pieces that touched the card, or None
        touched: list[tuple[int, np.ndarray | None]] = []
        for m in self._moved:
            if not since < m.frame <= frame_index:
                continue
            joined = cv2.dilate(m.mask, np.ones((3, 3), np.uint8))
            count, labels = cv2.connectedComponents(joined, connectivity=8)
            hit = np.unique(labels[zone & (joined > 0)])
            hit = hit[hit > 0]
            touched.append((m.frame, np.isin(labels, hit) & (m.mask > 0) if hit.size else None))
        # the last run of them: a few frames in which something moved elsewhere, or a short
        # while in which nothing moved at all (a hand held still over the pile), do not break it
        run: list[np.ndarray] = []
        apart, last = 0, 0
        for frame, pieces in reversed(touched):
            if run and last - frame > cfg.still_gap:
                break
            if pieces is not None:
                run.append(pieces)
                apart, last = 0, frame
            elif run:
                apart += 1
                if apart > cfg.run_gap:
                    break
        return run


def estimate(run: list[np.ndarray], centre: tuple[float, float], short: float,
             cfg: BearingConfig = BearingConfig()) -> Bearing | None:
    """The bearing from the moving pieces of a run (bool masks, trail pixels, newest first)
    around a card centred at `centre` whose short side is `short` trail pixels; None if
    nothing showed beyond the card."""
    h, w = run[0].shape
    cx, cy = centre
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = xx - cx, yy - cy
    dist = np.hypot(dx, dy)
    # a pile near the frame's edge: pixels straight towards that edge lie nearer than the
    # skip reach, and only the hand's sides and shadow were left beyond it to say the
    # direction (35 to 55 degrees off); there the skip reach ends short of the edge
    far = dist > min(cfg.skip_reach * short, cfg.edge_skip * min(cx, cy, w - cx, h - cy))
    edge = np.zeros((h, w), bool)  # the band along the frame's edge where an arm comes into view
    b = cfg.border_px
    edge[:b, :] = edge[-b:, :] = edge[:, :b] = edge[:, -b:] = True
    wsum = np.zeros((h, w), np.float64)  # how often each pixel was hand, beyond the card
    showing = 0  # frames in which some of it showed there
    crossings: list[tuple[float, float]] = []  # per frame: where the moving arm crossed the frame's edge
    for pieces in run:
        beyond = pieces & far
        wsum += beyond
        showing += bool(beyond.any())
        # all of the hand in the band, not only what lies beyond the skip reach: by a pile
        # near the edge that reach covers the arm's crossing and left only its sides
        ys, xs = np.nonzero(pieces & edge)
        if len(xs) >= cfg.least_cross:  # the middle of the span it crossed: the arm's sides move most
            crossings.append(((xs.min() + xs.max()) / 2 - cx, (ys.min() + ys.max()) / 2 - cy))
    mass = float(wsum.sum())
    if mass <= 0:
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        ux, uy = np.where(far, dx / dist, 0.0), np.where(far, dy / dist, 0.0)
    hand = (float((wsum * ux).sum()) / mass, float((wsum * uy).sum()) / mass)
    agree = math.hypot(*hand)  # 1 for one straight arm, low for a hand along the pile's edge or two arms
    seen = min(1.0, mass / showing / (cfg.enough * short * short))
    # how far out the hand was seen, in card short sides: a hand whose arm soon left the frame
    # (a pile near its edge) shows little but its own shape, which turns the bearing
    # (measured beyond a full skip reach where anything showed there: the nearer pixels a
    # pile by the frame's edge lets count would make every hand there look short)
    seen_at = dist[(wsum > 0) & (dist > cfg.skip_reach * short)]
    extent = float(np.percentile(seen_at if seen_at.size else dist[wsum > 0], 90)) / short
    reach = _ramp(extent, cfg.short_reach, cfg.long_reach)
    direction = hand
    accord = 1.0
    if crossings:
        # the arm comes in from outside the frame: where it crossed the edge is on its line
        arm = _mean_unit(crossings)
        gap = math.degrees(math.acos(max(-1.0, min(1.0, _dot(_unit(hand), _unit(arm))))))
        accord = 1.0 - _ramp(gap, cfg.accord, 2 * cfg.accord)
        # ... and counts as much as the hand's direction where little of the arm shows, and
        # alone where the hand barely shows beyond the card (its shape, the card it carries
        # and its shadow then turn the hand's direction most)
        pull = 1.0 - _ramp(extent, cfg.long_reach, cfg.arm_shown)
        own = _ramp(extent, cfg.short_reach, cfg.arm_shown)
        u, v = _unit(hand), _unit(arm)
        direction = (own * u[0] + pull * v[0], own * u[1] + pull * v[1])
    track = _ramp(showing, 1, cfg.least_track)
    confidence = agree * seen * reach * accord * track
    return Bearing(math.degrees(math.atan2(-direction[1], direction[0])) % 360.0, confidence)


def _ramp(x: float, lo: float, hi: float) -> float:
    """0 at or below `lo`, 1 at or above `hi`, linear between."""
    return min(1.0, max(0.0, (x - lo) / (hi - lo)))


def _unit(v: tuple[float, float]) -> tuple[float, float]:
    n = math.hypot(*v) or 1.0
    return v[0] / n, v[1] / n


def _dot(a: tuple[float, float], b: tuple[float, float]) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _mean_unit(vectors: list[tuple[float, float]]) -> tuple[float, float]:
    units = [_unit(v) for v in vectors]
    return sum(u[0] for u in units), sum(u[1] for u in units)


_PAIR = np.ones((2, 2), np.uint8)


def _open(mask: np.ndarray) -> np.ndarray:
    """Drop specks thinner than two pixels, leaving what stays where it was. (OpenCV's
    opening with a 2x2 kernel erodes and dilates about the same anchor, which moves a piece
    a pixel down and right: at half the working size that turned bearings by degrees.)"""
    return cv2.dilate(cv2.erode(mask, _PAIR, anchor=(0, 0)), _PAIR, anchor=(1, 1))
