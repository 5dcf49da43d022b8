"""Where the hand that brought a card came from: its bearing seen from the pile.

Per frame (cheap): what moved since the previous frame, over the whole frame at half the
watcher's working size (brightness or colour changed), kept for the last few seconds.

Per landing (rare): around where the card now lies, the frames in which something moving
touched it are the delivering hand's; the last run of them (the pass of an empty hand
earlier, or the hand that left the card below, lies apart in time) is that hand coming,
laying the card and leaving. What of the moving pieces that touched the card lies beyond
the card itself is hand and arm, on the side of the player; the bearing is their mean
direction from the card's centre. (Weighing far pixels more, as an arm points along its
reach, measured worse on the synthetic clips: where the arm leaves the frame, and the
hand's turn as it leaves, pull it aside.)

Bearing: degrees in the image, 0 = towards the right edge, 90 = towards the top edge,
counter-clockwise, in [0, 360). Confidence (0..1) is how well those directions agree (the
mean resultant length: 1 for one straight arm, low for a hand that came along the pile's
edge or two arms at once), scaled down when little of the hand was seen.
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
    skip_reach: float = 1.0  # pixels nearer the card's centre than this many short sides say nothing
    enough: float = 0.15  # hand seen per frame beyond the card (card short sides squared) for full confidence
    flood: float = 0.4  # a frame where more than this share moved is the light changing: ignored
    least_share: float = 0.0005  # fewer moving pixels than this share of the frame: nothing moved


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
        half = cv2.resize(small, self.size, interpolation=cv2.INTER_AREA)
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
        cfg = self.config
        q = np.asarray(quad, np.float32).reshape(-1, 2) * self.scale
        (cx, cy), sides, _ = cv2.minAreaRect(q)
        short = max(2.0, float(min(sides)))
        w, h = self.size
        zone = np.zeros((h, w), np.uint8)
        cv2.fillPoly(zone, [np.round(q).astype(np.int32)], 255)
        r = max(1, int(round(cfg.touch_reach * short)))
        zone = cv2.dilate(zone, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))) > 0
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
        if not run:
            return None
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        dx, dy = xx - cx, yy - cy
        dist = np.hypot(dx, dy)
        far = dist > cfg.skip_reach * short
        wsum = np.zeros((h, w), np.float64)  # how often each pixel was hand, beyond the card
        showing = 0  # frames in which some of it showed there
        for pieces in run:
            beyond = pieces & far
            wsum += beyond
            showing += bool(beyond.any())
        mass = float(wsum.sum())
        if mass <= 0:
            return None
        with np.errstate(invalid="ignore", divide="ignore"):
            ux, uy = np.where(far, dx / dist, 0.0), np.where(far, dy / dist, 0.0)
        sx, sy = float((wsum * ux).sum()), float((wsum * uy).sum())
        agree = math.hypot(sx, sy) / mass
        seen = min(1.0, mass / showing / (cfg.enough * short * short))
        return Bearing(math.degrees(math.atan2(-sy, sx)) % 360.0, agree * seen)


_PAIR = np.ones((2, 2), np.uint8)


def _open(mask: np.ndarray) -> np.ndarray:
    """Drop specks thinner than two pixels, leaving what stays where it was. (OpenCV's
    opening with a 2x2 kernel erodes and dilates about the same anchor, which moves a piece
    a pixel down and right: at half the working size that turned bearings by degrees.)"""
    return cv2.dilate(cv2.erode(mask, _PAIR, anchor=(0, 0)), _PAIR, anchor=(1, 1))
