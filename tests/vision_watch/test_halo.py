"""PileWatcher asks the reader to explain the card, not the ratio view's halo around it.

The blur that cancels lighting spreads a change about two blur widths around a new card,
most of all a light card on a dark table. Outlines fitted to that halo are too big: on real
photos they read as guesses that, several of them, outvoted a sure reading of the card's
own outline (a green skip read as a red one, its outlines taking in the wooden table)."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision import watcher as watcher_module
from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import CARD, FPS, BrightCardReader, paint_card, table, with_arm


def _frame(card: bool, table_level: int) -> np.ndarray:
    img = table() + (table_level - 90)
    if card:
        paint_card(img, CARD)
    return np.clip(img, 0, 255).astype(np.uint8)


def _asked(monkeypatch: pytest.MonkeyPatch, table_level: int) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """The changed masks (and their boxes, frame pixels) the watcher asked the reader to explain."""
    asked = []
    real = watcher_module.read_top_card

    def recording(recogniser, frame, box, changed, card_side=None):
        asked.append((changed.copy(), box))
        return real(recogniser, frame, box, changed, card_side)

    monkeypatch.setattr(watcher_module, "read_top_card", recording)
    watcher = PileWatcher(BrightCardReader())
    frames = [_frame(False, table_level)] * 10 + [with_arm(_frame(True, table_level))] * 2 + [_frame(True, table_level)] * 18
    events = [e for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]
    assert [(e.event, e.card) for e in events] == [("landed", "red-6")]
    assert asked  # the card was read: the checks on what the reader was asked do run
    return asked


def _outside_card(changed: np.ndarray, box: tuple[int, int, int, int], margin: int) -> int:
    """Changed pixels further than `margin` from the card."""
    ys, xs = np.nonzero(changed)
    xs, ys = xs + box[0], ys + box[1]
    x0, y0, x1, y1 = CARD
    return int(np.count_nonzero((xs < x0 - margin) | (xs >= x1 + margin) | (ys < y0 - margin) | (ys >= y1 + margin)))


def test_a_light_card_on_a_dark_table_is_read_without_its_halo(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _asked(monkeypatch, table_level=30)
    for changed, box in asked:
        inside = np.count_nonzero(changed) - _outside_card(changed, box, 0)
        assert inside >= 0.8 * (CARD[2] - CARD[0]) * (CARD[3] - CARD[1])   # the card is all there
        assert _outside_card(changed, box, 4) == 0                          # and nothing around it
