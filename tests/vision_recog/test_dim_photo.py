"""A card photographed in dim light on a light table: its printed field comes out darker than
a fixed brightness floor, and the white border melts into the table, so only the field can
outline the card. The field's floor follows the photo's paper brightness."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import ASPECT, render_card
from tableref.vision.classify_training import paste
from tableref.vision.find_card import order_quad

SIDE = 480


def _dim_scene(code: str, style: str, gain: float) -> np.ndarray:
    card = render_card(code, style, 300)
    paper = card[5, card.shape[1] // 2, :3].astype(np.float32) * gain
    # light wood: the card's own dimmed paper colour, grained along one direction
    grain = cv2.resize(np.random.default_rng(3).normal(0, 14, (SIDE, 24)), (SIDE, SIDE),
                       interpolation=cv2.INTER_CUBIC)
    scene = np.clip(paper[None, None, :] + grain[:, :, None] + 6, 0, 255).astype(np.uint8)
    card[:, :, :3] = (card[:, :, :3] * gain).astype(np.uint8)
    outline = order_quad(cv2.boxPoints(((SIDE / 2, SIDE / 2), (230, 230 * ASPECT), 8)))
    scene = paste(scene, card, outline)
    # the lamp lights one corner more than the opposite one
    ramp = np.linspace(1.2, 0.8, SIDE)[:, None, None] * np.linspace(0.8, 1.2, SIDE)[None, :, None]
    return np.clip(scene * ramp, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("gain", [0.35, 0.4])
@pytest.mark.parametrize("style", ["classic", "clone"])
@pytest.mark.parametrize("code", ["green-reverse", "green-draw2", "green-3", "blue-5"])
def test_a_card_in_dim_light_on_a_light_table_reads(recogniser, code: str, style: str, gain: float) -> None:
    assert recogniser.identify(_dim_scene(code, style, gain)).card == code
