"""A phone photo of a card on a tablecloth, letterboxed into a square: the photo's own frame
outlines like a card (better than the card's white edge on white cloth), and taken whole it
reads as the card in its middle. The outline to give is the card's: the clip generator cuts
its faces along it. A photo cropped to its card keeps its frame."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.find_card import CardQuad
from tableref.vision.recognise import card_in_frame


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.float32([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


FRAME = CardQuad(_rect(90, 0, 550, 640), 0.73, whole_frame=True)
CARD = CardQuad(_rect(220, 220, 430, 550), 0.67)          # a card in the middle of the photo
TOP_FIELD = CardQuad(_rect(110, 20, 530, 290), 0.67)      # a cropped card's upper field
PRINT = CardQuad(_rect(150, 150, 450, 600), 0.36)         # numeral and oval edges, unclear
SQUARE = CardQuad(_rect(220, 220, 430, 430), 0.67)        # a napkin, a box: not card-shaped


def _pick(inner: CardQuad, inner_reads: tuple[str | None, float]) -> CardQuad:
    cands = [FRAME, inner]
    readings = {0: ("green-8", 1.0), 1: inner_reads}
    return cands[card_in_frame(cands, 0, readings.__getitem__)]


def test_a_card_inside_the_frame_that_reads_the_same_is_the_outline() -> None:
    assert _pick(CARD, ("green-8", 1.0)) is CARD


@pytest.mark.parametrize("inner,reads", [
    (CARD, ("green-6", 1.0)),      # reads otherwise
    (CARD, ("green-8", 0.7)),      # reads the same, unsurely
    (CARD, (None, 0.0)),
    (TOP_FIELD, ("green-8", 1.0)),  # a panel of the frame
    (PRINT, ("green-8", 1.0)),      # an unclear outline
    (SQUARE, ("green-8", 1.0)),
])
def test_the_frame_stays_otherwise(inner: CardQuad, reads: tuple[str | None, float]) -> None:
    assert _pick(inner, reads) is FRAME


def test_the_clearest_of_several_cards_inside_wins() -> None:
    fainter = CardQuad(CARD.quad + 4, 0.62)
    cands = [FRAME, fainter, CARD]
    assert card_in_frame(cands, 0, lambda i: ("green-8", 1.0)) == 2
