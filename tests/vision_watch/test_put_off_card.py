"""A landing put off because something lies beside the card (a phone put down with it, no
hand) must not be lost when the next card comes onto it before a second has passed with
nothing moving. Nor must a card read unsurely while the hand that left it is still going,
when the next player's hand brings a card onto it before all is still. A card that a hand
held and then dropped elsewhere is still reported once."""
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


class UnsureReader:
    """The recogniser, reading right but less surely: as it reads a worn card or a photo."""

    def __init__(self, recogniser: Recogniser) -> None:
        self.recogniser = recogniser

    def find_cards(self, crop: np.ndarray) -> list[np.ndarray]:
        return self.recogniser.find_cards(crop)

    def classify_card(self, warped: np.ndarray) -> tuple[str | None, float]:
        card, confidence = self.recogniser.classify_card(warped)
        return card, 0.8 * confidence


def _frame(cards: list[tuple[np.ndarray, np.ndarray]], phone: bool = False, arm: bool = False,
           hand: tuple[int, int] | None = None, right: int | None = None, left: int | None = None) -> np.ndarray:
    """The table with `cards` (face, outline) bottom first, a phone beside the pile, an arm
    reaching in from the right edge (to x = 185, or `right`), one from the left edge to x =
    `left`, or a hand whose fingers end at `hand` (x, y)."""
    img = np.clip(table(), 0, 255).astype(np.uint8)
    if phone:
        img[150:215, 200:240] = (40, 40, 45)
    for face, outline in cards:
        img = paste(img, face, outline)
    if arm or right is not None:
        img[95:125, 185 if right is None else right:] = SKIN
    if left is not None:
        img[100:130, :left] = SKIN
    if hand is not None:  # fingers over the card's lower end; the sleeve is the table's colour
        x, y = hand
        img[y:y + 60, x - 25:x + 25] = SKIN
    return img


def _events(recogniser: Recogniser | UnsureReader, frames: list[np.ndarray]) -> list[tuple[str, str | None]]:
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


def _handover(first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray] | None,
              step_out: int, step_in: int, wait: int) -> list[np.ndarray]:
    """A hand leaves `first` on the pile and its arm withdraws to the right, `step_out` px a
    frame; `wait` frames after it starts to, the next arm comes in from the left, `step_in`
    px a frame, lays `second` (if any) onto it and withdraws: something moves throughout."""
    out = list(range(185 + step_out, 320, step_out))
    into = list(range(step_in, 150, step_in))
    frames = [_frame([])] * 10 + [_frame([first], right=185)] * 2
    for i in range(max(len(out), wait + len(into))):
        frames.append(_frame([first], right=out[i] if i < len(out) else None,
                             left=into[i - wait] if 0 <= i - wait < len(into) else None))
    pile = [first] if second is None else [first, second]
    frames += [_frame(pile, left=150)] * 2 + [_frame(pile, left=x) for x in range(130, 0, -step_in)]
    return frames + [_frame(pile)] * 40


@pytest.mark.parametrize("step_out,step_in,wait", [(20, 20, 5), (10, 20, 3), (20, 10, 4)])
def test_an_unsure_card_covered_before_all_is_still_is_still_reported(recogniser: Recogniser, step_out: int,
                                                                       step_in: int, wait: int) -> None:
    first = (RED, _outline(150, 120, 10))
    second = (BLUE, _outline(170, 110, -25))
    frames = _handover(first, second, step_out, step_in, wait)
    assert _events(UnsureReader(recogniser), frames) == [("landed", "red-6"), ("landed", "blue-2")]


def test_an_unsure_card_that_the_next_hand_only_passes_is_reported_once(recogniser: Recogniser) -> None:
    frames = _handover((RED, _outline(150, 120, 10)), None, 20, 20, 5)
    assert _events(UnsureReader(recogniser), frames) == [("landed", "red-6")]
