"""PileWatcher and settled changes that are no new card: fingertips left over the pile."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import _GRAIN, CARD, FPS, BrightCardReader, paint_card, table, with_arm

SKIN = np.array([120, 160, 210])


def _run(frames: list[np.ndarray], region: tuple[int, int, int, int] | None = None) -> list[dict]:
    watcher = PileWatcher(BrightCardReader(), region)
    out = []
    for i, img in enumerate(frames):
        out += [e.as_json() for e in watcher.feed(i, i / FPS, img)]
    return out


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
