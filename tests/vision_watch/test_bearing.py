"""bearing.py: where the hand that laid a card came from, on drawn frames (a plain table,
arms as bars of another colour moving in, laying the card, going back)."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tableref.seats import angle_gap
from tableref.vision.bearing import BearingTrail

SIZE = (256, 144)
CARD = np.array([(108, 44), (148, 44), (148, 106), (108, 106)], np.float32)  # working pixels, a card of the usual size
CENTRE = CARD.mean(axis=0)


def arm(img: np.ndarray, bearing: float, reach: float, colour: tuple[int, int, int]) -> None:
    """An arm from far off towards the card along `bearing`, its hand `reach` px from the card's centre."""
    d = np.array([math.cos(math.radians(bearing)), -math.sin(math.radians(bearing))])
    hand = CENTRE + d * reach
    far = CENTRE + d * 400
    cv2.line(img, tuple(int(v) for v in hand), tuple(int(v) for v in far), colour, 30)  # an arm and a hand of a card and a half
    cv2.circle(img, tuple(int(v) for v in hand), 30, colour, -1)


def reach_frames(bearings: list[float], colours: list[tuple[int, int, int]]) -> list[np.ndarray]:
    frames = []
    for reach in [170, 140, 110, 80, 55, 35, 20, 20, 35, 55, 80, 110, 140, 170]:
        img = np.full((SIZE[1], SIZE[0], 3), (90, 120, 100), np.uint8)
        for b, c in zip(bearings, colours):
            arm(img, b, reach, c)
        frames.append(img)
    return frames


def trail_of(frames: list[np.ndarray]) -> BearingTrail:
    trail = BearingTrail(SIZE)
    for i, f in enumerate(frames):
        trail.feed(i, f)
    return trail


@pytest.mark.parametrize("bearing", [0.0, 37.0, 90.0, 151.0, 200.0, 269.0, 333.0])
def test_one_arm_gives_its_bearing_surely(bearing: float) -> None:
    found = trail_of(reach_frames([bearing], [(40, 60, 200)])).bearing(13, CARD)
    assert found is not None
    assert angle_gap(found.degrees, bearing) < 5
    assert found.confidence > 0.8


def test_two_arms_at_once_are_unsure() -> None:
    found = trail_of(reach_frames([30.0, 210.0], [(40, 60, 200), (200, 60, 40)])).bearing(13, CARD)
    assert found is not None and found.confidence < 0.3


def test_an_arm_along_the_pile_edge_is_unsure() -> None:
    frames = []
    for x in range(-60, 330, 30):  # a vertical arm sweeping across, brushing the card's side
        img = np.full((SIZE[1], SIZE[0], 3), (90, 120, 100), np.uint8)
        cv2.line(img, (x, 50), (x, 400), (40, 60, 200), 30)
        frames.append(img)
    found = trail_of(frames).bearing(len(frames) - 1, CARD)
    assert found is None or found.confidence < 0.6


def test_motion_before_the_last_event_or_away_from_the_card_is_not_the_hand() -> None:
    first = reach_frames([90.0], [(40, 60, 200)])
    frames = first + [first[-1]] * 12 + reach_frames([300.0], [(40, 60, 200)])  # a pause between two hands
    trail = trail_of(frames)
    assert angle_gap(trail.bearing(len(frames) - 1, CARD).degrees, 300.0) < 5  # type: ignore[union-attr]
    assert angle_gap(trail.bearing(13, CARD).degrees, 90.0) < 5  # type: ignore[union-attr]
    assert trail.bearing(len(frames) - 1, CARD, since=len(frames) - 1) is None
    off = CARD + np.array([100, 0], np.float32)  # a card nothing touched
    assert trail.bearing(len(frames) - 1, off) is None
