"""read_top_card: the outlines near the change vote with their confidence."""
from __future__ import annotations

import functools

import cv2
import numpy as np

from tableref.vision.recognise import CardReading, PendingReading
from tableref.vision.top_card import _explaining, read_top_card


class ScriptedReader:
    """Stands in for the recogniser in this unit test of the vote alone: it offers fixed
    outlines and gives a scripted answer per outline, by the outline's place in the order
    they are offered for reading (then None); the vote reads them in an order of its own."""

    def __init__(self, quads: list[np.ndarray], answers: list[tuple[str | None, float]]) -> None:
        self.quads, self.answers, self.calls = quads, list(answers), 0

    def find_cards(self, crop: np.ndarray) -> list[np.ndarray]:
        return self.quads

    def pending_reads(self, warped: list[np.ndarray]) -> list[PendingReading]:
        return [PendingReading(None, functools.partial(self._reading, i, w)) for i, w in enumerate(warped)]

    def _reading(self, i: int, warped: np.ndarray) -> CardReading:
        self.calls += 1
        return CardReading(*self.answer(i, warped))

    def answer(self, i: int, warped: np.ndarray) -> tuple[str | None, float]:
        return self.answers[i] if i < len(self.answers) else (None, 0.0)


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


def test_the_same_outline_twice_votes_once() -> None:
    # fitting searches started apart end on the same outline: it must not vote twice
    frame, changed, quads = _setup()
    card, odd = quads[0], quads[0] + np.array([20, 0], np.float32)   # odd: 0.6 of the change
    reader = ScriptedReader([card, odd, odd.copy()], [("red-6", 0.8), ("red-skip", 0.9), ("red-skip", 0.9)])
    got = read_top_card(reader, frame, (0, 0, 300, 200), changed)
    assert got.card == "red-6"


def test_a_lone_reading_stands_and_nothing_read_is_none() -> None:
    frame, changed, quads = _setup()
    got = read_top_card(ScriptedReader(quads, [(None, 0.0), ("blue-2", 0.8)]), frame, (0, 0, 300, 200), changed)
    assert (got.card, got.confidence) == ("blue-2", 0.8)
    got = read_top_card(ScriptedReader(quads, []), frame, (0, 0, 300, 200), changed)
    assert got.card is None and got.confidence == 0.0 and got.quad is not None
    assert read_top_card(None, frame, (0, 0, 300, 200), changed).card is None


class BrightnessReader(ScriptedReader):
    """Reads a dark outline (the inside of a card's oval) as one card and a bright one (a
    whole card with its white border) as another."""

    def answer(self, i: int, warped: np.ndarray) -> tuple[str | None, float]:
        return ("red-skip", 1.0) if warped.mean() < 100 else ("red-6", 0.6)


