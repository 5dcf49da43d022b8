"""The project's own numerals (glyphs.py): every digit is drawn, distinct, and 9 is a 6
turned half round (the recogniser tells them apart only by the underline)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision import glyphs


def _draw(text: str, italic: float = 0.0) -> np.ndarray:
    img = np.zeros((120, 200), np.uint8)
    glyphs.draw_numeral(img, text, 99.5, 59.5, 80, (255,), 0.2, italic)
    return img


@pytest.mark.parametrize("digit", list("0123456789"))
def test_each_digit_is_drawn_inside_its_box(digit: str) -> None:
    img = _draw(digit)
    ys, xs = np.nonzero(img > 127)
    assert len(ys) > 400
    # 80 px tall including the stroke, centred at (100, 60)
    assert 18 <= ys.min() <= 24 and 96 <= ys.max() <= 102
    assert abs((xs.min() + xs.max()) / 2 - 100) < 8
    assert xs.max() - xs.min() <= glyphs.text_width(digit, 80, 0.2) + 2


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a > 127, b > 127
    return float((a & b).sum() / (a | b).sum())


def test_digits_differ_from_each_other() -> None:
    faces = {d: _draw(d) for d in "0123456789"}
    for a in faces:
        for b in faces:
            if a < b:
                # bold digits overlap a lot (6/8 and 3/8 share 0.8 of their ink) but never match
                assert _iou(faces[a], faces[b]) < 0.86, (a, b)


def test_nine_is_six_turned_round() -> None:
    six, nine = _draw("6"), _draw("9")
    # the glyph sits at the canvas centre, so turning the canvas round maps a 6 onto the 9
    assert _iou(cv2.rotate(six, cv2.ROTATE_180), nine) > 0.97
    assert _iou(six, nine) < 0.8


def test_italic_leans_the_top_right_and_two_digits_sit_side_by_side() -> None:
    upright, leaning = _draw("1"), _draw("1", italic=0.3)
    top = lambda im: np.nonzero(im[20:35] > 127)[1].mean()  # noqa: E731
    assert top(leaning) > top(upright) + 5
    ten = _draw("10")
    cols = np.nonzero((ten > 127).any(axis=0))[0]
    assert cols.min() < 100 - 20 and cols.max() > 100 + 20
    assert glyphs.is_numeral("10") and not glyphs.is_numeral("-10") and not glyphs.is_numeral("")


def _six_nine_mask(digit: str, arc_on_top: bool, link: int = 1) -> np.ndarray:
    """A centre mask (48 x 72) as symbol_mask gives it: the digit, its underline below (joined
    to it by a thin link), and optionally an arc of the oval's ring across the top."""
    mask = np.zeros((72, 48), np.float32)
    glyphs.draw_numeral(mask, digit, 24, 31, 40, (1.0,), 0.18)
    ys, xs = np.nonzero(mask > 0.5)
    low = int(ys.max())
    x0, x1, y, t = glyphs.underline_box(24, 31, 40, 0.18)
    cv2.line(mask, (int(x0), int(y)), (int(x1), int(y)), (1.0,), max(1, int(t)))
    # many prints join the underline to the digit through its shadow: a thin link
    col = int(xs[ys == low].mean())
    cv2.line(mask, (col, low), (col, int(y)), (1.0,), link)
    if arc_on_top:
        cv2.ellipse(mask, (24, 36), (23, 35), 0, 235, 305, (1.0,), 2)
    return mask


@pytest.mark.parametrize("digit", ["6", "9"])
@pytest.mark.parametrize("arc", [False, True])
@pytest.mark.parametrize("turned", [False, True])
def test_six_or_nine_follows_the_underline_not_the_ring(digit: str, arc: bool, turned: bool) -> None:
    from tableref.vision.classify_symbol import six_or_nine
    mask = _six_nine_mask(digit, arc)
    if turned:
        mask = cv2.rotate(mask, cv2.ROTATE_180)   # the card lies the other way up
    assert six_or_nine(mask) == digit


@pytest.mark.parametrize("digit", ["6", "9"])
@pytest.mark.parametrize("turned", [False, True])
def test_six_or_nine_with_the_underline_fused_to_the_digit(digit: str, turned: bool) -> None:
    # a shadow as wide as a stroke joins bar and digit: no erosion parts them, the row
    # profile (a wide band at one end past a narrow neck) finds the bar
    from tableref.vision.classify_symbol import _joined_bar, six_or_nine
    mask = _six_nine_mask(digit, False, link=7)
    if turned:
        mask = cv2.rotate(mask, cv2.ROTATE_180)
    assert six_or_nine(mask) == digit
    blob = (mask > 0.5).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(blob, connectivity=8)
    assert n == 2  # really one blob
    x, y, w, h = stats[1, :4]
    end, rows = _joined_bar(blob[y:y + h, x:x + w])
    assert end == (-1 if turned else 1) and 2 <= rows <= 0.2 * h
