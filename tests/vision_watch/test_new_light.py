"""PileWatcher when a light is switched on as a card lands: the exposure step makes the
watcher ask for more change, and glare on the top card adds some, but the new card is
still reported."""
from __future__ import annotations

import cv2
import numpy as np

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import FPS, BrightCardReader, _frame, paint_card, with_arm


def _relit(img: np.ndarray, glare_at: tuple[int, int]) -> np.ndarray:
    """The scene 30% brighter, with a soft glare spot."""
    glare = np.zeros(img.shape[:2], np.float32)
    cv2.circle(glare, glare_at, 14, 60.0, -1)
    out = img.astype(np.float32) * 1.3 + cv2.GaussianBlur(glare, (0, 0), 3)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _events(frames: list[np.ndarray]) -> list[str]:
    watcher = PileWatcher(BrightCardReader())
    return [e.event for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]


def test_a_card_landing_as_the_light_comes_on_is_still_reported() -> None:
    beside = _frame(True, False)
    paint_card(beside, (200, 60, 260, 150))             # a second card lands beside the first
    frames = ([_frame(False, False)] * 10 + [with_arm(_frame(True, False))] * 2 + [_frame(True, False)] * 18
              + [with_arm(_relit(beside, (160, 125)))] * 2 + [_relit(beside, (160, 125))] * 28)
    assert _events(frames) == ["landed", "landed"]
