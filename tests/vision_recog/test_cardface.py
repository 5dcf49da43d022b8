"""The card-face renderer: every code of every deck renders, with a card-shaped alpha mask."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import STYLES, UNO_STYLES, Printing, all_codes, render_back, render_card


@pytest.mark.parametrize("deck,count", [("uno", 54), ("uno112", 57), ("uno_no_mercy", 68),
                                         ("ono99_classic", 14), ("ono99_2022", 15)])
def test_deck_sizes(deck: str, count: int) -> None:
    codes = all_codes(deck)
    assert len(codes) == len(set(codes)) == count


@pytest.mark.parametrize("style", STYLES)
def test_every_code_renders_distinct_faces(style: str) -> None:
    faces = {}
    for code in all_codes("all"):
        img = render_card(code, style, 60)
        assert img.shape == (93, 60, 4) and img.dtype == np.uint8
        assert img[0, 0, 3] == 0 and img[46, 30, 3] == 255  # rounded corner is transparent
        faces[code] = img
    # no two codes may share a face (that would make them unrecognisable)
    flat = [f[:, :, :3].astype(np.int16) for f in faces.values()]
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            assert np.abs(flat[i] - flat[j]).mean() > 1.0


def test_rng_varies_and_none_is_deterministic() -> None:
    a = render_card("red-7", "classic", 80)
    assert np.array_equal(a, render_card("red-7", "classic", 80))
    b = render_card("red-7", "classic", 80, rng=np.random.default_rng(1))
    assert not np.array_equal(a, b)


def test_unknown_code_and_style_are_rejected() -> None:
    with pytest.raises(ValueError):
        render_card("purple-3")
    with pytest.raises(ValueError):
        render_card("red-7", "fancy")
    with pytest.raises(ValueError):
        render_card("7")
    assert render_back("classic", 50).shape == (78, 50, 4)
    assert render_back("ono99", 50).shape == (78, 50, 4)


@pytest.mark.parametrize("style", UNO_STYLES)
def test_default_printing_draws_the_style_itself(style: str) -> None:
    """Printing() is no printing at all: the same bytes, with and without rng (the classic
    reader's built-in profile renders with rng and no printing)."""
    for code in ("red-6", "blue-9", "green-7", "yellow-1", "red-skip", "blue-reverse", "green-draw2", "wild_draw4"):
        assert np.array_equal(render_card(code, style, 90), render_card(code, style, 90, None, Printing()))
        a = render_card(code, style, 90, np.random.default_rng(3))
        assert np.array_equal(a, render_card(code, style, 90, np.random.default_rng(3), Printing()))


@pytest.mark.parametrize("code,printing", [
    ("red-6", Printing(font=cv2.FONT_HERSHEY_COMPLEX)), ("red-6", Printing(stretch=0.8)),
    ("red-6", Printing(lean=-0.15)), ("blue-9", Printing(bar=(0.12, 1.3))), ("green-7", Printing(extras=True)),
    ("yellow-1", Printing(extras=True)), ("red-skip", Printing(sym_weight=1.5, slash=30.0)),
    ("red-reverse", Printing(arrows=1)), ("red-reverse", Printing(arrows=2)), ("red-reverse", Printing(arrows=3)),
    ("red-draw2", Printing(sym_angle=20.0)), ("red-draw2", Printing(plus2=cv2.FONT_HERSHEY_SIMPLEX)),
])
def test_printing_fields_draw_other_printings(code: str, printing: Printing) -> None:
    """Each of the training's printing fields changes the card it concerns (generators 6 and 7)."""
    plain = render_card(code, "classic", 90)
    other = render_card(code, "classic", 90, None, printing)
    assert other.shape == plain.shape and np.array_equal(other[:, :, 3], plain[:, :, 3])
    assert np.abs(other[:, :, :3].astype(np.int16) - plain[:, :, :3]).mean() > 0.3


@pytest.mark.parametrize("arrows", range(4))
def test_a_thin_reverse_index_shows_its_two_arrows_apart(arrows: int) -> None:
    """The corner reader's printings (reader_data._index) include the official deck's small
    reverse index: two thin arrows with the field between them, where the default print's
    index is one white blob. Counted as white blobs in the top-left index, the border's
    corner being one of them."""
    def blobs(printing: Printing) -> int:
        face = render_card("red-reverse", "classic", 256, None, printing)
        h, w = face.shape[:2]
        white = (face[int(h * 0.03):int(h * 0.2), int(w * 0.05):int(w * 0.32), :3].min(axis=2) > 200).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(white)
        return int((stats[1:, cv2.CC_STAT_AREA] > 15).sum())
    assert blobs(Printing(arrows=arrows)) == 2
    assert blobs(Printing(arrows=arrows, index_weight=0.35, index_apart=0.12)) == 3
