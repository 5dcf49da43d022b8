"""Motion in the pile region from one frame to the next: the pile watcher's first stage.

Per frame it tells whether the region keeps still, whether the exposure is still moving,
what moved, and follows the hand: whether the last thing that moved crossed the region's
edge or went away from the pile (a hand that leaves does as it last moves; one that stops
inside the region, hovering or still holding its card, last moved inwards), and whether
what came in since the pile image was taken is all still there. It reads the pile image
and changes nothing of the later stages: they act on what it reports (Motion).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .motion import MotionConfig, View, brightness_change, change_mask, chroma_change, clean
from .pile_change import Roi, exposure_step, on_border
from .pile_region import Box

WITHDRAWN = 0.1  # what came in has gone (in part) once the change shrinks by this share of its most
FAINT = 4  # a motion of at most this many times the motion threshold is faint: noise, or a hovering hand's drift
AWAY_PX = 2.0  # a big motion whose middle moved this much further from the region's middle went away


@dataclass(frozen=True)
class Motion:
    still: bool  # nothing moved in the region (beyond noise) and the exposure is steady
    exposure_moving: bool  # auto-exposure is still catching up with a change of light
    seen: np.ndarray  # what moved (region pixels): ratio view, and brightness and colour when they tell
    hand_left: bool  # the hand was seen leaving on this frame, having last moved inside the region
    left_by_edge: bool  # the last motion reached the region's edge or went away from the pile
    came_in: bool  # ... and as much still differs from the pile image as at any time since it was taken
    faint: bool = False  # what moved (`seen`) is little more than noise (see FAINT)


class PileMotion:
    def __init__(self, first: View, mc: MotionConfig, motion_px: int, exposure_rate: float) -> None:
        self.mc = mc
        self.motion_px = motion_px
        self.exposure_rate = exposure_rate
        self.prev = first
        self.left_by_edge = True
        self.moved_at: np.ndarray | None = None  # where the last big motion was (working-size pixels)
        # the most region pixels (1 in 4) that differed from a pile image (the one named) as things moved
        self.covered: tuple[int, View | None] = (0, None)
        self.came_in = False

    def step(self, n: View, box: Box, roi: Roi, pile: View) -> Motion:
        """The motion from the last frame to `n` in the region `box` (`roi`), `pile` being
        the pile image now."""
        motion = clean(change_mask(n.ratio[roi], self.prev.ratio[roi], self.mc.diff_threshold), 3)
        moving = cv2.countNonZero(motion)
        # auto-exposure still catching up with a light switch counts as motion: compare once
        # the exposure is steady (clipped highlights would otherwise look like a change)
        exposure_moving = exposure_step(n.small[::3, ::3], self.prev.small[::3, ::3]) > self.exposure_rate
        seen, seen_px, hand_left = self._follow_hand(motion, n, roi, box, exposure_moving, pile)
        self.prev = n
        return Motion(not (moving > self.motion_px or exposure_moving), exposure_moving, seen, hand_left,
                      self.left_by_edge, self.came_in, not exposure_moving and seen_px <= FAINT * self.motion_px)

    def _follow_hand(self, motion: np.ndarray, n: View, roi: Roi, box: Box, exposure_moving: bool,
                     pile: View) -> tuple[np.ndarray, int, bool]:
        """(what moved, its pixel count, whether the hand was seen leaving now). Brightness
        and colour see hands that the ratio view barely does, so they also tell when a hand leaves a
        landing waiting; while the exposure moves they change all over, and the ratio view,
        which it leaves alone, follows the hand by itself (a hand that leaves as a lamp comes
        on must not leave its card waiting as if still there)."""
        mc = self.mc
        seen = motion
        if not exposure_moving:  # while the exposure moves, only the ratio view sees hands
            cur, before = n.small[roi], self.prev.small[roi]
            seen = cv2.bitwise_or(seen, clean(cv2.bitwise_or(
                brightness_change(cur, before, mc.brightness_threshold, mc.dark_offset),
                chroma_change(cur, before, mc.chroma_threshold)), 3))
        count = cv2.countNonZero(seen)
        if count <= self.motion_px:
            return seen, count, False
        left = on_border(seen)
        if count > FAINT * self.motion_px:
            # Moving away from the pile counts too: a hand whose colour and brightness match
            # the table shows only where it passes over cards, not where it leaves. Smaller
            # motions (a hovering hand's drift) say nothing either way.
            m = cv2.moments(seen, binaryImage=True)
            at = np.array([box[0] + m["m10"] / m["m00"], box[1] + m["m01"] / m["m00"]])
            centre = np.array([box[0] + box[2], box[1] + box[3]], np.float64) / 2
            if self.moved_at is not None:
                left |= np.linalg.norm(at - centre) > np.linalg.norm(self.moved_at - centre) + AWAY_PX
            self.moved_at = at
        elif not left:
            return seen, count, False
        # Whether as much of the region differs from the pile image as at any time since it
        # was taken: what came in has not gone (an arm at rest; or a card's print that a hand
        # uncovered as it left, so this only tells about changes read as no card).
        covered = cv2.countNonZero(change_mask(n.ratio[roi][::2, ::2], pile.ratio[roi][::2, ::2], mc.diff_threshold))
        self.covered = max(covered, self.covered[0] if self.covered[1] is pile else 0), pile
        self.came_in = covered >= (1 - WITHDRAWN) * self.covered[0]
        hand_left = bool(left and not self.left_by_edge)
        self.left_by_edge = bool(left)
        return seen, count, hand_left
