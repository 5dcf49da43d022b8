"""Two structural cues the recogniser uses besides the k-NN: the dark field of wilds, and
outlines that are one panel of a card whose white band splits the printed field."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision import recognise
from tableref.vision.cardface import UNO_STYLES, all_codes, render_card
from tableref.vision.classify_colour import field_darkness, white_gains
from tableref.vision.classify_symbol import CANON_H, CANON_W, symbol_mask


@pytest.mark.parametrize("style", UNO_STYLES)
def test_wilds_have_a_dark_field_and_coloured_cards_do_not(style: str) -> None:
    rng = np.random.default_rng(3)
    for code in all_codes("uno_family"):
        face = cv2.resize(render_card(code, style, 160, rng)[:, :, :3], (CANON_W, CANON_H))
        dark = field_darkness(face)
        if code.startswith("wild"):
            assert dark >= recognise.DARK_FIELD, code
        else:
            assert dark < recognise.COLOURED_FIELD, code


def _rect(cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)


def test_a_panel_across_one_end_of_a_card_is_enclosed() -> None:
    card = _rect(300, 300, 200, 310)
    top_panel = _rect(300, 200, 180, 90)          # across the card, near its top
    assert recognise._encloses(card, top_panel)


@pytest.mark.parametrize("inner", [
    _rect(300, 300, 180, 90),       # across the card but in its middle: the card's own symbol area
    _rect(300, 200, 90, 140),       # near the top but lying along the card: not a panel
    _rect(300, 300, 190, 300),      # nearly the card itself (a slightly tighter outline)
    _rect(300, 180, 30, 20),        # a corner index: far too small to be a panel
    _rect(500, 200, 180, 90),       # outside the card
])
def test_other_outlines_are_not_panels(inner: np.ndarray) -> None:
    assert not recognise._encloses(_rect(300, 300, 200, 310), inner)


def test_a_square_outline_is_not_a_card_with_panels() -> None:
    assert not recognise._encloses(_rect(300, 300, 300, 300), _rect(300, 200, 280, 90))


@pytest.mark.parametrize("code", ["green-8", "blue-5", "red-7"])
def test_a_washed_out_print_keeps_its_numeral(code: str) -> None:
    # a pale field (saturation ~0.15, as in washed-out photos) is still ink, not paper:
    # the numeral's mask must match the one of the well-printed card
    face = cv2.resize(render_card(code, "classic", 160)[:, :, :3], (CANON_W, CANON_H))
    top = face.max(axis=2, keepdims=True).astype(np.float32)
    pale = (top - 0.2 * (top - face)).astype(np.uint8)  # same brightness, a fifth of the saturation
    crisp = symbol_mask(face, white_gains(face)) > 0.5
    washed = symbol_mask(pale, white_gains(pale)) > 0.5
    assert crisp.sum() > 50
    assert np.count_nonzero(crisp & washed) / np.count_nonzero(crisp | washed) > 0.8
