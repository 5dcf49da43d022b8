"""Cheap per-frame views for the pile watcher: a small, illumination-normalised copy of the frame.

Every frame is shrunk (INTER_AREA also averages away sensor noise) and divided by a blurred
copy of itself. The ratio keeps edges, print and card outlines but cancels what lighting
does at low spatial frequency: exposure and white-balance changes, auto-exposure drift, a
lamp switched on at one side, and soft shadows moving across the table.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .classify_colour import channel_max_min

MEAN_LEVEL = 80.0


@dataclass(frozen=True)
class MotionConfig:
    work_width: int = 256  # width of the small copy (height keeps the aspect ratio)
    norm_sigma: float = 5.0  # blur (small-image pixels) that defines "low frequency" lighting
    dark_offset: float = 25.0  # added before dividing, so noise in dark areas is not amplified
    diff_threshold: float = 0.14  # relative reflectance change that counts as a changed pixel
    chroma_threshold: float = 0.045  # change of a pixel's colour share (see chroma_change) that counts
    brightness_threshold: float = 0.1  # change of a pixel's brightness, relative to it, that counts as motion
    # how far (small-image pixels) the pile image may have slid under a still pixel: a pixel
    # counts only where it differs from the other image's whole neighbourhood
    # (settled_change) in the test for an arm reaching the region's edge, in what must bear
    # out each piece of the change judged a card (pile_change.pieces), and in the test for a
    # take-back (PileBook.as_before). Not in that change itself: a green card landed on a
    # green card changes only by its print, of which two thirds went (other_clips seed 927),
    # so that it passed for no card
    settled_reach: int = 1

    @property
    def halo_px(self) -> int:
        """How far (small-image pixels) the ratio view spreads a change around it: about two
        blur widths."""
        return int(2 * self.norm_sigma)


class Normaliser:
    def __init__(self, frame_size: tuple[int, int], config: MotionConfig = MotionConfig()):
        w, h = frame_size
        self.config = config
        self.scale = min(1.0, config.work_width / w)
        self.small_size = (max(8, int(round(w * self.scale))), max(8, int(round(h * self.scale))))

    def __call__(self, frame_bgr: np.ndarray) -> View:
        small = cv2.resize(frame_bgr, self.small_size, interpolation=cv2.INTER_AREA)
        # Bring the frame to a fixed mean level first, so that the dark offset below is the
        # same fraction of the signal whatever the exposure (otherwise a darker frame has
        # weaker ratios at every strong edge).
        level = max(8.0, float(np.mean(cv2.mean(small)[:3])))
        f = small.astype(np.float32) * (MEAN_LEVEL / level) + self.config.dark_offset
        base = cv2.GaussianBlur(f, (0, 0), self.config.norm_sigma)
        return View(small, cv2.divide(f, base))


@dataclass
class View:
    """A frame at working size: the raw small image and its illumination-normalised ratio.
    Never changed once made (pile_book.py patches a copy), so copies of what holds it share it."""
    small: np.ndarray  # uint8 BGR
    ratio: np.ndarray  # float32 BGR, about 1 where the frame is locally flat

    def __deepcopy__(self, memo: dict) -> "View":
        return self


SATURATED = 248
# (max - min) / max of a pixel that is clearly coloured (pale skin: ~0.23), not grey or white
# (white under a warm lamp: ~0.12)
CLIPPED_CHROMA = 0.2


def change_mask(a: np.ndarray, b: np.ndarray, threshold: float) -> np.ndarray:
    """uint8 mask (255 = changed) where any channel's ratio differs by more than `threshold`."""
    diff = cv2.absdiff(a, b)
    m = _channel_max(diff) if diff.ndim == 3 else diff
    return (m > threshold).astype(np.uint8) * 255


def _channel_max(img: np.ndarray) -> np.ndarray:
    # cv2.max over split channels: several times faster than numpy's max(axis=2) on small images
    b, g, r = cv2.split(img)
    return cv2.max(cv2.max(b, g), r)


def clean(mask: np.ndarray, size: int = 2) -> np.ndarray:
    """Drop isolated changed pixels (noise, compression blocks) but keep card edges.

    Motion uses size 3: a moving hand is a big blob, and noise can form 2x2 clumps on a
    dark, grainy frame; pile changes use size 2 to keep thin card outlines.
    """
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))


