"""The pile watcher's state kept beside the journal, so that a resumed video seeks to where it
stopped instead of watching everything again.

After each frame that journals a camera record, the run loop saves the watcher's whole state
(its pile image, region, card size, history; not the recogniser, which is shared and large)
with the frame it has just seen and the last frame the journal names then, to
`<journal>.watch` (written to a temporary file and renamed, so a kill leaves the old one or
the new one). A resume restores that state into its watcher and reads on from the next frame:
the watcher is then exactly the uninterrupted run's. If the process died between journaling a
record and saving, the checkpoint is an older one and the loop primes from it over the few
frames up to the journal's last; a journal without a checkpoint (older runs) primes from the
start as before. A checkpoint is trusted only for the source it was saved with and when it
names no frame the journal does not have (it is the run's own file, read back by the same
program: pickle is fine here).

Kept small, losslessly: the pile history is a few dozen working-size views, each a uint8 image
and its float32 illumination ratio. The image is stored as PNG; the ratio, which is mostly the
image's own ratio recomputed (motion.Normaliser's formula at the exposure level of the frame
it came from), as that level and the bits where the recomputation differs (XOR, compressed).
Other arrays are compressed with their bytes grouped by significance. A view or array is
encoded once and the encoding reused by the later saves that still hold it unchanged.
"""
from __future__ import annotations

import os
import pathlib
import pickle
import zlib
from typing import Any

import cv2
import numpy as np

from .vision.motion import MotionConfig, View

VERSION = 6  # 2: the watcher keeps its state in its stages (motion, book, judge); 3: views packed small;
# 4: the landing judge keeps a notice for the user (an older checkpoint lacks it: primed from the journal instead);
# 5: ... and when it last fitted a camera move; 6: ... and a fit that found none (LandingJudge.unmoved)
KEEP_OUT = ("recogniser", "_ahead")  # attached again on restore / worked out again from the next frame, never saved
SMALLEST_PACKED = 1024  # bytes: smaller arrays are pickled as they are
LEVEL_TRIES = 40  # float32 steps either side of the estimated exposure factor


def checkpoint_path(journal: pathlib.Path) -> pathlib.Path:
    return journal.with_name(journal.name + ".watch")


def _shuffled(a: np.ndarray) -> bytes:
    """The array's bytes grouped by their place in each item: the high bytes of floats and
    XOR residuals are mostly alike and compress far better together."""
    flat = np.ascontiguousarray(a).view(np.uint8).reshape(-1, a.dtype.itemsize)
    return zlib.compress(np.ascontiguousarray(flat.T).tobytes(), 6)


