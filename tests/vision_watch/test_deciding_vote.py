"""read_top_card asks the classic reader (the slow one) only for the outlines that can turn the
vote or the winner's reported reading (top_card._read_deciding): what it reports is what
reading every outline reports. Real recogniser, rendered cards landing on a pile."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import render_card
from tableref.vision.recognise import CardReading, PendingReading, Recogniser
from tableref.vision.top_card import Reading, _read_deciding, read_top_card


class Counting(Recogniser):
    """The built-in recogniser, counting the classic reader's readings."""

    def __init__(self) -> None:
        super().__init__("uno")
        self.classic = 0

    def _classic(self, warped_bgr: np.ndarray) -> CardReading:
        self.classic += 1
        return super()._classic(warped_bgr)


class EveryOutline:
    """The same recogniser with every outline read to the end (as the vote did before)."""

    def __init__(self, recogniser: Recogniser) -> None:
        self.recogniser = recogniser

    def find_cards(self, image: np.ndarray) -> list[np.ndarray]:
        return self.recogniser.find_cards(image)

    def pending_reads(self, warped: list[np.ndarray]) -> list[PendingReading]:
        return [PendingReading(None, p.read) for p in self.recogniser.pending_reads(warped)]


def _paste(table: np.ndarray, code: str, centre: tuple[float, float], angle: float, short: int) -> np.ndarray:
    """`table` with the rendered card `code` laid on it; returns the card's outline mask."""
    face = render_card(code, "classic", short)
    h, w = face.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += np.array(centre) - (w / 2, h / 2)
    size = (table.shape[1], table.shape[0])
    ink = cv2.warpAffine(face[:, :, :3], m, size)
    alpha = cv2.warpAffine(face[:, :, 3], m, size) > 127
    table[alpha] = ink[alpha]
    return alpha.astype(np.uint8) * 255


LANDINGS = [("red-6", "blue-2", 17.0), ("green-skip", "yellow-9", -32.0), ("blue-draw2", "red-reverse", 80.0),
            ("yellow-1", "green-7", 5.0)]


def _read_both_ways(code: str, under: str, angle: float) -> tuple[Reading, Reading, int, int]:
    """(the vote's reading, every outline's, the classic readings each took) of `code` landed
    at `angle` on `under`."""
    table = np.full((360, 420, 3), (40, 110, 50), np.uint8)
    _paste(table, under, (200, 180), 0.0, 100)
    changed = _paste(table, code, (215, 175), angle, 100)
    box = (0, 0, table.shape[1], table.shape[0])
    lazy, full = Counting(), Counting()
    got = read_top_card(lazy, table, box, changed)
    want = read_top_card(EveryOutline(full), table, box, changed)
    return got, want, lazy.classic, full.classic


@pytest.mark.parametrize("code,under,angle", LANDINGS)
def test_the_vote_reads_what_every_outline_reads(code: str, under: str, angle: float) -> None:
    got, want, lazy, full = _read_both_ways(code, under, angle)
    assert got.card == code
    assert (got.card, got.confidence, got.likely) == (want.card, want.confidence, want.likely)
    assert np.array_equal(got.quad, want.quad)
    assert lazy <= full


def test_the_vote_takes_fewer_classic_readings() -> None:
    # (one landing may need them all: an outline a pixel bigger than the surest one is read)
    counts = [_read_both_ways(*landing)[2:] for landing in LANDINGS]
    assert sum(lazy for lazy, _ in counts) < 0.8 * sum(full for _, full in counts)


def _pending(code: str | None, confidence: float, could: set[str], asked: list[int], i: int) -> PendingReading:
    def read() -> CardReading:
        asked.append(i)
        return CardReading(code, confidence, ((code, confidence),) if code else ())
    return PendingReading(frozenset(could), read)


def test_outlines_that_cannot_turn_the_vote_are_left_unread() -> None:
    asked: list[int] = []
    # two outlines that match the change well read red-6; the third (a small overlap) could
    # read red-9 or red-6 but cannot outvote them, nor give a bigger outline
    pending = [_pending("red-6", 1.0, {"red-6"}, asked, 0), _pending("red-6", 1.0, {"red-6", "red-9"}, asked, 1),
               _pending("red-9", 1.0, {"red-9", "red-6"}, asked, 2)]
    read = _read_deciding(pending, [0.9, 0.8, 0.3], [100.0, 100.0, 50.0])
    assert sorted(read) == [0, 1] and asked == [0, 1]


def test_the_outlines_that_match_the_change_most_are_read_first() -> None:
    asked: list[int] = []
    # the third outline holds most of the change: read first, it settles the vote alone
    pending = [_pending("red-6", 1.0, {"red-6"}, asked, 0), _pending("red-6", 1.0, {"red-6", "red-9"}, asked, 1),
               _pending("red-6", 1.0, {"red-6"}, asked, 2)]
    read = _read_deciding(pending, [0.3, 0.4, 0.95], [100.0, 100.0, 100.0])
    assert asked == [2] and sorted(read) == [2]


def test_an_outline_that_could_turn_the_vote_is_read() -> None:
    asked: list[int] = []
    pending = [_pending("red-6", 0.6, {"red-6", "red-9"}, asked, 0), _pending("red-9", 1.0, {"red-9"}, asked, 1),
               _pending("red-9", 1.0, {"red-9", "red-6"}, asked, 2)]
    read = _read_deciding(pending, [0.9, 0.5, 0.5], [100.0, 100.0, 100.0])
    assert sorted(read) == [0, 1, 2]   # 0.54 for red-6 against up to 1.0 for red-9: all are needed


def test_a_reading_not_sure_enough_asks_for_the_winners_other_outlines() -> None:
    asked: list[int] = []
    # red-6 wins whatever outline 2 reads, but outline 2 might read it more surely
    pending = [_pending("red-6", 0.8, {"red-6"}, asked, 0), _pending("red-6", 0.8, {"red-6"}, asked, 1),
               _pending("red-6", 0.95, {"red-6"}, asked, 2)]
    read = _read_deciding(pending, [0.9, 0.9, 0.2], [100.0, 100.0, 40.0])
    assert sorted(read) == [0, 1, 2]
