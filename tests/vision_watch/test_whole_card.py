"""After a card is reported early (read surely while the hand was still leaving), a sure
reading of another card once all is still is a second card only on a whole card's outline.
Before the first card has landed the pile has shown no card size, and an outline of one end
of the card (from the oval's edge to the card's end) has a card's proportions: the early
outline gives the size then. Seen on photo clips: a blue 6's lower end read as a blue 1."""
from __future__ import annotations

import cv2
import numpy as np

from tableref.vision.cardface import ASPECT
from tableref.vision.watcher import PileWatcher

SHORT = 40.0  # the early outline's short side, working pixels


def _outline(short: float, long: float, angle: float = 30.0) -> np.ndarray:
    return cv2.boxPoints(((100.0, 80.0), (short, long), angle)).astype(np.float32)


def _started() -> PileWatcher:
    watcher = PileWatcher()
    watcher.feed(0, 0.0, np.full((240, 320, 3), 120, np.uint8))  # an empty table
    return watcher


def test_one_end_of_the_first_card_is_not_a_whole_card() -> None:
    watcher = _started()
    assert watcher.region.card_size == 0
    end = _outline(0.6 * SHORT, SHORT)  # across the card: its width, and 0.6 of it deep
    assert watcher._whole_card(end) is not None  # by proportions alone it passes
    assert watcher._whole_card(end, SHORT) is None


def test_a_whole_card_somewhat_smaller_than_the_early_outline_is_one() -> None:
    # the early outline, read in a moving hand, may take in blur around the card
    watcher = _started()
    card = _outline(0.9 * SHORT, 0.9 * SHORT * ASPECT)
    assert watcher._whole_card(card, SHORT) is not None


def test_the_pile_s_card_size_comes_first() -> None:
    watcher = _started()
    watcher.region.card_size = 0.5 * SHORT  # the cards that landed were this small
    end = _outline(0.6 * SHORT, SHORT)
    assert watcher._whole_card(end, SHORT) is not None
