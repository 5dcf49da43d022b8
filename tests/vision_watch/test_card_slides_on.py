"""A card that slides on after its hand has gone: at 15 fps a hand can leave the watched
region between two frames, and the card's own last move, inside the region, is then the
last motion. It is no hand hovering (what came in has partly gone with the hand), so the
card is reported as it settles, not a second later (other_clips seed 921 at 640x360: a blue
3 reported 1.13 s after it settled)."""
from __future__ import annotations

import numpy as np

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import CARD, BrightCardReader, paint_card, table, with_arm

FPS = 15.0


def _frame(drop: int, arm: bool) -> np.ndarray:
    """The card `drop` pixels short of where it comes to rest, and the arm that brings it."""
    img = table()
    x0, y0, x1, y1 = CARD
    paint_card(img, (x0, y0 - drop, x1, y1 - drop))
    img = np.clip(img, 0, 255).astype(np.uint8)
    return with_arm(img) if arm else img


def _events(frames: list[np.ndarray]) -> list[dict]:
    watcher = PileWatcher(BrightCardReader())
    return [e.as_json() for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]


def test_a_card_that_slides_on_after_its_hand_has_gone_is_reported_as_it_settles() -> None:
    empty = np.clip(table(), 0, 255).astype(np.uint8)
    # the hand brings the card and is gone on the next frame; the card slides 6 px, then 6 more
    frames = [empty] * 10 + [_frame(30, True), _frame(12, True), _frame(6, False), _frame(0, False)]
    frames += [_frame(0, False)] * 30
    events = _events(frames)
    assert [(e["event"], e["card"]) for e in events] == [("landed", "red-6")]
    assert events[0]["frame"] <= 13 + 0.3 * FPS  # settled at frame 13


def test_a_hand_that_holds_its_card_still_is_still_waited_on() -> None:
    # the same card, its hand at rest over it: nothing of the hand has gone
    frames = [np.clip(table(), 0, 255).astype(np.uint8)] * 10
    frames += [_frame(30, True), _frame(12, True), _frame(6, True)] + [_frame(0, True)] * 30
    assert _events(frames) == []
