"""A card held in a hand against a busy background: its white border runs into a light wall
and its printed field into the (saturated) hand and wooden table, so only the field of its
own ink outlines it (find_card's ink masks)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import render_card

WOOD, WALL, SKIN = (40, 110, 190), (215, 220, 222), (70, 120, 200)  # BGR


def _held(code: str, angle: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.empty((480, 640, 3), np.uint8)
    img[:] = WOOD
    img[:200] = WALL  # behind the top of the card
    img = np.clip(img + rng.normal(0, 10, img.shape), 0, 255).astype(np.uint8)
    face = render_card(code, "clone", 150, np.random.default_rng(1))
    h, w = face.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (330 - w / 2, 240 - h / 2)
    card = cv2.warpAffine(face, m, (640, 480))
    alpha = card[:, :, 3:4].astype(np.float32) / 255
    img = (img * (1 - alpha) + card[:, :, :3] * alpha).astype(np.uint8)
    # a thumb over the card's left edge and the hand below it
    cv2.ellipse(img, (225, 300), (70, 30), 20, 0, 360, SKIN, -1)
    cv2.ellipse(img, (130, 340), (110, 50), 20, 0, 360, SKIN, -1)
    return img


# yellow is left out: its hue borders on wood and skin, so its field merges with them too
@pytest.mark.parametrize("code, angle", [("green-1", -15), ("blue-4", -9), ("green-5", 3), ("blue-2", 9)])
def test_a_card_held_against_a_busy_background_is_read(recogniser, code: str, angle: float) -> None:
    assert recogniser.identify(_held(code, angle, 0)).card == code
