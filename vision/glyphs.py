"""The project's own numerals, drawn as thick strokes along hand-made centre lines.

Printed UNO numerals are a bold, rounded sans (a "3" with a round top, a "6" whose stem is a
long open curve, a "1" with a flag and no foot); the Hershey fonts OpenCV ships are thin,
square and serifed, and the recogniser trained on them read real 3s as 8s. These skeletons
are in a box x in [-0.3, 0.3], y in [-0.5, 0.5] (y down), scaled by the stroke-free height.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

Path = list[tuple[float, float]]


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 24) -> Path:
    """Points of an elliptical arc from angle a0 to a1 (degrees, y down: 90 is the bottom)."""
    return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in np.linspace(a0, a1, n)]


def _six() -> list[Path]:
    bowl = _arc(0.0, 0.19, 0.3, 0.31, 0, 360, 36)
    # the stem rises nearly straight up the left side, then curves over to the top right
    stem = [(-0.3, 0.19)] + _arc(0.05, -0.05, 0.35, 0.42, 180, 295, 16)
    return [bowl, stem]


def _rot180(paths: list[Path]) -> list[Path]:
    return [[(-x, -y) for x, y in p] for p in paths]


SKELETONS: dict[str, list[Path]] = {
    "0": [_arc(0.0, 0.0, 0.3, 0.5, 0, 360, 40)],
    "1": [[(0.06, -0.5), (0.06, 0.5)], [(0.06, -0.5), (-0.2, -0.3)]],
    "2": [_arc(0.0, -0.2, 0.29, 0.3, 190, 380, 20) + [(-0.3, 0.5), (0.32, 0.5)]],
    "3": [_arc(0.0, -0.25, 0.26, 0.25, 200, 450, 24) + _arc(0.0, 0.24, 0.3, 0.26, 270, 520, 24)],
    "4": [[(0.12, 0.5), (0.12, -0.5), (-0.32, 0.2), (0.33, 0.2)]],
    "5": [[(0.28, -0.5), (-0.2, -0.5), (-0.25, -0.04)] + _arc(0.0, 0.2, 0.3, 0.3, 232, 500, 24)],
    "6": _six(),
    "7": [[(-0.3, -0.5), (0.31, -0.5), (-0.08, 0.5)]],
    "8": [_arc(0.0, -0.26, 0.24, 0.24, 0, 360, 30), _arc(0.0, 0.23, 0.3, 0.27, 0, 360, 34)],
    "9": _rot180(_six()),
}
# strokes some printings add (training variety, cardface.Printing): a 7 crossed at mid height, a
# 1 standing on a foot
EXTRAS: dict[str, list[Path]] = {
    "7": [[(-0.06, 0.02), (0.3, 0.02)]],
    "1": [[(-0.2, 0.5), (0.32, 0.5)]],
}
ADVANCE = 0.82   # distance between digit centres of a two-digit number, in heights
GLYPH_WIDTH = 0.66  # widest skeleton (the 4), in stroke-free heights


def text_width(text: str, height: float, weight: float) -> float:
    """Outer width of `text` drawn by draw_numeral."""
    n = len(text)
    return height * (ADVANCE * (n - 1) + GLYPH_WIDTH * (1 - weight) + weight)


def draw_numeral(img: np.ndarray, text: str, cx: float, cy: float, height: float, colour: tuple[int, int, int],
                 weight: float = 0.2, italic: float = 0.0, extra: float = 0.0, extras: bool = False) -> None:
    """Draw the digits of `text` centred at (cx, cy), `height` tall including the stroke.
    `weight`: stroke as a share of the height; `italic`: shear (top leans right by this share
    of the height); `extra`: px added to the stroke (outline layers); `extras`: the EXTRAS strokes too."""
    inner = height * (1 - weight)
    thick = max(1, int(round(height * weight + extra)))
    x0 = cx - ADVANCE * height * (len(text) - 1) / 2
    for k, ch in enumerate(text):
        for path in SKELETONS[ch] + (EXTRAS.get(ch, []) if extras else []):
            pts = np.array([(x0 + k * ADVANCE * height + (x - italic * y) * inner, cy + y * inner) for x, y in path])
            cv2.polylines(img, [np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)], False, colour, thick,
                          cv2.LINE_AA, shift=4)


def underline_box(cx: float, cy: float, height: float, weight: float) -> tuple[float, float, float, float]:
    """(x0, x1, y, thickness) of the bar printed under a 6 or a 9: a separate bar a little
    below the digit, about as thick as the stroke."""
    w = height * 0.62
    y = cy + height * 0.5 + height * 0.17
    return cx - w / 2, cx + w / 2, y, height * weight * 0.8


def is_numeral(text: str) -> bool:
    return bool(text) and all(ch in SKELETONS for ch in text)