def _unshuffled(data: bytes, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    dt = np.dtype(dtype)
    planes = np.frombuffer(zlib.decompress(data), np.uint8).reshape(dt.itemsize, -1)
    return np.array(planes.T, order="C").view(dt).reshape(shape)  # a writable copy, as saved


def _ratio(small: np.ndarray, factor: np.float32, motion: tuple[float, float]) -> np.ndarray:
    """motion.Normaliser's ratio of an already small image brought to the level by `factor`."""
    sigma, offset = motion
    f = small.astype(np.float32) * factor + np.float32(offset)
    return cv2.divide(f, cv2.GaussianBlur(f, (0, 0), sigma))


def _exposure_factor(view: View, motion: tuple[float, float]) -> np.float32:
    """The factor (MEAN_LEVEL / level) that the ratio of most of `view` was made with. The level
    of the frame a patched view came from is unknown: it follows from ratio = (k s + c) /
    (k blur(s) + c) at each pixel; the median estimate lands within a few float32 steps, and
    the step that reproduces the most pixels exactly is taken."""
    sigma, offset = motion
    s = view.small.astype(np.float64)
    r = view.ratio.astype(np.float64)
    den = r * cv2.GaussianBlur(view.small.astype(np.float32), (0, 0), sigma).astype(np.float64) - s
    ok = np.abs(den) > 2.0
    if not ok.any():
        return np.float32(1.0)
    guess = np.float32(np.median(offset * (1.0 - r[ok]) / den[ok]))
    bits = view.ratio.view(np.uint32)
    best, best_match = guess, -1
    for step in sorted(range(-LEVEL_TRIES, LEVEL_TRIES + 1), key=abs):
        k = np.float32(guess + np.float32(step) * np.spacing(guess))
        match = int(np.count_nonzero(_ratio(view.small, k, motion).view(np.uint32) == bits))
        if match > best_match:
            best, best_match = k, match
        if best_match >= bits.size // 2:
            break  # the frame's own level: the rest is a strip patched in from an older frame
    return best


def _view_from(png: bytes, factor: np.float32, motion: tuple[float, float], residual: bytes) -> View:
    small = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    bits = _ratio(small, factor, motion).view(np.uint32) ^ _unshuffled(residual, "<u4", small.shape)
    return View(small, bits.view(np.float32))


def _packed_view(view: View, motion: tuple[float, float]) -> tuple[Any, tuple] | None:
    small, ratio = view.small, view.ratio
    if small.dtype != np.uint8 or small.ndim != 3 or ratio.dtype != np.float32 or ratio.shape != small.shape:
        return None
    ok, png = cv2.imencode(".png", small)
    if not ok:
        return None
    factor = _exposure_factor(view, motion)
    residual = _ratio(small, factor, motion).view(np.uint32) ^ ratio.view(np.uint32)
    return _view_from, (png.tobytes(), factor, motion, _shuffled(residual))


def _packed_array(a: np.ndarray) -> tuple[Any, tuple] | None:
    if a.nbytes < SMALLEST_PACKED or a.dtype.kind not in "biuf":
        return None
    return _unshuffled, (_shuffled(a), a.dtype.str, a.shape)


def _fingerprint(obj: Any) -> tuple[int, ...]:
    arrays = (obj.small, obj.ratio) if isinstance(obj, View) else (obj,)
    return tuple(zlib.crc32(np.ascontiguousarray(a).view(np.uint8).data) for a in arrays)


class _Packer(pickle.Pickler):
    """Pickles views and arrays in their small forms; an encoding made for an earlier save is
    reused while the very object is still there with the same content (its checksum)."""

    def __init__(self, file: Any, motion: tuple[float, float], cache: dict[int, tuple[Any, tuple, Any]]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.motion = motion
        self.cache = cache  # id -> (the object, held so that its id stays its own; fingerprint; encoding)
        self.seen: set[int] = set()

    def reducer_override(self, obj: Any) -> Any:
        if not isinstance(obj, (View, np.ndarray)):
            return NotImplemented
        fingerprint = _fingerprint(obj)
        cached = self.cache.get(id(obj))
        if cached is None or cached[0] is not obj or cached[1] != fingerprint:
            packed = _packed_view(obj, self.motion) if isinstance(obj, View) else _packed_array(obj)
            cached = self.cache[id(obj)] = (obj, fingerprint, packed)
        self.seen.add(id(obj))
        return NotImplemented if cached[2] is None else cached[2]


class WatchCheckpoint:
    def __init__(self, journal: pathlib.Path, source: str) -> None:
        self.path = checkpoint_path(pathlib.Path(journal))
        self.source = source
        self._packed: dict[int, tuple[Any, tuple, Any]] = {}

    def save(self, watcher: Any, frame: int, last_frame: int | None) -> None:
        state = {k: v for k, v in vars(watcher).items() if k not in KEEP_OUT}
        mc = getattr(getattr(watcher, "config", None), "motion", None) or MotionConfig()
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(tmp, "wb") as out:
                packer = _Packer(out, (float(mc.norm_sigma), float(mc.dark_offset)), self._packed)
                packer.dump({"version": VERSION, "source": self.source, "frame": frame,
                             "last_frame": last_frame, "state": state})
            os.replace(tmp, self.path)
        except OSError:
            return  # a full disk costs only the seek: the journal has every record, a resume primes
        # forget what the watcher has let go of
        self._packed = {k: v for k, v in self._packed.items() if k in packer.seen}

    def restore(self, watcher: Any, last_frame: int | None) -> int | None:
        """Put the saved state into `watcher` and return the frame it was saved at, or None
        (no usable checkpoint: the watcher is left as it was)."""
        try:
            saved = pickle.loads(self.path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError,
                zlib.error, cv2.error):
            return None
        if not isinstance(saved, dict) or saved.get("version") != VERSION or saved.get("source") != self.source:
            return None
        saved_last = saved.get("last_frame")
        if last_frame is None or saved_last is None or saved_last > last_frame:
            return None  # another run's, or a journal cut short since
        vars(watcher).update(saved["state"])
        return int(saved["frame"])