def settled_change(cur: np.ndarray, ref: np.ndarray, cur_small: np.ndarray, ref_small: np.ndarray,
                   threshold: float, reach: int = 0) -> np.ndarray:
    """Like change_mask, ignoring channels saturated in either image (clipping breaks the ratio).

    `reach` > 0: a pixel counts only by how far it lies outside the range the other image
    takes within `reach` pixels of it, each image against the other. Along a sharp edge of
    the table (a checked cloth) a tenth of a pixel's jitter or the video's compression moves
    the ratio past the threshold: plainly compared, 5% of an empty checked table changed
    between two still frames of a clip (other_clips seed 926), and those specks joined a new
    card to the frame's edge as if it were an arm; this way, 0.2%. Both ways, because a
    card's print taken away leaves the flat table inside the range the print took (one way
    only, a white card taken off a light table showed a quarter of its change, and its
    removal was missed: the watcher's acceptance clip 1007).

    Where the reference is clipped white in every channel (a white table over-exposed when
    the pile image was taken) the ratio says nothing, but colour still does: something
    clearly coloured there now (a hand, a card) is a change, grey or white (the table under
    another exposure, a shadow) is not."""
    if reach > 0:
        near = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
        diff = cv2.max(_outside(cur, ref, near), _outside(ref, cur, near))
    else:
        diff = cv2.absdiff(cur, ref)
    diff[(cur_small >= SATURATED) | (ref_small >= SATURATED)] = 0
    changed = _channel_max(diff) > threshold
    blown = channel_max_min(ref_small)[1] >= SATURATED
    if blown.any():
        hi, lo = channel_max_min(cur_small.astype(np.int16))
        changed |= blown & (hi - lo > CLIPPED_CHROMA * np.maximum(hi, 1))
    return changed.astype(np.uint8) * 255


def _outside(a: np.ndarray, b: np.ndarray, near: np.ndarray) -> np.ndarray:
    """How far each value of `a` lies outside the range `b` takes over the neighbourhood
    `near` (negative inside it)."""
    return cv2.max(cv2.subtract(a, cv2.dilate(b, near)), cv2.subtract(cv2.erode(b, near), a))


def brightness_change(cur_small: np.ndarray, ref_small: np.ndarray, threshold: float, offset: float) -> np.ndarray:
    """uint8 mask (255 = changed) where a pixel's grey level moved by more than `threshold`
    of itself (plus `offset`, so that noise in the dark does not count).

    For consecutive frames, where the light cannot have drifted, or against an older image
    brought to the same exposure first: it sees a hand over a grained table although its
    outline and colour are too close to the table's for the ratio view or colour to see."""
    a = cv2.cvtColor(cur_small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    b = cv2.cvtColor(ref_small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return (cv2.absdiff(a, b) > threshold * (cv2.max(a, b) + offset)).astype(np.uint8) * 255


CHROMA_DAMP = 12.0  # added to each channel before taking shares, so dark noise is not a colour
_SUM = np.ones((1, 3), np.float32)  # cv2.transform with it sums the channels


def chroma_change(cur_small: np.ndarray, ref_small: np.ndarray, threshold: float) -> np.ndarray:
    """uint8 mask (255 = changed) where a pixel's colour (each channel's share of the sum)
    moved by more than `threshold`, ignoring pixels saturated in either image.

    This sees what the ratio view cannot: the inside of a big flat area, such as a hand or
    a sleeve over a plain table, whose ratio to its own blur is 1 like the table's. Light
    and shadow change brightness, which colour shares ignore; the tint of a new lamp moves
    a grey table's shares by about 0.02, under the threshold."""
    a = cur_small.astype(np.float32) + CHROMA_DAMP
    b = ref_small.astype(np.float32) + CHROMA_DAMP
    diff = cv2.absdiff(a / cv2.merge([cv2.transform(a, _SUM)] * 3), b / cv2.merge([cv2.transform(b, _SUM)] * 3))
    # it runs on every frame: one channel max of both images is the cheap saturation test
    changed = (_channel_max(diff) > threshold) & (_channel_max(cv2.max(cur_small, ref_small)) < SATURATED)
    return changed.astype(np.uint8) * 255