def _card_with_oval(top: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(frame, change, card outline, oval outline): a new card (120 x 180, white border and
    all) lying from row `top` on a 400 x 300 table, with its dark centre oval (50 x 80)."""
    frame = np.full((300, 400, 3), 90, np.uint8)
    frame[top:top + 180, 140:260] = 230
    frame[top + 50:top + 130, 175:225] = 30
    changed = np.zeros((300, 400), np.uint8)
    changed[top:top + 180, 140:260] = 255
    card = np.array([[140, top], [259, top], [259, top + 179], [140, top + 179]], np.float32)
    oval = np.array([[175, top + 50], [225, top + 50], [225, top + 130], [175, top + 130]], np.float32)
    return frame, changed, card, oval


def test_outlines_of_a_part_of_the_card_do_not_outvote_the_card() -> None:
    frame, changed, card, oval = _card_with_oval(60)
    # the finder outlines the oval three times over (as on real prints) and the card once
    reader = BrightnessReader([oval, oval + 1, oval - 1, card], [])
    got = read_top_card(reader, frame, (0, 0, 400, 300), changed)
    assert got.card == "red-6"


def test_only_outlines_big_enough_for_the_change_are_kept() -> None:
    small = np.array([[0, 0], [10, 0], [10, 15], [0, 15]], np.float32)   # area 150
    large = small * 4                                                      # area 2400
    assert [q.sum() for q in _explaining([small, large], 4000)] == [large.sum()]
    assert len(_explaining([small, large], 500)) == 2
    assert len(_explaining([small], 4000)) == 1   # nothing big enough: all stay


class BorderReader(ScriptedReader):
    """Reads an outline as the card only when all of its border is the card's white border
    (an outline off the card shows the table or the hand there); a dark one is the oval."""

    def answer(self, i: int, warped: np.ndarray) -> tuple[str | None, float]:
        rim = np.concatenate([warped[:4].reshape(-1, 3), warped[-4:].reshape(-1, 3),
                              warped[:, :4].reshape(-1, 3), warped[:, -4:].reshape(-1, 3)])
        if warped.mean() < 100:
            return "red-skip", 1.0
        return ("red-6", 0.9) if rim.min() >= 200 else (None, 0.0)


def test_the_card_outline_is_tried_when_its_oval_covers_the_change_better() -> None:
    # the oval's outlines lie wholly inside the change, the card's reaches its edge: ranked by
    # how much of their outline changed, the oval's three crowded out the card's
    frame, changed, card, oval = _card_with_oval(40)
    frame[220:300, 170:230] = 170         # the fingers that let go of it, still in view
    changed[220:300, 170:230] = 255
    reader = BorderReader([oval, oval + 1, oval - 1, card], [])
    got = read_top_card(reader, frame, (0, 0, 400, 300), changed)
    assert got.card == "red-6"
    assert np.allclose(got.quad, card)


def _rect(x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """The outline of the pixels [y0:y1, x0:x1]."""
    return np.array([[x0, y0], [x1 - 1, y0], [x1 - 1, y1 - 1], [x0, y1 - 1]], np.float32)


def _scene(paint: list[tuple[int, int, int, int, int]],
           change: list[tuple[int, int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """(frame, change) of a 400 x 300 table: boxes (x0, y0, x1, y1, grey) painted in order,
    boxes (x0, y0, x1, y1) marked as changed."""
    frame = np.full((300, 400, 3), 90, np.uint8)
    for x0, y0, x1, y1, grey in paint:
        frame[y0:y1, x0:x1] = grey
    changed = np.zeros((300, 400), np.uint8)
    for x0, y0, x1, y1 in change:
        changed[y0:y1, x0:x1] = 255
    return frame, changed


def test_an_outline_holding_all_of_the_change_beats_one_inside_it() -> None:
    # the new card lies with its left part on an older card's white border, so that part of
    # its outline did not change; its big oval's outlines changed all round
    frame, changed = _scene([(140, 60, 260, 240, 230), (175, 90, 225, 210, 30)], [(150, 60, 260, 240)])
    card, oval = _rect(140, 60, 260, 240), _rect(175, 90, 225, 210)

    class Reader(ScriptedReader):
        def answer(self, i: int, warped: np.ndarray) -> tuple[str | None, float]:
            # the oval alone is no card; the card with its white border is
            return ("red-6", 0.9) if warped[:4].min() >= 200 and warped[-4:].min() >= 200 else (None, 0.0)

    got = read_top_card(Reader([oval, oval + 1, oval - 1, card], []), frame, (0, 0, 400, 300), changed)
    assert got.card == "red-6"
    assert np.allclose(got.quad, card)


def test_an_outline_around_older_cards_too_is_outvoted_by_the_card_s_own() -> None:
    # the new card lies over an older one and nudged its far edge: an outline around both
    # changed too, and reads surely as the older card; the card's own reads less surely
    frame, changed = _scene([(50, 40, 200, 260, 60), (180, 60, 300, 240, 230)], [(180, 60, 300, 240), (45, 40, 80, 260)])
    card, both = _rect(180, 60, 300, 240), _rect(50, 40, 300, 260)
    # the card's outline ranks first (the finder lists the top card first); all others read None
    reader = ScriptedReader([card, both], [("red-6", 0.75), ("blue-2", 0.95)])
    got = read_top_card(reader, frame, (0, 0, 400, 300), changed)
    assert reader.calls > 2
    assert got.card == "red-6"


class RimReader(ScriptedReader):
    """Reads an outline as the card when nearly all of its rim is the card's white border."""

    def answer(self, i: int, warped: np.ndarray) -> tuple[str | None, float]:
        rim = np.concatenate([warped[:6].reshape(-1, 3), warped[-6:].reshape(-1, 3),
                              warped[:, :6].reshape(-1, 3), warped[:, -6:].reshape(-1, 3)])
        return ("red-6", 0.9) if (rim.min(axis=1) >= 180).mean() >= 0.9 else (None, 0.0)


def test_outlines_of_the_card_size_read_before_are_tried() -> None:
    # the change spreads 30 pixels around the new card (a shadow that went with the hand),
    # and the finder outlines nothing: outlines sized from the change miss the card, one of
    # the size the pile's cards were read at (120 pixels across) fits it
    frame, changed = _scene([(40, 10, 380, 310, 160), (150, 67, 270, 253, 230), (175, 100, 245, 220, 30)],
                            [(120, 37, 300, 283)])
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    assert read_top_card(RimReader([], []), frame, (0, 0, 400, 300), changed).card is None
    got = read_top_card(RimReader([], []), frame, (0, 0, 400, 300), changed, card_side=120.0)
    assert got.card == "red-6"
    assert np.abs(got.quad - _rect(150, 67, 270, 253)).max() <= 2


def test_the_card_s_outline_is_given_when_its_oval_reads_as_surely() -> None:
    # the oval (inside the card's print) reads the card a shade more surely than the card's
    # own outline: the reading names the card, with the card's outline (the pile's card
    # size, and whether a hand lies beside the card, are judged on it)
    frame, changed, card, _ = _card_with_oval(60)
    oval = np.array([[155, 90], [245, 90], [245, 210], [155, 210]], np.float32)   # half the card
    # the card's outline holds all of the change, so it is read first
    reader = ScriptedReader([oval, card], [("red-6", 0.98), ("red-6", 1.0)])
    got = read_top_card(reader, frame, (0, 0, 400, 300), changed)
    assert (got.card, got.confidence) == ("red-6", 1.0)
    assert np.allclose(got.quad, card)
