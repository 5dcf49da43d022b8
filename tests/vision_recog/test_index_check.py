"""Where both whole-card readers read one code but the card's index corners say another rank,
surely at both ends, the table is asked, offered both (RecogniserConfig.index_veto): one flaw
across a numeral (a highlight, a crease) can turn both readers, and the index is evidence of
its own."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.cardface import all_codes, render_card
from tableref.vision.enrolment import build_enrolled
from tableref.vision.recognise import Recogniser
from tableref.vision.synth.odd_inks import table_shot

from test_corner_check import _misprint, offered, with_and_without

# (colour, centre, index): of the four colours' 3/8, 8/3, 6/9, 9/6, 1/7, 7/1, 5/6, 0/8, 4/7 and
# 2/5 misprints, both readers read 35 of 40 by their centre at 1.00, and the corner reader read
# those 35 by their index at 0.99 or more at both ends
MISPRINTS = [("red", "3", "8"), ("blue", "1", "7"), ("green", "9", "6"), ("yellow", "4", "7")]


@pytest.fixture(scope="module")
def readers() -> tuple[Recogniser, Recogniser]:
    return with_and_without(index_veto=1.0)


@pytest.mark.parametrize("colour,centre,index", MISPRINTS)
def test_a_card_whose_index_says_another_rank_is_asked(readers: tuple[Recogniser, Recogniser],
                                                       colour: str, centre: str, index: str) -> None:
    checked, unchecked = readers
    card = _misprint(colour, centre, index)
    assert unchecked.read_cards([card])[0].card == f"{colour}-{centre}"  # both whole-card readers agree
    assert offered(checked, card) == [f"{colour}-{centre}", f"{colour}-{index}"]


@pytest.mark.parametrize("printing", ["classic", "clone"])
def test_well_printed_cards_are_not_asked(readers: tuple[Recogniser, Recogniser], printing: str) -> None:
    checked, unchecked = readers
    codes = all_codes("uno")
    cards = [render_card(code, printing, short_side=128)[:, :, :3] for code in codes]
    assert [r.card for r in checked.read_cards(cards)] == [r.card for r in unchecked.read_cards(cards)]


def test_a_code_of_the_enrolled_deck_is_not_checked() -> None:
    # the corner reader never saw the user's deck; the classic reader learned it from its shots
    rng = np.random.default_rng(5)
    face = _misprint("red", "3", "8", short_side=200, alpha=True)
    shots = [(table_shot(face, rng, (640, 480), strength=0.3), "red-3") for _ in range(3)]
    enrolled = Recogniser("uno", extra=build_enrolled("misprinted", shots))
    test = table_shot(face, rng, (640, 480), strength=0.3)
    assert Recogniser("uno").identify(test).card is None
    assert enrolled.identify(test).card == "red-3"
