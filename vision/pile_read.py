"""Where the reader looks: the crop of the full-resolution frame around a change in the pile
and the change mask to go with it (pure logic). The read itself (top_card.read_top_card,
the one call into the recogniser) is the watcher's (watcher.py): this only frames it.
"""
from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from .motion import View
from .pile_change import Roi, origin
from .pile_region import Box
from .top_card import Outlines, Reading


class Read(Protocol):
    """Reads the card where `interior` (of `roi`) changed in a view; given `outlines` (an
    earlier reading's of the same settled card), reads those again instead of searching."""
    def __call__(self, view: View, roi: Roi, interior: np.ndarray, outlines: Outlines | None = None) -> Reading: ...


MARGIN = 0.25  # the crop reaches this share of the change's longer side beyond it (a card's edge may not change)


def small_box(box: Box, scale: float, small_size: tuple[int, int]) -> Box:
    """A box of frame pixels (x0, y0, x1, y1) at working size (`scale`), taking in every
    working pixel it touches and clipped to the `small_size` frame."""
    x0, y0, x1, y1 = box
    sw, sh = small_size
    return max(0, int(x0 * scale)), max(0, int(y0 * scale)), min(sw, int(x1 * scale + 1)), min(sh, int(y1 * scale + 1))


def reading_window(core: np.ndarray, interior: np.ndarray, roi: Roi, scale: float, small_size: tuple[int, int],
                   frame_size: tuple[int, int]) -> tuple[Box, np.ndarray]:
    """(box in frame pixels, uint8 change mask of that box) to read the card where the
    pixels `interior` of `roi` (working size) changed: a crop around them plus a margin,
    and the change without its halo, `core` (pile_change.without_halo), at frame scale."""
    x0, y0 = origin(roi)
    bx, by, bw, bh = cv2.boundingRect(cv2.findNonZero(interior))
    pad = int(MARGIN * max(bw, bh)) + 2
    sw, sh = small_size
    sx0, sy0 = max(0, x0 + bx - pad), max(0, y0 + by - pad)
    sx1, sy1 = min(sw, x0 + bx + bw + pad), min(sh, y0 + by + bh + pad)
    fw, fh = frame_size
    box = (int(sx0 / scale), int(sy0 / scale), min(fw, int(sx1 / scale)), min(fh, int(sy1 / scale)))
    small = np.zeros((sh, sw), np.uint8)
    small[roi] = core
    crop = small[sy0:sy1, sx0:sx1]
    changed = cv2.resize(cv2.dilate(crop, np.ones((3, 3), np.uint8)), (box[2] - box[0], box[3] - box[1]),
                         interpolation=cv2.INTER_NEAREST)
    return box, changed
