"""Frame sources: a camera, a video file, an image sequence, or a seeded synthetic scene.

`open_source(spec)` returns an iterable of `Frame(index, t, image)`; for files and
sequences `t` is video time (index / fps), for a camera it is seconds since opening. Files,
sequences and synthetic scenes can `seek(index)` before they are read: the next frame read is
that one (a resumed run goes on where it stopped).
Bad input raises `UserError` with the path or index in the message.
"""
from __future__ import annotations

import glob
import logging
import os
import pathlib
import re
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, NamedTuple, Protocol

import cv2
import numpy as np

from tableref.errors import UserError

log = logging.getLogger(__name__)

IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
DEFAULT_FPS = 25.0


class Frame(NamedTuple):
    index: int
    t: float
    image: np.ndarray


class FrameSource(Protocol):
    fps: float
    description: str

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


@contextmanager
def _no_stderr() -> Iterator[None]:
    """Send file descriptor 2 to /dev/null: FFmpeg prints probe failures ("moov atom not
    found") straight to it, which would add a second, cryptic error line."""
    try:
        saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # pragma: no cover - no fd 2 to silence
        yield
        return
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


@contextmanager
def _quiet_opencv() -> Iterator[None]:
    """Silence OpenCV's own warnings while probing, so bad input gives one line, ours."""
    try:
        old = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except AttributeError:  # pragma: no cover - builds without the logging module
        yield
        return
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(old)


class VideoFileSource:
    def __init__(self, path: str):
        p = pathlib.Path(path)
        if not p.exists():
            raise UserError(f"no such video file: {path}")
        if p.is_dir():
            raise UserError(f"{path} is a folder; give a video file, or a folder of images as an image sequence")
        if p.stat().st_size == 0:
            raise UserError(f"video file is empty (0 bytes): {path}")
        if p.suffix.lower() in IMAGE_EXTS:
            raise UserError(f"{path} is a single image, not a video; pass its folder or a pattern "
                            "like dir/%04d.png to read an image sequence")
        if not os.access(p, os.R_OK):
            raise UserError(f"cannot read video file (permission denied): {path}")
        self.path = path
        self.description = path
        with _quiet_opencv(), _no_stderr():
            cap = cv2.VideoCapture(path, cv2.CAP_FFMPEG)
            ok, first = cap.read() if cap.isOpened() else (False, None)
        if not ok or first is None:
            cap.release()
            raise UserError(f"cannot read video from {path}: not a video file, or a codec this OpenCV cannot decode")
        fps = cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and np.isfinite(fps) and 1 <= fps <= 1000 else DEFAULT_FPS
        self._cap: Any = cap
        self._first: np.ndarray | None = first
        self._next = 1  # the index of the frame the capture reads next

    def seek(self, index: int) -> None:
        """Read from frame `index` on. The container's seek is used when the capture then
        stands exactly there; otherwise the frames before it are decoded and dropped."""
        if index <= 0 or self._cap is None:
            return
        self._first = None
        with _quiet_opencv():
            if self._cap.set(cv2.CAP_PROP_POS_FRAMES, index) and round(self._cap.get(cv2.CAP_PROP_POS_FRAMES)) == index:
                self._next = index
                return
            self._cap.release()
            self._cap = cv2.VideoCapture(self.path, cv2.CAP_FFMPEG)
            self._next = 0
            while self._next < index and self._cap.grab():
                self._next += 1

    def __iter__(self) -> Iterator[Frame]:
        index = self._next
        if self._first is not None:
            yield Frame(0, 0.0, self._first)
            self._first = None
        while self._cap is not None:
            with _quiet_opencv():
                ok, img = self._cap.read()
            if not ok or img is None:
                break  # end of file, or a truncated tail: stop cleanly with what was read
            yield Frame(index, index / self.fps, img)
            index += 1

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageSequenceSource:
    """`dir/%04d.png` (printf pattern) or a folder (image files in name order)."""

    def __init__(self, spec: str, fps: float = DEFAULT_FPS):
        self.fps = fps
        self.description = spec
        if "%" in spec:
            folder = pathlib.Path(spec).parent
            if not folder.is_dir():
                raise UserError(f"no such folder for image sequence: {folder}")
            try:
                regex = re.compile("^" + re.sub(r"%0?(\d*)d", lambda m: r"(\d+)", re.escape(pathlib.Path(spec).name)
                                                .replace(r"\%", "%")) + "$")
            except re.error:
                raise UserError(f"bad image sequence pattern: {spec}") from None
            numbered = []
            for name in os.listdir(folder):
                m = regex.match(name)
                if m:
                    numbered.append((int(m.group(1)), folder / name))
            files = [p for _, p in sorted(numbered)]
        else:
            folder = pathlib.Path(spec)
            files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_EXTS)
        if not files:
            raise UserError(f"no images found for image sequence {spec}")
        self.files: list[pathlib.Path] = files
        self._start = 0

    def seek(self, index: int) -> None:
        self._start = max(0, index)

    def __iter__(self) -> Iterator[Frame]:
        for index, path in enumerate(self.files[self._start:], self._start):
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if img is None:
                raise UserError(f"cannot read image {path} (frame {index} of sequence {self.description})")
            yield Frame(index, index / self.fps, img)

    def close(self) -> None:
        pass


