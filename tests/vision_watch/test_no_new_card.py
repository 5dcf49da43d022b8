"""PileWatcher and settled changes that are no new card: fingertips left over the pile; and a
card that cannot be read, which reads like an empty hand at rest but is reported at once
(with card null). Empty hands from the scene generator: test_hovering_hands.py."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import _GRAIN, CARD, FPS, BrightCardReader, paint_card, table, with_arm

SKIN = np.array([120, 160, 210])


class BlindReader(BrightCardReader):
    """Outlines the card but cannot make out what it is (glare, a deck it does not know)."""

    def classify_card(self, warped: np.ndarray) -> tuple[str | None, float]:
        return None, 0.0


def _run(frames: list[np.ndarray], reader: BrightCardReader = BrightCardReader(),
         region: tuple[int, int, int, int] | None = None) -> list[dict]:
    watcher = PileWatcher(reader, region)
    out = []
    for i, img in enumerate(frames):
        out += [e.as_json() for e in watcher.feed(i, i / FPS, img)]
    return out


def test_a_card_that_cannot_be_read_is_reported_at_once() -> None:
    # Brought by an arm that leaves across the edge: an empty hand at rest also reads as no
    # card, but the last motion here took something away, so the card does not wait.
    card = _u8(_with_card())
    frames = [_u8(table())] * 10 + [with_arm(card)] * 5 + [card] * 50
    events = _run(frames, reader=BlindReader())
    assert [(e["event"], e["card"]) for e in events] == [("landed", None)]
    assert events[0]["frame"] <= 15 + 4


@pytest.mark.parametrize("region", [None, (60, 20, 200, 200)])
def test_fingertips_left_over_the_pile_are_no_new_card(region: tuple[int, int, int, int] | None) -> None:
    # a card lands; then fingertips (a fifth of a card or less) rest on its near end for 2 s
    # and go: neither is a card (the reader would find the card beneath and read it again).
    # A region given by the user learns the cards' size from the landings all the same.
    card = _u8(_with_card())
    tips = _with_card()
    tips[165:180, 150:170] = SKIN + 2 * _GRAIN[165:180, 150:170]
    tips = _u8(tips)
    frames = ([_u8(table())] * 10 + [with_arm(card)] * 5 + [card] * 20
              + [with_arm(tips)] * 3 + [tips] * 50 + [with_arm(card)] * 3 + [card] * 20)
    assert [(e["event"], e["card"]) for e in _run(frames, region=region)] == [("landed", "red-6")]


def _with_card() -> np.ndarray:
    img = table()
    paint_card(img, CARD)
    return img


def _u8(img: np.ndarray) -> np.ndarray:
    return np.clip(img, 0, 255).astype(np.uint8)
