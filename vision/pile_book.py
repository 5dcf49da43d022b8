"""The pile's record and the events that change it: the last stage of the pile watcher.

It keeps the pile image (what the pile looks like now, at working size), the images before
each landing (so that a take-back is seen as the pile going back to one), the card on top
and the sizes of the cards read surely. A landing or a take-back the earlier stages decided
on becomes an Event here, and the record follows it. No decisions: those are landing.py's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .camera_shift import carry, carry_box
from .motion import MotionConfig, View
from .pile_change import Roi, changed
from .pile_outline import quad_tuple, short_long, small_quad
from .pile_region import PileRegion
from .top_card import Reading

SIDES_KEPT = 5  # the cards' size is the median of the last few sure outlines (one odd outline must not set it)


@dataclass(frozen=True)
class Event:
    event: str  # "landed" or "removed"
    card: str | None
    confidence: float
    t: float
    frame: int
    quad: tuple[tuple[float, float], ...] | None = None
    likely: tuple[tuple[str, float], ...] = ()  # the two likeliest codes (landed), read or declined
    bearing: float | None = None  # landed: where the hand came from (see bearing.py), None if unseen
    bearing_confidence: float = 0.0
    # landed: the frame by which the hand that brought it had gone, where that was before the
    # report's (a card the frame cut, read as no card, reported once the next came on it)
    brought: int | None = None

    @property
    def hand_gone(self) -> int:
        """The frame by which the hand that brought it had gone (the bearing's window ends there)."""
        return self.frame if self.brought is None else self.brought

    def as_json(self) -> dict[str, Any]:
        out = {"event": self.event, "card": self.card, "confidence": round(self.confidence, 3),
               "t": round(self.t, 3), "frame": self.frame}
        if self.event == "landed":
            out["likely"] = [list(t) for t in self.likely]
            out["bearing"] = None if self.bearing is None else round(self.bearing, 1)
            out["bearing_confidence"] = round(self.bearing_confidence, 3)
        return out


def landed(reading: Reading, t: float, frame_index: int) -> Event:
    return Event("landed", reading.card, reading.confidence, t, frame_index, quad_tuple(reading.quad), reading.likely)


@dataclass
class PileState:
    image: View  # the pile at working size
    top: Reading | None  # the card on top in this state (None: unknown / bare table)


class PileBook:
    def __init__(self, image: View, region: PileRegion, scale: float, history: int, side_confidence: float) -> None:
        """`image` is the first view: the pile as the watcher starts (no card known on it).
        A reading at least `side_confidence` sure outlines a whole card: the cards' size."""
        self.pile = PileState(image, None)
        self.history: list[PileState] = []  # the pile before each landing, the last one last
        self.region = region  # shared with the other stages: a landing tells it the cards' size
        self.scale = scale  # working-size pixels per frame pixel
        self.keep = history
        self.side_confidence = side_confidence
        self.sides: list[float] = []  # short sides (frame pixels) of the cards read surely

    @property
    def image(self) -> View:
        return self.pile.image

    def card_side(self) -> float | None:
        """The cards' short side (frame pixels) as the last sure readings outlined it: the
        reader tries outlines of that size too, for when the change is no card's size (a
        shadow that went with the hand) and the finder outlines nothing."""
        return float(np.median(self.sides)) if self.sides else None

    def land(self, image: View, interior: np.ndarray, origin: tuple[int, int], reading: Reading,
             t: float, frame_index: int) -> Event:
        """A card landed where `interior` (region pixels from `origin`) changed: `image` is the new pile."""
        self.history.append(self.pile)
        del self.history[:-self.keep]
        self.pile = PileState(image, reading)
        pts = cv2.findNonZero(interior)
        bx, by, bw, bh = cv2.boundingRect(pts)
        # The card's size: the changed area, or the outline read when that is bigger (the
        # change misses what looks alike before and after, such as a light switched on
        # just brightening the print of the top card).
        area = cv2.contourArea(cv2.convexHull(pts))
        if reading.quad is not None:
            outline = small_quad(reading.quad, self.scale)
            area = max(area, cv2.contourArea(outline))
        x0, y0 = origin
        self.region.add_card((x0 + bx, y0 + by, x0 + bx + bw, y0 + by + bh), area)
        if reading.quad is not None and reading.confidence >= self.side_confidence:
            self.sides = (self.sides + [short_long(reading.quad)[0]])[-SIDES_KEPT:]
        return landed(reading, t, frame_index)

    def take_back(self, image: View, t: float, frame_index: int) -> Event:
        """The top card was taken back: the pile before it, as `image` now shows it."""
        removed, before = self.pile.top, self.history.pop()
        self.pile = PileState(image, before.top)
        return Event("removed", removed.card if removed else None, removed.confidence if removed else 0.0,
                     t, frame_index, quad_tuple(removed.quad) if removed else None)

    def as_before(self, n: View, roi: Roi, area: int, least_px: int, ratio: float, mc: MotionConfig,
                  within: np.ndarray | None = None) -> bool:
        """Whether `n` looks as the pile did before the last landing (in `within`, if given),
        for a change of `area` pixels: fewer than `least_px`, or `ratio` of the change, differ.
        The top card was taken back."""
        if not self.history:
            return False
        # within reach (MotionConfig.settled_reach): the image before the landing may lie a
        # fraction of a pixel off, carried along by a fit of the camera's move
        back = changed(n, self.history[-1].image, roi, mc, mc.settled_reach)
        count = cv2.countNonZero(back if within is None else cv2.bitwise_and(back, within))
        return count < max(least_px, ratio * area)

    def patched(self, n: View, roi: Roi, mask: np.ndarray) -> View:
        """The pile image with the pixels `mask` (boolean, of `roi`) as `n` shows them."""
        ref = View(self.pile.image.small.copy(), self.pile.image.ratio.copy())
        ref.small[roi][mask] = n.small[roi][mask]
        ref.ratio[roi][mask] = n.ratio[roi][mask]
        return ref

    def absorb(self, n: View, roi: Roi, mask: np.ndarray) -> None:
        """Take the pixels `mask` of `roi` into the pile image as background."""
        self.pile = PileState(self.patched(n, roi, mask), self.pile.top)

    def merge(self, n: View) -> View:
        """The pile image after accepting `n`: new inside the watched region, kept outside it
        (hands and things beside the pile must not linger in the pile image)."""
        if self.region.is_whole_frame():
            return n
        x0, y0, x1, y1 = self.region.box()
        ref = View(self.pile.image.small.copy(), self.pile.image.ratio.copy())
        ref.small[y0:y1, x0:x1] = n.small[y0:y1, x0:x1]
        ref.ratio[y0:y1, x0:x1] = n.ratio[y0:y1, x0:x1]
        return ref

    def carry(self, m: np.ndarray, now: View) -> None:
        """The camera moved by the map `m` (camera_shift.camera_move): the pile image, the
        images before each landing and the pile's place move with it (`now`: the view after
        the move, for what the move brings into the frame)."""
        self.pile = PileState(carry(self.pile.image, m, now), self.pile.top)
        self.history = [PileState(carry(s.image, m, now), s.top) for s in self.history]
        size = (self.region.width, self.region.height)
        self.region.carry(lambda box: carry_box(box, m, size))

    def accept(self, n: View) -> None:
        """Nothing new on the pile (a hand passed, the light changed): `n` is its image now."""
        self.pile = PileState(self.merge(n), self.pile.top)
