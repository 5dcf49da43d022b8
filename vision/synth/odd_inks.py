"""Single-card photos for measuring the recogniser on faces it was not made on: a face laid on
a table texture at a random place, angle and size and put through a cheap camera
(`table_shot`); and the faces of a deck printed in other inks than any the readers were made
on, every ink turned the same number of hue steps round the colour circle (a lime yellow, an
orange red): what enrolment must teach the readers (see deck_inks)."""
from __future__ import annotations

import cv2
import numpy as np

from ..cardface import render_card
from ..classify_training import camera_effects, card_quad, paste
from .textures import TEXTURES, table_texture


def table_shot(face_bgra: np.ndarray, rng: np.random.Generator, size: tuple[int, int] = (640, 480),
               strength: float = 0.6) -> np.ndarray:
    """A BGR photo of the card `face_bgra` (alpha = its outline) on wood, felt, a dark mat or
    a light top, its short side 22-42% of the frame's height; `strength`: the camera's."""
    w, h = size
    scene = table_texture(TEXTURES[int(rng.integers(len(TEXTURES)))], size, rng)
    quad = card_quad(rng, h, w, rng.uniform(0.22, 0.42) * h)
    return camera_effects(paste(scene, face_bgra, quad), rng, strength=strength)


def odd_ink_shot(code: str, shift: int, rng: np.random.Generator, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A BGR photo (table_shot, a mild camera) of `code` printed with its hues turned by
    `shift` (OpenCV's 0..180 scale)."""
    card = render_card(code, "classic", 200, rng)
    hsv = cv2.cvtColor(card[:, :, :3], cv2.COLOR_BGR2HSV)
    hsv[:, :, 0] = (hsv[:, :, 0].astype(int) + shift) % 180
    face = np.dstack([cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), card[:, :, 3]])
    return table_shot(face, rng, size, strength=0.3)
