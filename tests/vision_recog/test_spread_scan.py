"""spread_scan: the cards of a tight cluster that no outline parts, found by reading a grid of
card-sized windows (`identify --all`)."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tableref.vision.cardface import ASPECT, all_codes
from tableref.vision.classify_training import CARD_FREE_KINDS, card_free_scene
from tableref.vision.find_card import side_lengths
from tableref.vision.recognise import Recogniser
from tableref.vision.spread_neighbours import edge_image
from tableref.vision.spread_read import SpreadConfig, SpreadReader, read_spread
from tableref.vision.spread_scan import ScanConfig, card_size, lie, paper, peaks, scan, unexplained, windows
from tableref.vision.synth.spread import spread_scene, varied_spread
from tableref.vision.synth.spread_score import score_spread


def _box(cx: float, cy: float, w: float, h: float, deg: float) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), deg)).astype(np.float32)


def test_windows_are_card_sized_and_centred_on_the_region_at_the_stride() -> None:
    region = np.zeros((200, 300), np.uint8)
    region[50:150, 100:200] = 255
    quads = windows(region, 40.0, math.pi / 2, 10.0)
    assert len(quads) == 100  # a 10 x 10 grid over the 100 x 100 square
    centres = quads.mean(axis=1)
    assert centres[:, 0].min() >= 100 and centres[:, 0].max() < 200
    assert centres[:, 1].min() >= 50 and centres[:, 1].max() < 150
    short, long_ = side_lengths(quads[0])
    assert abs(short - 40) < 0.5 and abs(long_ - 40 * ASPECT) < 0.5
    # the long side runs along the angle: upright at a quarter turn, lying at none
    assert np.ptp(quads[0][:, 1]) > np.ptp(quads[0][:, 0])
    lying = windows(region, 40.0, 0.0, 10.0)[0]
    assert np.ptp(lying[:, 0]) > np.ptp(lying[:, 1])
    assert len(windows(np.zeros((50, 50), np.uint8), 40.0, 0.0, 10.0)) == 0


def test_peaks_keep_the_surest_window_of_each_card() -> None:
    quads = np.stack([_box(100, 100, 40, 62, 0), _box(104, 100, 40, 62, 0),  # one card, twice
                      _box(170, 100, 40, 62, 0),                             # the next card
                      _box(240, 100, 40, 62, 0), _box(310, 100, 40, 62, 0)])
    sure = np.array([0.97, 0.99, 0.96, 0.9, 0.99])
    codes = ["red-1", "red-1", "blue-2", "green-3", None]
    # the second window (surer) stands for the first; too unsure and "no card" are no peaks
    assert peaks(quads, sure, codes, ScanConfig()) == [1, 2]


def test_the_lie_of_a_cluster_is_its_cards_angle_either_way_round() -> None:
    img = np.full((400, 600, 3), 40, np.uint8)
    for cx in (200, 290, 380):
        cv2.fillConvexPoly(img, np.round(_box(cx, 200, 80, 124, 20)).astype(np.int32), (240, 240, 240))
    region = np.full(img.shape[:2], 255, np.uint8)
    angle = math.degrees(lie(edge_image(img), region)) % 90
    assert min(abs(angle - 20), abs(angle - 110)) < 2, angle


def test_card_stock_is_the_bright_unsaturated_shapes_filled() -> None:
    img = np.full((300, 400, 3), (30, 60, 120), np.uint8)  # a brown table
    cv2.rectangle(img, (50, 50), (150, 200), (250, 250, 250), -1)  # a card's white border ...
    cv2.rectangle(img, (60, 60), (140, 190), (0, 0, 220), -1)     # ... round its red field
    cv2.circle(img, (300, 100), 3, (255, 255, 255), -1)           # a glint
    stock = paper(img, least_area=500)
    assert stock[125, 100] == 255  # the field inside the border counts
    assert stock[100, 300] == 0 and stock[250, 300] == 0
    outlines = [_box(100, 125, 120, 170, 0), _box(300, 100, 30, 30, 0)]
    region = unexplained(stock, outlines, [_box(100, 90, 110, 80, 0)], 2.0)
    assert region[170, 100] == 255 and region[90, 100] == 0  # the card found is explained


def test_the_card_size_is_where_most_windows_read_surely() -> None:
    region = np.zeros((400, 600), np.uint8)
    region[150:250, 200:400] = 255
    centres = np.array([[240.0, 200.0], [300.0, 200.0], [360.0, 200.0]])

    def read(quads: np.ndarray) -> tuple[np.ndarray, list[str | None]]:
        # a stand-in reader: sure only of windows of short side 50 (within 6%) on a card's centre
        shorts = np.array([side_lengths(q)[0] for q in quads])
        near = np.min(np.linalg.norm(quads.mean(axis=1)[:, None] - centres[None], axis=2), axis=1)
        sure = np.where((np.abs(shorts / 50 - 1) < 0.06) & (near < 12), 0.99, 0.1)
        return sure, ["red-1"] * len(quads)
    short = card_size(read, region, math.pi / 2)
    assert short is not None and abs(short / 50 - 1) < 0.06
    assert card_size(lambda q: (np.zeros(len(q)), [None] * len(q)), region, 0.0) is None


@pytest.mark.parametrize("middle", [True, False])
def test_the_card_size_is_the_middle_of_the_sizes_read_most(middle: bool) -> None:
    # the learned reader reads a card surely in windows somewhat smaller or bigger than it:
    # a stand-in sure of windows 0.82 to 1.2 times the card's short side (60 px) on its centre
    region = np.zeros((400, 600), np.uint8)
    region[150:250, 250:350] = 255

    def read(quads: np.ndarray) -> tuple[np.ndarray, list[str | None]]:
        shorts = np.array([side_lengths(q)[0] for q in quads])
        near = np.linalg.norm(quads.mean(axis=1) - [300.0, 200.0], axis=1)
        sure = np.where((shorts / 60 >= 0.82) & (shorts / 60 <= 1.2) & (near < 12), 0.99, 0.1)
        return sure, ["red-1"] * len(quads)
    short = card_size(read, region, math.pi / 2, ScanConfig(run_middle=middle))
    assert short is not None
    assert (abs(short / 60 - 1) < 0.08) == middle, short


def _tight_cluster() -> tuple[np.ndarray, list]:
    """Two rows of small cards overlapping by 30%, touching row to row on a dark mat
    (varied_spread, seed 5, the 9th spread): the finder outlines the cluster, never a card."""
    codes = all_codes("uno")
    rng = np.random.default_rng(5)
    for _ in range(9):
        hand = [codes[j] for j in rng.integers(0, len(codes), int(rng.integers(4, 14)))]
        img, cards = varied_spread(hand, rng, overlap=0.3)
    return img, cards


def test_a_tight_cluster_is_read_by_windows_where_no_outline_parts_its_cards() -> None:
    img, cards = _tight_cluster()
    rec = Recogniser("uno")
    assert len(cards) == 9
    # without the windows not one card is read (measured: 0/9); with them all 9, none wrong
    off = score_spread(read_spread(rec, img, SpreadConfig(scan=None)), cards)
    assert off.right <= 2, off
    on = score_spread(read_spread(rec, img), cards)
    assert on.right >= 8 and on.wrong == 0, on
    # the windows alone, at the true card size, find the cards in their places
    short = float(np.median([side_lengths(c.quad)[0] for c in cards]))
    stock = paper(img, short * short)
    region = unexplained(stock, [np.concatenate([c.quad for c in cards])], [], short / 2)
    found = scan(lambda q: rec.window_sureness(img, q), region, short, math.pi / 2)
    placed = [code for quad, code, _ in found
              if any(c.card == code and np.linalg.norm(c.quad.mean(axis=0) - quad.mean(axis=0)) < short / 3
                     for c in cards)]
    assert len(placed) >= 6, (len(placed), len(found))


def test_a_card_found_by_a_window_stands_only_where_it_reads_the_windows_code() -> None:
    # a window straddling two cards can read surely as either: the card placed there must read
    # the same code as the window did, or it is left out
    img, cards = spread_scene(["red-5", "blue-skip", "green-0", "yellow-7"], np.random.default_rng(3))
    reader = SpreadReader(Recogniser("uno"))
    quads = [c.quad for c in cards]
    size = (float(np.median([side_lengths(q)[0] for q in quads])), float(np.median([side_lengths(q)[1] for q in quads])))
    grads = edge_image(img)
    agreed = reader._read_proposed(img, quads, [], grads, 0.9, size, [c.card for c in cards])
    assert len(agreed) >= 3 and all(any(r.card == c.card for c in cards) for r in agreed), agreed
    others = ["blue-5", "red-skip", "green-9", "yellow-1"]
    assert reader._read_proposed(img, quads, [], grads, 0.9, size, others) == []


def test_card_free_scenes_give_no_card_with_the_windows() -> None:
    # the windows read every patch of card stock (a pale table, a card back, another game's
    # card): none may come out as a card (tools/eval_reject.py --all measures more)
    rng = np.random.default_rng(41)
    rec = Recogniser("uno")
    said = [r.card for i in range(8)
            for r in read_spread(rec, card_free_scene(rng, CARD_FREE_KINDS[i % len(CARD_FREE_KINDS)]))]
    assert said == []
