"""Photos as worse cameras take them, for measuring (tools/eval_photos.py --camera): what a
held-out deck's photos may add to the dev photos' own faults. Each fault's random parts come
from a generator seeded by the photo's name, so a run reads the same pictures every time.

  motion   a hand-held shake: blurred along a line 1.5% of the photo's longer side
  defocus  out of focus: a Gaussian blur of 0.6% of the longer side
  tilt     taken at a slant: a camera pitched 30 degrees off square-on, so the far edge is a
           quarter narrower and the table foreshortened (a card looks squat, and smaller
           the farther it lies), the near edge spanning the frame
  lowres   a 480 px wide picture at JPEG quality 35
  dark     a dim room on a phone that leaves it dim: gamma 1.8 and 60% of the light
  noisy    a sensor's noise at high gain, 8 levels
"""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np


def smear(img: np.ndarray, shift: tuple[float, float] | np.ndarray) -> np.ndarray:
    """`img` blurred along `shift` (dx, dy in px): the camera moved that far while the shutter
    was open (other_clips' knocked camera too)."""
    length = float(np.hypot(*shift))
    if length == 0:
        return img
    n = max(2, int(length))
    kernel = np.zeros((2 * n + 1, 2 * n + 1), np.float32)
    cv2.line(kernel, (n, n), (int(n + shift[0] / length * n), int(n + shift[1] / length * n)), 1.0, 1)
    return cv2.filter2D(img, -1, kernel / kernel.sum())


def motion(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    length, turn = 0.015 * max(img.shape[:2]), rng.uniform(0, 2 * np.pi)
    return smear(img, (length * np.cos(turn), length * np.sin(turn)))


def defocus(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return cv2.GaussianBlur(img, (0, 0), 0.006 * max(img.shape[:2]))


def pitched(w: int, h: int, degrees: float) -> np.ndarray:
    """Table -> photo (3x3 homography) for a w x h picture of a table seen by a camera as far
    off as the picture's longer side, pitched `degrees` about the picture's middle, the top the
    far side: a real slant foreshortens as it narrows. Scaled so the near edge spans the frame,
    centred top to bottom."""
    far = max(w, h)
    sin, cos = np.sin(np.radians(degrees)), np.cos(np.radians(degrees))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    x, y = src[:, 0] - w / 2, src[:, 1] - h / 2
    depth = far - y * sin
    seen = np.stack([far * x / depth, far * y * cos / depth], axis=1)
    seen = seen * (w / (seen[2, 0] - seen[3, 0]))
    seen[:, 1] += h / 2 - (seen[0, 1] + seen[2, 1]) / 2
    seen[:, 0] += w / 2
    return cv2.getPerspectiveTransform(src, seen.astype(np.float32))


def _tilted(w: int, h: int) -> np.ndarray:
    # pitched until the far edge is a quarter narrower than the near one (a keystone alone
    # would stretch cards taller, which no camera does): (far - h/2 sin) / (far + h/2 sin) = 3/4
    sin = min(0.9, 0.25 * max(w, h) / (0.875 * h))
    return pitched(w, h, float(np.degrees(np.arcsin(sin))))


def tilt(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    return cv2.warpPerspective(img, _tilted(w, h), (w, h), borderMode=cv2.BORDER_REPLICATE)


LOWRES_WIDTH = 480


def lowres(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    small = cv2.resize(img, (LOWRES_WIDTH, round(h * LOWRES_WIDTH / w)), interpolation=cv2.INTER_AREA)
    return cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 35])[1], cv2.IMREAD_COLOR)


def dark(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip((img.astype(np.float32) / 255) ** 1.8 * 0.6 * 255, 0, 255).astype(np.uint8)


def noisy(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(img + rng.normal(0, 8, img.shape), 0, 255).astype(np.uint8)


FAULTS: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]] = {
    "motion": motion, "defocus": defocus, "tilt": tilt, "lowres": lowres, "dark": dark, "noisy": noisy}


def moved(fault: str, w: int, h: int) -> np.ndarray:
    """Where `fault` moves each point of a w x h picture (3x3 homography): a scene's true
    outlines, moved so, lie on the faulty picture (tools/eval_spreads.py --camera)."""
    if fault == "tilt":
        return _tilted(w, h)
    if fault == "lowres":
        return np.diag([LOWRES_WIDTH / w, round(h * LOWRES_WIDTH / w) / h, 1.0])
    return np.eye(3)


def as_taken(img: np.ndarray, fault: str, name: str) -> np.ndarray:
    """`img` (the photo called `name`) as a camera with `fault` takes it."""
    if fault not in FAULTS:
        raise ValueError(f"unknown camera fault {fault!r}: one of {', '.join(FAULTS)}")
    return FAULTS[fault](img, np.random.default_rng(list(name.encode())))
