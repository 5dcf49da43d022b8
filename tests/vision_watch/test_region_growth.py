"""PileWatcher's watched region when a card lands across its edge.

The region is the pile plus a margin, and a change that reaches its edge may be an arm. A
card that crosses the edge but ends within half a card beyond it is no arm: the region
widens at once and the card is reported without waiting for the arm test's stillness."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import FPS, W, BrightCardReader, paint_card, table, with_arm

FIRST = (130, 80, 190, 170)
SECOND = (212, 60, 272, 150)   # beside the first: past the region's right edge, but not by much


def _frame(cards: list[tuple[int, int, int, int]], field: tuple[int, int, int] = (40, 40, 200)) -> np.ndarray:
    img = table()
    for box in cards:
        paint_card(img, box, field)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_card_landing_across_the_region_edge_is_reported_at_once() -> None:
    watcher = PileWatcher(BrightCardReader())
    frames = [_frame([])] * 10 + [with_arm(_frame([FIRST]))] * 2 + [_frame([FIRST])] * 18
    events = [e for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]
    assert [e.event for e in events] == ["landed"]
    assert watcher.region_box is not None
    assert watcher.region_box[2] < SECOND[2], "the second card must cross the watched region's edge"
    for i in range(30, 60):
        img = _frame([FIRST, SECOND])
        events += watcher.feed(i, i / FPS, with_arm(img) if i < 32 else img)   # brought by a hand
    assert [e.event for e in events] == ["landed", "landed"]
    assert events[1].frame <= 32 + 4   # settling takes 2-3 frames; the arm test would wait 15


def test_the_region_takes_the_card_size_from_the_outline_when_the_change_is_smaller() -> None:
    # A card lands exactly on one with the same border: only its printed field changes, but
    # the pile's cards are the size of the outline read, and the region's margin follows it.
    blue = (200, 60, 30)
    watcher = PileWatcher(BrightCardReader())
    frames = [_frame([FIRST])] * 10 + [with_arm(_frame([FIRST], blue))] * 2 + [_frame([FIRST], blue)] * 18
    events = [e for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]
    assert [e.event for e in events] == ["landed"]
    scale = 256 / W   # the watcher's working width
    field_side = ((FIRST[2] - FIRST[0] - 30) * (FIRST[3] - FIRST[1] - 40) / 1.55) ** 0.5 * scale
    assert watcher.region.card_size > 1.4 * field_side


def test_the_card_size_read_surely_is_offered_to_later_readings() -> None:
    watcher = PileWatcher(BrightCardReader())
    frames = [_frame([])] * 10 + [with_arm(_frame([FIRST]))] * 2 + [_frame([FIRST])] * 18
    assert watcher.feed(0, 0.0, frames[0]) == [] and watcher._book.card_side() is None
    events = [e for i, img in enumerate(frames[1:], 1) for e in watcher.feed(i, i / FPS, img)]
    assert [(e.event, e.card) for e in events] == [("landed", "red-6")]
    assert watcher._book.card_side() == pytest.approx(FIRST[2] - FIRST[0], abs=2)   # frame pixels
