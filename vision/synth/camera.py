"""What the camera adds: tilt (perspective), vignetting, lighting, auto-exposure, noise, compression.

Static parts (tilt, vignette, lamp gradients) are folded into cached images by the scene;
per-frame parts (exposure gain, sensor noise, JPEG) are cheap whole-frame operations.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .script import LightSwitch, Script


def random_tilt(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Homography table -> image: a camera a few degrees off vertical and slightly rotated."""
    w, h = size
    src = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    k = rng.uniform(0.0, 0.07)
    side = rng.integers(4)  # which edge is further from the camera (appears shorter)
    dst = src.copy()
    a, b = side, (side + 1) % 4
    centre = np.array([w / 2, h / 2], np.float32)
    for i in (a, b):
        dst[i] = dst[i] + (centre - dst[i]) * k
    ang = math.radians(rng.uniform(-3, 3))
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]], np.float32)
    dst = (dst - centre) @ rot.T + centre
    # keep the table filling the frame: scale up about the centre
    dst = (dst - centre) * 1.08 + centre
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def vignette(size: tuple[int, int], strength: float) -> np.ndarray:
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    return (1.0 - strength * r2 / 2).astype(np.float32)


def lamp_map(size: tuple[int, int], switch: LightSwitch) -> np.ndarray:
    """Spatial light of a lamp that was switched on/off: a linear gradient across the table."""
    w, h = size
    strength, dx, dy = switch.lamp
    n = math.hypot(dx, dy) or 1.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xx - w / 2) * dx / n + (yy - h / 2) * dy / n) / (max(w, h) / 2)
    return (1.0 + strength * ramp).astype(np.float32)


def exposure_gain(script: Script, frame: int) -> tuple[float, float, float]:
    """Per-channel gain at `frame`: slow drift times the light steps not yet undone by auto-exposure."""
    t = frame / script.fps
    amp, period, phase = script.drift
    g = 1.0 + amp * math.sin(2 * math.pi * t / period + phase)
    tint = [1.0, 1.0, 1.0]
    for sw in script.switches:
        if sw.frame > frame:
            break
        dt = (frame - sw.frame) / script.fps
        remaining = script.ae_residual + (1 - script.ae_residual) * math.exp(-dt / script.ae_tau)
        g *= sw.factor ** remaining
        tint = [tint[i] * sw.tint[i] for i in range(3)]
    return g * tint[0], g * tint[1], g * tint[2]


class Sensor:
    """Gaussian sensor noise from a small bank of precomputed fields (cheap per frame)."""

    def __init__(self, size: tuple[int, int], sigma: float, rng: np.random.Generator, bank: int = 5):
        w, h = size
        self.pos: list[np.ndarray] = []
        self.neg: list[np.ndarray] = []
        for _ in range(bank):
            n = rng.normal(0, sigma, (h, w, 1)).astype(np.float32)
            # luminance noise plus a little chroma noise, as a Bayer sensor gives
            n = n + rng.normal(0, sigma * 0.4, (h, w, 3)).astype(np.float32)
            self.pos.append(np.clip(n, 0, 255).astype(np.uint8))
            self.neg.append(np.clip(-n, 0, 255).astype(np.uint8))

    def apply(self, img: np.ndarray, frame: int) -> None:
        k = (frame * 7 + 3) % len(self.pos)
        cv2.add(img, self.pos[k], dst=img)
        cv2.subtract(img, self.neg[k], dst=img)


def jpeg_roundtrip(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        return img
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
