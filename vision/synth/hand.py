"""A hand and forearm seen from above: polygons for palm, fingers, thumb, arm and sleeve.

The geometry is a pure function of the grip point (where the fingertips pinch a card), the
direction the arm points (from the player towards the pile) and the size unit (a card's
short side in pixels), so the script can test where the hand is without drawing it.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (150, 180, 225), (120, 160, 210), (95, 135, 190), (70, 105, 160), (50, 75, 120), (140, 170, 230),
)
SLEEVES: tuple[tuple[int, int, int], ...] = (
    (40, 40, 40), (150, 60, 30), (40, 40, 160), (200, 200, 200), (60, 120, 60), (90, 90, 120), (180, 130, 60),
)


@dataclass(frozen=True)
class HandLook:
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    handed: int  # +1 or -1: which side the thumb is on

    @staticmethod
    def random(rng: np.random.Generator) -> "HandLook":
        skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
        sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))]
        return HandLook(skin, sleeve, 1 if rng.random() < 0.5 else -1)


@dataclass(frozen=True)
class HandPart:
    points: np.ndarray  # (N, 2) float32 image coordinates
    kind: str  # "skin" or "sleeve"


def _ellipse(centre: np.ndarray, along: np.ndarray, a: float, b: float, n: int = 24) -> np.ndarray:
    across = np.array([-along[1], along[0]])
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return (centre + np.outer(np.cos(t) * a, along) + np.outer(np.sin(t) * b, across)).astype(np.float32)


def _segment(p0: np.ndarray, p1: np.ndarray, half_width: float) -> np.ndarray:
    """An elongated ellipse from p0 to p1 (a finger)."""
    v = p1 - p0
    length = float(np.hypot(*v)) or 1.0
    return _ellipse((p0 + p1) / 2, v / length, length / 2, half_width, 16)


def hand_parts(grip: tuple[float, float], direction: tuple[float, float], unit: float,
               look: HandLook, reach: float = 12.0) -> list[HandPart]:
    """Polygons of the hand, drawn back to front (sleeve first, fingers last).

    `direction` points from the player towards the grip; the arm extends `reach` units
    behind the palm so that it always leaves the frame.
    """
    g = np.asarray(grip, np.float64)
    d = np.asarray(direction, np.float64)
    d = d / (np.hypot(*d) or 1.0)
    n = np.array([-d[1], d[0]]) * look.handed
    u = unit * 1.5  # a palm is about one and a half card widths across
    palm = g - d * 0.55 * u
    wrist = palm - d * 0.45 * u
    elbow = wrist - d * 2.4 * u
    far = wrist - d * reach * u
    parts = [
        HandPart(np.array([elbow + n * 0.5 * u, far + n * 0.55 * u, far - n * 0.55 * u, elbow - n * 0.5 * u],
                          np.float32), "sleeve"),
        HandPart(np.array([wrist + n * 0.3 * u, elbow + n * 0.42 * u, elbow - n * 0.42 * u, wrist - n * 0.3 * u],
                          np.float32), "skin"),
        HandPart(_ellipse(palm, d, 0.5 * u, 0.44 * u), "skin"),
    ]
    for off, extra in ((-0.27, -0.06), (-0.09, 0.02), (0.09, 0.0), (0.27, -0.1)):
        base = palm + d * 0.2 * u + n * off * u
        tip = g + d * (0.08 + extra) * u + n * off * 0.85 * u
        parts.append(HandPart(_segment(base, tip, 0.085 * u), "skin"))
    thumb_base = palm + n * 0.32 * u - d * 0.15 * u
    thumb_tip = g + n * 0.42 * u - d * 0.05 * u
    parts.append(HandPart(_segment(thumb_base, thumb_tip, 0.1 * u), "skin"))
    return parts


def parts_bbox(parts: list[HandPart]) -> tuple[float, float, float, float]:
    pts = np.concatenate([p.points for p in parts])
    return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


def draw_hand(layer: np.ndarray, alpha: np.ndarray, origin: tuple[int, int], parts: list[HandPart],
              look: HandLook, grip: tuple[float, float], direction: tuple[float, float], unit: float) -> None:
    """Paint the hand into `layer` (float32 BGR) and `alpha` (float32 0..1), both ROI-sized.

    Shading darkens towards the sides of the arm so that it reads as a rounded limb.
    """
    h, w = alpha.shape
    ox, oy = origin
    colour_mask = np.zeros((h, w), np.uint8)  # 1 = skin, 2 = sleeve
    cover = np.zeros((h, w), np.uint8)
    for part in parts:
        pts = np.round((part.points - (ox, oy)) * 16).astype(np.int32)
        cv2.fillPoly(cover, [pts], 255, cv2.LINE_AA, shift=4)
        cv2.fillPoly(colour_mask, [pts], 1 if part.kind == "skin" else 2, cv2.LINE_8, shift=4)
        if part.kind == "skin":
            # finger and palm outlines: the dark creases that separate fingers on a real hand
            cv2.polylines(colour_mask, [pts], True, 3, 1, cv2.LINE_8, shift=4)
    d = np.asarray(direction, np.float32)
    d = d / (np.hypot(*d) or 1.0)
    nrm = np.array([-d[1], d[0]], np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = ((xx + ox - grip[0]) * nrm[0] + (yy + oy - grip[1]) * nrm[1]) / (0.8 * unit)
    shade = 1.05 - 0.35 * np.clip(across * across, 0, 1.6)
    skin = np.array(look.skin, np.float32)
    sleeve = np.array(look.sleeve, np.float32)
    body = np.where((colour_mask == 2)[..., None], sleeve, skin)
    body = np.where((colour_mask == 3)[..., None], skin * 0.7, body)
    a = cover.astype(np.float32) / 255.0
    a3 = a[..., None]
    layer *= 1 - a3
    layer += body * shade[..., None] * a3
    np.maximum(alpha, a, out=alpha)
