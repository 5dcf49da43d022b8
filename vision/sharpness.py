"""How sharp a rectified card is, whatever its print: a blurred card is read only where both
readers read it so (Recogniser, RecogniserConfig.least_sharpness).

Either reader alone reads a card blurred past a point as another card, surely: a defocused
webcam's small card, a hand-held photo's shake (`tools/eval_spreads.py --camera defocus|motion`). The
measure is the steepest gradient along each of four directions (the 99.5th percentile of the
derivative), as a share of the card's own range of brightness, and the least of the four:
a shake blurs along one direction only, and a card's border and print have edges in all.
Measured on the card at the readers' own size, so that it counts blur in the card's terms.
Pure; no reading here.
"""
from __future__ import annotations

import cv2
import numpy as np

from .classify_symbol import CANON_H, CANON_W


def sharpness(warped_bgr: np.ndarray) -> float:
    """About 1.2-3 for a sharp card (the dev photos' crops); at the readers' 128 px width,
    about 0.6 blurred by a Gaussian of 4 px and 0.4 by one of 6 px; 0 for a flat image."""
    if warped_bgr.shape[1] > warped_bgr.shape[0]:
        warped_bgr = cv2.rotate(warped_bgr, cv2.ROTATE_90_CLOCKWISE)
    if warped_bgr.shape[:2] != (CANON_H, CANON_W):
        warped_bgr = cv2.resize(warped_bgr, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(warped_bgr, cv2.COLOR_BGR2GRAY)
    lo, hi = _ranks(np.bincount(grey.ravel(), minlength=256), (0.01, 0.99))
    if hi - lo < 1:
        return 0.0
    # a grey image's derivatives are whole numbers: their order is counted, not sorted (the
    # figures are those of sorting them; this runs on every outline the learned reader reads)
    gx = cv2.Sobel(grey, cv2.CV_16S, 1, 0)  # (at most 4 x 255 either way: sums fit too)
    gy = cv2.Sobel(grey, cv2.CV_16S, 0, 1)
    steepest = [_ranks(np.bincount(np.abs(d).ravel()), (0.995,))[0] / scale
                for d, scale in ((gx, 1.0), (gy, 1.0), (gx + gy, np.sqrt(2)), (gx - gy, np.sqrt(2)))]
    return float(min(steepest) / (hi - lo))


def _ranks(counts: np.ndarray, shares: tuple[float, ...]) -> list[float]:
    """The values at these shares of the way up the order of whole numbers, from how many
    there are of each (`counts`)."""
    upto = np.cumsum(counts)
    n = int(upto[-1])
    ks = [min(n - 1, int(round(s * (n - 1)))) for s in shares]
    return [float(np.searchsorted(upto, k, side="right")) for k in ks]


__all__ = ["sharpness"]
