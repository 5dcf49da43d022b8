"""Glare across the centre of a card bleaches part of its numeral: the recogniser must still
read it (an unsure first reading is tried again with the symbol cut at other ink/paper
splits, see Recogniser._classify)."""
from __future__ import annotations

import cv2
import numpy as np

from tableref.vision.cardface import all_codes, render_card
from tableref.vision.classify_colour import white_gains
from tableref.vision.classify_symbol import CANON_H, CANON_W, six_or_nine, symbol_mask
from tableref.vision.recognise import Recogniser, _settle_six_nine


def _glared(face: np.ndarray, amount: float) -> np.ndarray:
    """A soft slanted band of light across the upper half of the centre, as from a lamp."""
    h, w = face.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    band = np.exp(-(((yy - 0.42 * h) + 0.3 * (xx - w / 2)) / (0.09 * h)) ** 2)[..., None]
    f = face.astype(np.float32)
    return (f + amount * band * (255 - f)).astype(np.uint8)


def test_a_numeral_half_bleached_by_glare_is_still_read() -> None:
    rec = Recogniser("uno")
    codes = [c for c in all_codes("uno") if not c.startswith("wild")]
    wrong = []
    for code in codes:
        face = cv2.resize(render_card(code, "classic", 160, np.random.default_rng(1))[:, :, :3], (CANON_W, CANON_H))
        card, _ = rec.classify_card(_glared(face, 0.6))
        if card != code:
            wrong.append((code, card))
    assert not wrong, wrong


def test_a_re_read_keeps_the_underline_the_first_cut_saw() -> None:
    # a re-read's cut may lose the 6's underline; the first cut's underline still decides
    face = cv2.resize(render_card("red-6", "classic", 160, np.random.default_rng(1))[:, :, :3], (CANON_W, CANON_H))
    first = symbol_mask(face, white_gains(face))
    assert six_or_nine(first) == "6"
    lost = np.zeros_like(first)
    probs = {"6": 0.2, "9": 0.8}
    assert _settle_six_nine(probs, (lost,)) == probs
    assert _settle_six_nine(probs, (lost, first)) == {"6": 1.0, "9": 0.0}
