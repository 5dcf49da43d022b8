"""A card lying still and clear of a hand that is still leaving: found before all is still.

When cards are big the watched region spans the frame, and an arm leaves it long after it
has cleared the pile: waiting for all to be still would report the card late. This stage
finds a still change of a card's size that lies clear of all motion, and away from the
region's edge, for two frames running, and has it read, once per pile image (reads are
slow, hands quick). Whether that reading is reported at once is landing.py's decision.
"""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from .motion import MotionConfig, View
from .pile_change import Roi, changed
from .pile_read import Read
from .top_card import Reading

STEADY = 0.05  # a change clear of the hand lies still if its area moved less than this share since the last frame


class LeavingHand:
    def __init__(self, mc: MotionConfig, part_px: int) -> None:
        self.mc = mc
        self.part_px = part_px  # smaller pieces of change are noise
        self.clear: int | None = None  # changed pixels lying clear of the last motion
        self.tried: View | None = None  # the pile image when a card was last read here

    def forget(self) -> None:
        """No card to look for on this frame: the next one must lie still from scratch."""
        self.clear = None

    def card(self, n: View, roi: Roi, seen: np.ndarray, pile: View, least: float,
             as_before: Callable[[int, np.ndarray], bool], read: Read) -> tuple[np.ndarray, Reading] | None:
        """(where it changed, of `roi`; its reading) of a card lying clear of what moved,
        `seen`, since the pile image `pile`; None while there is none, or not yet still. A
        change of fewer than `least` pixels is no card; one `as_before` (its area, its pixels)
        calls the pile as it was before the last landing is a take-back, or a card just like
        the one below: those wait for all to be still."""
        change = changed(n, pile, roi, self.mc)
        # what lies within the ratio view's halo of the motion is not clear of it
        reach = 2 * self.mc.halo_px + 1
        near = cv2.dilate(seen, np.ones((reach, reach), np.uint8))
        # a card changes along its outline and in its print, not across its plain parts:
        # what an outline encloses goes with it, so that a card lies clear of the hand whole
        outlines, _ = cv2.findContours(change, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(change)
        cv2.drawContours(filled, outlines, -1, 255, -1)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(filled, connectivity=8)
        keep = stats[:, 4] >= self.part_px
        keep[0] = False
        keep[np.unique(labels[near > 0])] = False
        keep[np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))] = False
        still = keep[labels]
        area = int(np.count_nonzero(still & (change > 0)))
        previous, self.clear = self.clear, None
        if area < least:
            return None
        if previous is None or abs(area - previous) > STEADY * area:
            self.clear = area  # look again at the next frame: it must lie still
            return None
        interior = cv2.bitwise_and(change, still.astype(np.uint8) * 255)
        if as_before(area, interior):
            return None
        self.tried = pile
        return interior, read(n, roi, interior)
