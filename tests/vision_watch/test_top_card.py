"""read_top_card: the outlines near the change vote with their confidence."""
from __future__ import annotations

import numpy as np

from tableref.vision.top_card import read_top_card


class ScriptedReader:
    """Stands in for the recogniser in this unit test of the vote alone: it offers fixed
    outlines and gives a scripted answer per classification (then None)."""

    def __init__(self, quads: list[np.ndarray], answers: list[tuple[str | None, float]]) -> None:
        self.quads, self.answers, self.calls = quads, list(answers), 0

    def find_cards(self, crop: np.ndarray) -> list[np.ndarray]:
        return self.quads

    def classify_card(self, warped: np.ndarray) -> tuple[str | None, float]:
        self.calls += 1
        return self.answers.pop(0) if self.answers else (None, 0.0)


def _setup() -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    frame = np.full((200, 300, 3), 90, np.uint8)
    changed = np.zeros((200, 300), np.uint8)
    changed[40:160, 100:180] = 255
    card = np.array([[100, 40], [180, 40], [180, 160], [100, 160]], np.float32)
    quads = [card, card + 2, card - 2]
    return frame, changed, quads


def test_agreeing_outlines_outvote_one_surer_odd_one() -> None:
    frame, changed, quads = _setup()
    reader = ScriptedReader(quads, [("red-skip", 0.9), ("red-6", 0.7), ("red-6", 0.6)])
    got = read_top_card(reader, frame, (0, 0, 300, 200), changed)
    assert got.card == "red-6" and got.confidence == 0.7
    assert np.allclose(got.quad, quads[0] + 2)   # the outline that read it surest
    assert reader.calls >= 3                      # no early exit on the 0.9 reading


def test_a_lone_reading_stands_and_nothing_read_is_none() -> None:
    frame, changed, quads = _setup()
    got = read_top_card(ScriptedReader(quads, [(None, 0.0), ("blue-2", 0.8)]), frame, (0, 0, 300, 200), changed)
    assert (got.card, got.confidence) == ("blue-2", 0.8)
    got = read_top_card(ScriptedReader(quads, []), frame, (0, 0, 300, 200), changed)
    assert got.card is None and got.confidence == 0.0 and got.quad is not None
    assert read_top_card(None, frame, (0, 0, 300, 200), changed).card is None