class CameraSource:
    """A live camera that survives dropped frames and unplug/replug: it reopens with backoff.

    `opener`, `sleep` and `clock` are injectable so the recovery logic can be exercised
    without hardware.
    """

    def __init__(self, index: int, opener: Callable[[int], Any] | None = None,
                 sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic,
                 max_failures: int = 5, max_backoff: float = 5.0, give_up_after: float | None = None):
        self.index = index
        self.description = f"camera {index}"
        self._opener = opener or (lambda i: cv2.VideoCapture(i))
        self._sleep = sleep
        self._clock = clock
        self.max_failures = max_failures
        self.max_backoff = max_backoff
        self.give_up_after = give_up_after
        self.reopens = 0
        with _quiet_opencv(), _no_stderr():
            cap = self._opener(index)
        if cap is None or not cap.isOpened():
            if cap is not None:
                cap.release()
            raise UserError(f"no camera at index {index} (could not open /dev/video{index}); "
                            "check it is plugged in and not in use")
        self._cap: Any = cap
        fps = cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and np.isfinite(fps) and fps > 0 else 30.0
        self._t0 = clock()

    def _reopen(self) -> None:
        """Release and reopen until the camera answers, waiting 0.25, 0.5, 1, ... max_backoff s."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        delay = 0.25
        started = self._clock()
        while True:
            if self.give_up_after is not None and self._clock() - started > self.give_up_after:
                raise UserError(f"camera {self.index} is gone (no frames for {self.give_up_after:.0f} s)")
            log.warning("camera %d: no frames, reopening in %.2f s", self.index, delay)
            self._sleep(delay)
            with _quiet_opencv():
                cap = self._opener(self.index)
            if cap is not None and cap.isOpened():
                self._cap = cap
                self.reopens += 1
                return
            if cap is not None:
                cap.release()
            delay = min(delay * 2, self.max_backoff)

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        failures = 0
        while True:
            if self._cap is None:
                self._reopen()
            with _quiet_opencv():
                ok, img = self._cap.read()
            if ok and img is not None:
                failures = 0
                yield Frame(index, self._clock() - self._t0, img)
                index += 1
                continue
            failures += 1  # a dropped frame; several in a row means the camera went away
            if failures >= self.max_failures:
                failures = 0
                self._reopen()

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class SynthSource:
    """A seeded synthetic pile scene rendered frame by frame (constant memory, any length)."""

    def __init__(self, spec: str):
        from tableref.vision.synth.scene import SynthScene, parse_spec

        self.scene = SynthScene(parse_spec(spec))
        self.fps = self.scene.fps
        self.description = spec
        self._start = 0

    def ground_truth(self) -> dict:
        return self.scene.ground_truth()

    def seek(self, index: int) -> None:
        self._start = max(0, index)

    def __iter__(self) -> Iterator[Frame]:
        for i in range(self._start, self.scene.n_frames):
            yield Frame(i, i / self.fps, self.scene.frame(i))

    def close(self) -> None:
        pass


def open_source(spec: str, fps: float | None = None) -> FrameSource:
    """Open `spec`: `"0"` (camera index), a video file, `dir/%04d.png` or a folder, or `synth:...`.

    `fps` sets the frame rate of an image sequence (default 25).
    """
    spec = str(spec)
    if spec.startswith("synth:") or spec == "synth":
        return SynthSource(spec)
    if spec.isdigit():
        return CameraSource(int(spec))
    if "%" in spec or os.path.isdir(spec):
        return ImageSequenceSource(spec, fps or DEFAULT_FPS)
    if any(ch in spec for ch in "*?[") and not os.path.exists(spec):
        matches = glob.glob(spec)
        raise UserError(f"globs are not sources: {spec} ({len(matches)} matches); pass a folder or dir/%04d.png")
    return VideoFileSource(spec)
