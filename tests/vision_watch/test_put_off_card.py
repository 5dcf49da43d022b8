"""A landing put off because something lies beside the card (a phone put down with it, no
hand) must not be lost when the next card comes onto it before a second has passed with
nothing moving. A card that a hand held and then dropped elsewhere is still reported once."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import ASPECT, render_card
from tableref.vision.classify_training import paste
from tableref.vision.find_card import order_quad
from tableref.vision.recognise import Recogniser
from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import FPS, table

RED = render_card("red-6", "classic", 160)
BLUE = render_card("blue-2", "classic", 160)
SKIN = np.array([120, 160, 210])


@pytest.fixture(scope="module")
def recogniser() -> Recogniser:
    return Recogniser(deck="uno")


def _outline(cx: float, cy: float, angle: float) -> np.ndarray:
    return order_quad(cv2.boxPoints(((cx, cy), (56, 56 * ASPECT), angle)))


def _frame(cards: list[tuple[np.ndarray, np.ndarray]], phone: bool = False, arm: bool = False,
           hand: tuple[int, int] | None = None) -> np.ndarray:
    """The table with `cards` (face, outline) bottom first, a phone beside the pile, an arm
    reaching in from the right edge, or a hand whose fingers end at `hand` (x, y)."""
    img = np.clip(table(), 0, 255).astype(np.uint8)
    if phone:
        img[150:215, 200:240] = (40, 40, 45)
    for face, outline in cards:
        img = paste(img, face, outline)
    if arm:
        img[95:125, 185:] = SKIN
    if hand is not None:  # fingers over the card's lower end; the sleeve is the table's colour
        x, y = hand
        img[y:y + 60, x - 25:x + 25] = SKIN
    return img


def _events(recogniser: Recogniser, frames: list[np.ndarray]) -> list[tuple[str, str | None]]:
    watcher = PileWatcher(recogniser)
    return [(e.event, e.card) for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]


@pytest.mark.parametrize("still", [10, 15])
def test_a_card_put_off_and_then_covered_is_still_reported(recogniser: Recogniser, still: int) -> None:
    first = (RED, _outline(150, 120, 10))
    second = (BLUE, _outline(170, 110, -25))
    frames = ([_frame([])] * 10 + [_frame([first], phone=True, arm=True)] * 2 + [_frame([first], phone=True)] * still
              + [_frame([first, second], phone=True, arm=True)] * 2 + [_frame([first, second], phone=True)] * 50)
    assert _events(recogniser, frames) == [("landed", "red-6"), ("landed", "blue-2")]


def test_a_card_held_and_then_dropped_elsewhere_is_reported_once(recogniser: Recogniser) -> None:
    held = (RED, _outline(150, 110, 10))
    dropped = (RED, _outline(165, 135, 40))
    frames = ([_frame([])] * 10 + [_frame([held], arm=True, hand=(150, 150))] * 2 + [_frame([held], hand=(150, 150))] * 15
              + [_frame([dropped], hand=(150, 190))] * 2 + [_frame([dropped])] * 50)
    assert _events(recogniser, frames) == [("landed", "red-6")]
