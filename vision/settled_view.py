"""When something new lies still under the camera: at the end of a hand the camera looks for
hands spread on the table, and each new spread is read once, when it has settled.

Pure: frames in, "read this one now" out. The view the camera starts from (the pile as the
hand ended) is never read; a view is read when it differs from the last one taken (the start,
or the last read) and has then held still for a few frames; a view that goes back to the last
one taken (a hand passed over) is not read again.
"""
from __future__ import annotations

import cv2
import numpy as np

SIDE = 64          # the frames are compared as small grey copies of this width
STILL = 3.0        # mean grey difference between frames below which the view holds still
CHANGED = 10.0     # ... and from the last view taken above which it is a new view
STILL_FRAMES = 3   # frames in a row that must hold still


def _small(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.resize(grey, (SIDE, max(1, round(SIDE * h / w))), interpolation=cv2.INTER_AREA).astype(np.float32)


def _differ(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean(np.abs(a - b)))


class SettledViews:
    def __init__(self) -> None:
        self.taken: np.ndarray | None = None   # the last view taken (None: the first still view is the start)
        self.previous: np.ndarray | None = None
        self.still = 0

    def feed(self, image: np.ndarray) -> bool:
        """True when this frame is a new view that has just settled: read it."""
        small = _small(image)
        moved = self.previous is None or _differ(small, self.previous) >= STILL
        self.previous = small
        self.still = 0 if moved else self.still + 1
        if self.still != STILL_FRAMES:
            return False
        if self.taken is None:  # the view the camera starts from: the pile, not a hand
            self.taken = small
            return False
        if _differ(small, self.taken) < CHANGED:
            return False
        self.taken = small
        return True
