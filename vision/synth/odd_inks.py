"""Shots of a deck printed in other inks than any the readers were made on: every ink turned
the same number of hue steps round the colour circle (a lime yellow, an orange red), each
card lying at a random place and angle on a dark table. What enrolment must teach the
readers (see deck_inks)."""
from __future__ import annotations

import cv2
import numpy as np

from ..cardface import render_card


def odd_ink_shot(code: str, shift: int, rng: np.random.Generator, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A BGR photo of `code` printed with its hues turned by `shift` (OpenCV's 0..180 scale)."""
    card = render_card(code, "classic", 200, rng)
    hsv = cv2.cvtColor(card[:, :, :3], cv2.COLOR_BGR2HSV)
    hsv[:, :, 0] = (hsv[:, :, 0].astype(int) + shift) % 180
    face = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    w, h = size
    m = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), rng.uniform(-30, 30), 1.0)
    m[:, 2] += (w / 2 - face.shape[1] / 2 + rng.uniform(-w / 10, w / 10),
                h / 2 - face.shape[0] / 2 + rng.uniform(-h / 16, h / 16))
    alpha = cv2.warpAffine(card[:, :, 3], m, size).astype(np.float32)[:, :, None] / 255
    img = np.full((h, w, 3), rng.uniform(40, 90, 3), np.float32) * (1 - alpha) \
        + cv2.warpAffine(face, m, size).astype(np.float32) * alpha
    return np.clip(img * rng.uniform(0.85, 1.05) + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
