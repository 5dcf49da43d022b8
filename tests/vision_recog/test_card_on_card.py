"""A card lying on a card of another colour, as on the pile. Where the cards are small, the
closing that joins a clone print's field halves also joins the top card's field to the one
below across its white border; the field of the top card's ink alone still parts from it."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import ASPECT, render_card
from tableref.vision.classify_training import paste
from tableref.vision.find_card import order_quad


def _outline(cx: float, cy: float, short_side: float, angle: float) -> np.ndarray:
    return order_quad(cv2.boxPoints(((cx, cy), (short_side, short_side * ASPECT), angle)))


@pytest.mark.parametrize("top, below", [("red-draw2", "blue-7"), ("red-5", "green-3"), ("yellow-2", "red-9")])
@pytest.mark.parametrize("short_side, angle", [(70, 20), (70, 35), (90, 35), (90, 60), (110, 60)])
def test_the_top_card_reads_on_a_card_of_another_colour(recogniser, top: str, below: str,
                                                        short_side: int, angle: float) -> None:
    scene = np.full((300, 320, 3), (170, 175, 180), np.uint8)  # a light grey table
    scene = paste(scene, render_card(below, "classic", 200), _outline(170, 160, short_side, 80))
    scene = paste(scene, render_card(top, "classic", 200), _outline(140, 140, short_side, angle))
    assert recogniser.identify(scene).card == top
