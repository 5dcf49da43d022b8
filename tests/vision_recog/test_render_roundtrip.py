"""Rendered cards, rotated and tilted on procedural tables under camera effects, come back
as the right code; clean rectified renders classify exactly."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import all_codes, is_ninety_nine, render_card
from tableref.vision.classify_symbol import CANON_H, CANON_W
from tableref.vision.classify_training import render_scene
from tableref.vision.recognise import Recogniser


def test_clean_rectified_renders(recogniser) -> None:
    total, ok = 0, 0
    for code in all_codes("uno_family"):
        for style in ("classic", "clone"):
            face = cv2.resize(render_card(code, style, 160)[:, :, :3], (CANON_W, CANON_H))
            for img in (face, cv2.rotate(face, cv2.ROTATE_180)):
                got, conf = recogniser.classify_card(img)
                total += 1
                ok += got == code
    # measured 97% (the Wild Draw Four / Wild in one style are the misses)
    assert ok / total >= 0.93, f"{ok}/{total}"


def test_ninety_nine_faces_with_their_deck() -> None:
    rec = Recogniser("ono99")
    codes = all_codes("ono99")
    ok = sum(rec.classify_card(cv2.resize(render_card(c, "ono99", 160)[:, :, :3], (CANON_W, CANON_H)))[0] == c
             for c in codes)
    # measured 17/17 (15/17 before the "1" grazing the oval's rim was kept)
    assert ok == len(codes), f"{ok}/{len(codes)}"


# minus10 only to 3 %: further, its small "-" reaches the rim and the card reads num-10
@pytest.mark.parametrize("code,most", [("num-10", 0.05), ("num-1", 0.05), ("num-0", 0.05), ("minus10", 0.03)])
def test_wide_ninety_nine_numbers_survive_an_off_centre_outline(code: str, most: float) -> None:
    # a finder outline a little off the card shifts the number sideways: the "1" of a "10"
    # then grazes the centre oval's rim and must not be dropped (it read as num-0 before)
    rec = Recogniser("ono99_2022")
    face = cv2.resize(render_card(code, "ono99", 160)[:, :, :3], (CANON_W, CANON_H))
    for shift in sorted({-most, -0.03, 0.03, most}):
        m = np.float32([[1, 0, shift * CANON_W], [0, 1, 0]])
        img = cv2.warpAffine(face, m, (CANON_W, CANON_H), borderMode=cv2.BORDER_REPLICATE)
        got, conf = rec.classify_card(img)
        assert got == code, (shift, got, conf)


def test_random_scenes_round_trip(recogniser) -> None:
    rng = np.random.default_rng(2024)
    codes = all_codes("uno112")
    n, ok, wrong = 40, 0, 0
    for _ in range(n):
        code = codes[int(rng.integers(len(codes)))]
        img, _ = render_scene(code, rng, (640, 480), short=float(rng.uniform(100, 200)))
        got = recogniser.identify(img).card
        ok += got == code
        wrong += got is not None and got != code
    # a miss should mostly be "unknown", not a wrong card
    assert ok >= 0.75 * n and wrong <= 0.1 * n, (ok, wrong)


def test_quad_lands_on_the_card(recogniser) -> None:
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(10):
        img, true_quad = render_scene("blue-5", rng, (640, 480), style="classic", short=150.0)
        r = recogniser.identify(img)
        if r.quad is not None:
            assert r.quad.shape == (4, 2) and r.quad.dtype == np.float32
            inter, _ = cv2.intersectConvexConvex(r.quad, true_quad.astype(np.float32))
            union = cv2.contourArea(r.quad) + cv2.contourArea(true_quad) - inter
            hits += inter / union > 0.8
    assert hits >= 8


def test_non_card_answers_none_not_ninety_nine_card_in_uno_deck() -> None:
    rec = Recogniser("uno")
    face = cv2.resize(render_card("num-7", "ono99", 160)[:, :, :3], (CANON_W, CANON_H))
    got, _ = rec.classify_card(face)
    assert got is None or got.endswith("-7")  # the uno deck has no 99 codes to answer with
    assert got is None or not is_ninety_nine(got)


def test_four_ink_mix_marks_a_wild_not_a_coloured_card() -> None:
    from tableref.vision.classify_colour import colour_scores, white_gains
    from tableref.vision.recognise import _four_inks
    for code, style, want in (("wild", "clone", True), ("red-7", "classic", False), ("blue-skip", "clone", False)):
        face = cv2.resize(render_card(code, style, 160)[:, :, :3], (CANON_W, CANON_H))
        scores = colour_scores(face, white_gains(face))
        assert _four_inks({c: scores[c] for c in ("red", "yellow", "green", "blue")}) is want, (code, scores)
