"""Cards found in a spread painted out, so that the finder can look again at what lies under
and beside them (for `identify --all`).

A card dropped at any angle over part of another, or red beside red, joins its neighbours
into one shape that no outline fits; with the cards already read painted the table's colour,
what shows of each card under them stands alone, and the finder outlines it. Pure image
work; the reading is recognise.Recogniser's.
"""
from __future__ import annotations

import cv2
import numpy as np

GROW = 1.06  # each outline grown about its centre: found outlines often run just inside the white border
SAMPLE = 4   # every SAMPLE-th pixel each way is enough for the table's colour


def _grown(quad: np.ndarray, by: float = GROW) -> np.ndarray:
    c = quad.mean(axis=0)
    return (c + (quad - c) * by).astype(np.float32)


def cover_mask(shape: tuple[int, ...], quads: list[np.ndarray], by: float = 1.0) -> np.ndarray:
    """A uint8 mask of `quads` (each grown `by` about its centre) over an image of `shape`."""
    mask = np.zeros(shape[:2], np.uint8)
    for q in quads:  # one at a time: fillPoly given several at once leaves their overlaps empty
        cv2.fillPoly(mask, [np.round(_grown(q, by)).astype(np.int32)], 255)
    return mask


def painted_out(image_bgr: np.ndarray, quads: list[np.ndarray]) -> np.ndarray | None:
    """A copy of the photo with each of `quads` (grown a little) filled with the table's
    colour: the median of what no card found covers. None when nothing of the table shows."""
    mask = cover_mask(image_bgr.shape, quads, GROW)
    table = image_bgr[::SAMPLE, ::SAMPLE][mask[::SAMPLE, ::SAMPLE] == 0]
    if len(table) == 0:
        return None
    out = image_bgr.copy()
    out[mask > 0] = np.median(table, axis=0).astype(np.uint8)
    return out


__all__ = ["cover_mask", "painted_out"]
