"""The shipped learned card reader (vision/models/card_reader.onnx, and the corner reader)
run through onnxruntime, as the runtime does (no torch): it loads, reads rendered cards of every code, reproduces the
figure its training run recorded, turns card-free views down, and a bad file gives the one
narrow error."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision import reader_data
from tableref.vision.card_model import (CHECK_SAMPLES, CORNER_MODEL_FILE, CORNER_MODEL_FILES, MODEL_DIR, MODEL_FILE, NONE,
                                        CardModel, CombinedModel, HIDDEN_FILL, ModelFileError, corner, shrink)
from tableref.vision.cardface import UNO_STYLES, Printing, all_codes, is_ninety_nine, render_card
from tableref.vision.classify_training import (CARD_FREE_KINDS, camera_effects, card_free_scene, card_quad,
                                               jitter_quad)
from tableref.vision.find_card import WARP_H, WARP_W, warp_card

# share of the moderately augmented renders of every code (both UNO styles) read right
# (the shipped model reads 163/163)
RENDER_RATE = 0.97
# share of card-free views read as "_none" (the shipped model: 60/60)
REJECT_RATE = 0.95


@pytest.fixture(scope="module")
def model() -> CardModel:
    return CardModel.load()


def test_shipped_model_loads(model: CardModel) -> None:
    assert model.classes == reader_data.classes()
    if model.view == "corner":
        assert model.meta.get("corner_generator") == reader_data.CORNER_VERSION, "retrain the corner reader"
    assert model.temperature > 0
    card = render_card("red-7", "classic", 128)[:, :, :3]
    p = model.probabilities([card])
    assert p.shape == (1, len(model.classes))
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-4)
    e = model.embed([card, card])
    assert e.shape == (2, model.meta["embedding_dim"])


def _moderate_render(code: str, style: str, rng: np.random.Generator) -> np.ndarray:
    """A render photographed gently: on a grey table, a little perspective, mild camera
    effects, and an outline off by about 1 %, warped back to the canonical card."""
    from tableref.vision.classify_training import paste
    scene = np.full((320, 320, 3), int(rng.integers(40, 200)), np.uint8)
    quad = card_quad(rng, 320, 320, 150, tilt=0.05)
    scene = camera_effects(paste(scene, render_card(code, style, 200, rng), quad), rng, strength=0.4)
    return warp_card(scene, jitter_quad(quad, rng, 0.01), (WARP_W, WARP_H))


def test_reads_every_code(model: CardModel) -> None:
    rng = np.random.default_rng(2468)
    cards, truth = [], []
    for code in all_codes("all"):
        for style in ("ono99",) if is_ninety_nine(code) else UNO_STYLES:
            cards.append(_moderate_render(code, style, rng))
            truth.append(code)
    said = [model.classes[k] for k in model.probabilities(cards).argmax(axis=1)]
    wrong = [(t, s) for t, s in zip(truth, said) if t != s]
    assert len(truth) - len(wrong) >= RENDER_RATE * len(truth), wrong


def test_landscape_card_is_read_upright(model: CardModel) -> None:
    card = _moderate_render("blue-skip", "classic", np.random.default_rng(5))
    landscape = np.ascontiguousarray(np.rot90(card))
    assert np.array_equal(shrink([landscape]), shrink([card]))


@pytest.mark.parametrize("name", [MODEL_FILE, *CORNER_MODEL_FILES.values()])
def test_recorded_validation_figure_is_reproduced(name: str) -> None:
    """The first validation samples are made again from their seed and read: the accuracy
    matches what the training run recorded (a different cv2 build may draw a pixel apart).
    Every shipped reader: the whole-card one and the corner ones (identify --all's fans),
    each on its own corner stream."""
    model = CardModel.load(MODEL_DIR / name)
    val = model.meta["validation"]
    corner_view = model.view == "corner"
    assert model.meta.get("generator") == reader_data.generator(corner_view), "the generator changed: retrain it"
    assert model.classes == reader_data.classes()
    version = model.meta.get("corner_generator") or 0
    if corner_view:
        assert CORNER_MODEL_FILES.get(version) == name, "retrain the corner reader"
    images, labels = reader_data.dataset(model.meta["val_seed"], 0, CHECK_SAMPLES,
                                         hidden=corner_view, corner_version=version)
    p = model.probabilities_shrunk(shrink(images, model.view), both_ends=False)
    accuracy = float((p.argmax(axis=1) == labels).mean())
    assert abs(accuracy - val["check_accuracy"]) <= 0.02, (accuracy, val["check_accuracy"])


def test_the_corner_reader_reads_the_index_corner_that_shows() -> None:
    # a fanned card shows one index corner; the other lies under the cards painted out
    card = render_card("blue-4", "classic", 128)[:, :, :3].copy()
    h, w = card.shape[:2]
    top_left = corner(card)
    assert top_left.shape[:2] == (round(h * 0.48), round(w * 0.5))
    assert np.array_equal(top_left, card[:top_left.shape[0], :top_left.shape[1]])
    card[: h // 2, : w // 2] = HIDDEN_FILL  # the top-left corner hidden: the bottom-right one, turned
    assert np.array_equal(corner(card), card[::-1, ::-1][:top_left.shape[0], :top_left.shape[1]])
    reader = CardModel.load(MODEL_DIR / CORNER_MODEL_FILE)
    assert reader.view == "corner"
    p = reader.probabilities([card])[0]
    assert reader.classes[int(p.argmax())] == "blue-4"


def test_the_fan_reader_is_the_corner_readers_geometric_mean() -> None:
    """A fanned card is read by every corner reader at once (CombinedModel): each card's
    probabilities are the geometric mean of theirs, renormalised."""
    rng = np.random.default_rng(5)
    cards = [reader_data.card_sample(code, rng, hidden=True) for code in ("red-reverse", "blue-7", "green-skip")]
    readers = [CardModel.load(MODEL_DIR / f) for f in CORNER_MODEL_FILES.values()]
    assert len(readers) == 2
    each = [m.probabilities(cards) for m in readers]
    both = CombinedModel(readers).probabilities(cards)
    mean = np.sqrt((each[0] + 1e-6) * (each[1] + 1e-6))
    assert np.allclose(both, mean / mean.sum(axis=1, keepdims=True), atol=1e-5)
    assert np.allclose(both.sum(axis=1), 1.0)
    assert not np.allclose(each[0], each[1], atol=1e-3)  # two readers, not one file twice


def test_card_free_views_are_declined(model: CardModel) -> None:
    rng = np.random.default_rng(97)
    views = []
    for i in range(60):
        scene = card_free_scene(rng, CARD_FREE_KINDS[i % len(CARD_FREE_KINDS)], (320, 320))
        views.append(warp_card(scene, card_quad(rng, 320, 320, float(rng.uniform(80, 150))), (WARP_W, WARP_H)))
    said = [model.classes[k] for k in model.probabilities(views).argmax(axis=1)]
    cards = [s for s in said if s != NONE]
    assert len(said) - len(cards) >= REJECT_RATE * len(said), cards


def test_bad_model_file_is_one_narrow_error(tmp_path) -> None:
    with pytest.raises(ModelFileError, match="missing"):
        CardModel.load(tmp_path / "absent.onnx")
    bad = tmp_path / "card_reader.onnx"
    bad.write_bytes(b"not a model at all")
    (tmp_path / "card_reader.json").write_text('{"classes": ["a", "_none"]}')
    with pytest.raises(ModelFileError, match="corrupt"):
        CardModel.load(bad)


def test_printed_inks_keep_yellow_apart_from_green() -> None:
    """The training deck inks (reader_data.INK_SHADES): a field drawn in another deck's
    shade still shows its colour, and no yellow shade is as dark or as green as a green one,
    so an olive green and a dim yellow are never the same picture."""
    import cv2
    rng = np.random.default_rng(3)
    hue = {}
    for colour in reader_data.INK_SHADES:
        inks = np.array([[reader_data.deck_ink(colour, rng) for _ in range(300)]], np.uint8)
        hsv = cv2.cvtColor(inks, cv2.COLOR_BGR2HSV)[0].astype(int)
        hue[colour] = hsv
        field = tuple(int(c) for c in inks[0, 0])
        card = render_card(f"{colour}-5", "classic", 128, rng, Printing(field=field))  # type: ignore[arg-type]
        assert tuple(int(c) for c in card[64, 12, :3]) == field  # the field, left of the oval
    yellow, green = hue["yellow"], hue["green"]
    assert yellow[:, 0].max() < green[:, 0].min()
    assert yellow[:, 2].min() > green[:, 2].max()
