"""PileWatcher and an arm that is still leaving: once the card lies still and clear of the
arm, it is reported without waiting for the arm to leave the watched region (which, until
the first card lands, is the whole frame; and with big cards spans the frame anyway)."""
from __future__ import annotations

import numpy as np

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import _GRAIN, CARD, FPS, W, BrightCardReader, paint_card, table

SKIN = np.array([120, 160, 210])


def _frame(card: bool, arm_from: int | None) -> np.ndarray:
    """The table, the card, and an arm from the frame's right edge reaching `arm_from`."""
    img = table()
    if card:
        paint_card(img, CARD)
    if arm_from is not None:
        img[100:130, arm_from:] = SKIN + 2 * _GRAIN[100:130, arm_from:]
    return np.clip(img, 0, 255).astype(np.uint8)


def _run(frames: list[np.ndarray]) -> list[dict]:
    watcher = PileWatcher(BrightCardReader())
    return [e.as_json() for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]


def test_a_card_is_reported_while_the_arm_that_left_it_is_still_going() -> None:
    # the hand lets go over the card's edge, then the arm withdraws 15 px a frame: it clears
    # the card at once but takes 9 frames to leave the frame
    withdrawing = [_frame(True, x) for x in range(CARD[2] + 15, W, 15)]
    frames = ([_frame(False, None)] * 10 + [_frame(True, CARD[2] - 5)] * 3 + withdrawing
              + [_frame(True, None)] * 20)
    gone = 13 + len(withdrawing)
    events = _run(frames)
    assert [(e["event"], e["card"]) for e in events] == [("landed", "red-6")]
    assert events[0]["frame"] < gone

