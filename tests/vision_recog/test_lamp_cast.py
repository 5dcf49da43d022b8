"""A warm lamp on a webcam whose white balance does not follow it turns a card's white border
orange: the finder's tests for paper (bright, unsaturated) missed the card, and identify read
nothing. The cast is estimated from the picture's brightest pixels and taken out first."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import ASPECT, render_card
from tableref.vision.classify_training import paste
from tableref.vision.colour_cast import LAMPS, cast_gains, under_lamp, without_cast
from tableref.vision.find_card import find_cards, order_quad, quad_iou

W, H = 640, 480


def _table_scene(code: str, style: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A card on a light grey wall or table in plain light, as a soft phone photo shows it
    (a little blur and noise), and its outline."""
    rng = np.random.default_rng(seed)
    grain = cv2.resize(rng.normal(0, 6, (H // 8, W // 8)), (W, H), interpolation=cv2.INTER_CUBIC)
    base = rng.uniform(175, 200) + rng.normal(0, 3, 3)
    scene = np.clip(base[None, None, :] + grain[:, :, None], 0, 255).astype(np.uint8)
    short = float(rng.uniform(120, 170))
    centre = (float(rng.uniform(0.35, 0.65) * W), float(rng.uniform(0.4, 0.6) * H))
    outline = order_quad(cv2.boxPoints((centre, (short, short * ASPECT), float(rng.uniform(-30, 30)))))
    scene = cv2.GaussianBlur(paste(scene, render_card(code, style, 300), outline), (0, 0), 1.5)
    return np.clip(scene + rng.normal(0, 4, scene.shape), 0, 255).astype(np.uint8), outline


def test_the_lamp_is_measured_from_the_paper() -> None:
    scene, _ = _table_scene("blue-5", "classic", 1)
    assert cast_gains(scene) is None  # plain light: nothing to take out
    assert without_cast(scene) is scene
    gains = cast_gains(under_lamp(scene, "tungsten"))
    assert gains is not None
    want = 1 / np.float32(LAMPS["tungsten"])
    np.testing.assert_allclose(gains / gains.min(), want / want.min(), rtol=0.08)



@pytest.mark.parametrize("seed", range(4))
def test_the_paper_is_each_channels_brightest_but_a_few_of_the_unclipped(seed: int) -> None:
    # the definition, by sorting: the estimate is read off histograms (sorting cost 3 ms a
    # frame), and taking it out by a table per channel; both must give exactly this
    rng = np.random.default_rng(seed)
    scene = under_lamp(rng.integers(0, 256, (H, W, 3), dtype=np.uint8), "warm")
    scene[: H // 8] = 255  # glare, clipped in every channel: not paper
    small = cv2.resize(scene, (W // 4, H // 4), interpolation=cv2.INTER_AREA).reshape(-1, 3)
    px = small[small.min(axis=1) < 253]
    k = int(99.5 / 100 * (len(px) - 1))
    paper = np.partition(px, k, axis=0)[k].astype(np.float32) + 1
    want = np.minimum(paper.max() / paper, 2.5).astype(np.float32)
    np.testing.assert_array_equal(cast_gains(scene), want)
    np.testing.assert_array_equal(without_cast(scene), np.minimum(scene * want, 255).astype(np.uint8))

def test_a_coloured_cloth_in_plain_light_keeps_its_colours() -> None:
    # the brightest part is a pale cloth, a little warm: not a lamp's cast
    cloth = np.full((H, W, 3), (175, 205, 215), np.uint8)
    assert without_cast(cloth) is cloth


def test_an_unknown_lamp_is_named() -> None:
    with pytest.raises(ValueError, match="unknown lamp 'candle': one of tungsten"):
        under_lamp(np.zeros((4, 4, 3), np.uint8), "candle")


@pytest.mark.parametrize("code,style,seed", [("red-7", "classic", 2), ("green-reverse", "clone", 3),
                                             ("yellow-draw2", "classic", 4), ("blue-skip", "clone", 5)])
def test_a_card_under_a_warm_lamp_is_found_and_read(recogniser, code: str, style: str, seed: int) -> None:
    scene, outline = _table_scene(code, style, seed)
    lit = under_lamp(scene, "tungsten")
    assert max(quad_iou(q.quad, outline) for q in find_cards(lit)[:3]) > 0.85
    assert recogniser.identify(lit).card == code


def test_a_spread_under_a_warm_lamp_reads_as_in_plain_light() -> None:
    # identify --all takes the cast out of the whole picture (the spread scan's card stock is
    # bright and unsaturated too). Rendered cards' crisp borders are found under the lamp
    # even without it (9/9 here either way): photo-faced spreads show the gain (README)
    from test_spread_scan import _tight_cluster

    from tableref.vision.recognise import Recogniser
    from tableref.vision.spread_read import read_spread
    from tableref.vision.synth.spread_score import score_spread

    img, cards = _tight_cluster()
    got = score_spread(read_spread(Recogniser("uno"), under_lamp(img, "tungsten")), cards)
    assert got.right >= 8 and got.wrong == 0, got
