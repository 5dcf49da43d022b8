"""The card-face renderer: every code of every deck renders, with a card-shaped alpha mask."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.cardface import STYLES, all_codes, render_back, render_card


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
