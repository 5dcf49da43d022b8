"""A lamp's colour cast on the whole picture, estimated from its brightest pixels and taken
out (a white patch), and lamps to put one on for measuring.

Under a warm lamp, with a webcam whose white balance does not follow it, a card's white
border turns orange: too saturated for the finder's and the spread scan's tests for card
stock (bright and unsaturated), so the cards are not found at all. White paper is the
brightest thing on a table in each colour, so the brightest red, green and blue of a picture
with a card in it are the paper's, and their ratios are the lamp's (a white patch). Only a
strong cast is taken out: in plain light the paper is near grey and the picture is left as
it is.
"""
from __future__ import annotations

import cv2
import numpy as np

PAPER = 99.5      # percentile of each channel taken as the paper's (a card's paper is 1% of a
                  # 1280x720 table photo with five small cards on it)
CLIPPED = 253     # a pixel this bright in every channel is clipped (glare): it says nothing of the
                  # lamp (paper whose strongest channel alone is clipped still shows the cast)
LEAST_CAST = 1.3  # the paper's strongest channel over its weakest below which nothing is done
MOST_GAIN = 2.5   # a channel is raised at most this much
STEP = 4          # the picture is shrunk this much each way first (the estimate needs few pixels)

# BGR gains of lamps a camera's white balance left uncorrected (tools/eval_photos.py --lamp)
LAMPS: dict[str, tuple[float, float, float]] = {
    "tungsten": (0.55, 0.82, 1.0),  # a 2700 K bulb on a camera set for daylight
    "warm": (0.75, 0.9, 1.0),       # what an automatic white balance often leaves of it
    "cool": (1.0, 0.95, 0.72),      # a blue-white LED panel or daylight on a warm setting
    "green": (0.8, 1.0, 0.8),       # an old fluorescent tube
}


def cast_gains(image_bgr: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (float32 BGR, the strongest channel 1) that make the paper grey, or
    None when it is near grey already (or the picture is all glare)."""
    h, w = image_bgr.shape[:2]
    # averaged, not sampled: a speck of sensor noise would pass for the brightest paper
    small = cv2.resize(image_bgr, (max(1, w // STEP), max(1, h // STEP)), interpolation=cv2.INTER_AREA)
    channels = cv2.split(small)
    unclipped = (cv2.min(cv2.min(channels[0], channels[1]), channels[2]) < CLIPPED).astype(np.uint8)
    n = cv2.countNonZero(unclipped)
    if n < 20:
        return None
    # white paper reflects more of every colour than any ink or cloth under the same lamp: each
    # channel's brightest (less a few, for the odd speck) is the paper's. The k-th smallest
    # value is read off each channel's histogram (a uint8 picture has 256 values; sorting
    # its pixels cost 3 ms a frame at 1280x720)
    k = int(PAPER / 100 * (n - 1))
    ref = np.array([np.searchsorted(np.cumsum(cv2.calcHist([c], [0], unclipped, [256], [0, 256]).ravel()), k,
                                    side="right") for c in channels], np.float32) + 1
    if ref.max() / ref.min() < LEAST_CAST:
        return None
    return np.minimum(ref.max() / ref, MOST_GAIN).astype(np.float32)


def without_cast(image_bgr: np.ndarray) -> np.ndarray:
    """The picture with a strong lamp cast taken out (the same array when there is none)."""
    gains = cast_gains(image_bgr)
    if gains is None:
        return image_bgr
    # a table per channel: the same values as multiplying each pixel, at a fraction of the cost
    table = np.minimum(np.arange(256, dtype=np.uint8)[:, None] * gains, 255).astype(np.uint8)
    return cv2.LUT(image_bgr, table.reshape(256, 1, 3))


def under_lamp(image_bgr: np.ndarray, lamp: str) -> np.ndarray:
    """The picture as a camera that ignores `lamp` (a LAMPS name) would take it."""
    if lamp not in LAMPS:
        raise ValueError(f"unknown lamp {lamp!r}: one of {', '.join(LAMPS)}")
    return np.minimum(image_bgr * np.float32(LAMPS[lamp]), 255).astype(np.uint8)
