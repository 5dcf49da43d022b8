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
    # within 7 degrees: straight up or down the hand's round end reaches the frame's edge,
    # and where it crosses there pulls the bearing by up to 6
    assert angle_gap(found.degrees, bearing) < 7
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
    assert angle_gap(trail.bearing(13, CARD).degrees, 90.0) < 7  # type: ignore[union-attr]
    assert trail.bearing(len(frames) - 1, CARD, since=len(frames) - 1) is None
    off = CARD + np.array([100, 0], np.float32)  # a card nothing touched
    assert trail.bearing(len(frames) - 1, off) is None


def hand_frames(card_centre: tuple[float, float], bearing: float, length: float) -> list[np.ndarray]:
    """A hand (a palm and a thumb to one side, as on a real hand) coming in along `bearing`
    to a card at `card_centre` and going back, its arm seen for `length` px behind the palm."""
    d = np.array([math.cos(math.radians(bearing)), -math.sin(math.radians(bearing))])
    side = np.array([-d[1], d[0]])
    frames = []
    for reach in [130, 100, 75, 55, 40, 30, 30, 40, 55, 75, 100, 130]:
        img = np.full((SIZE[1], SIZE[0], 3), (90, 120, 100), np.uint8)
        palm = np.asarray(card_centre) + d * reach
        cv2.line(img, tuple(int(v) for v in palm), tuple(int(v) for v in palm + d * length), (40, 60, 200), 24)
        cv2.circle(img, tuple(int(v) for v in palm), 20, (40, 60, 200), -1)
        cv2.circle(img, tuple(int(v) for v in palm + side * 22 - d * 6), 9, (40, 60, 200), -1)  # the thumb
        frames.append(img)
    return frames


def card_at(x: float, y: float) -> np.ndarray:
    return CARD - CENTRE + np.array([x, y], np.float32)


def test_a_hand_whose_arm_soon_leaves_the_frame_is_unsure() -> None:
    """Near the frame's edge only the hand shows, and its own shape turns the bearing: the
    confidence says so; the same hand with its arm in view is sure."""
    near_edge = trail_of(hand_frames((128, 34), 80.0, 12)).bearing(11, card_at(128, 34))
    assert near_edge is not None and near_edge.confidence < 0.7
    in_view = trail_of(hand_frames((70, 72), 10.0, 400)).bearing(11, card_at(70, 72))
    assert in_view is not None and in_view.confidence > 0.8


def test_a_hand_seen_in_one_frame_only_is_unsure() -> None:
    frames = reach_frames([200.0], [(40, 60, 200)])
    still = np.full_like(frames[0], (90, 120, 100))
    found = trail_of([still, frames[5], still]).bearing(2, CARD)
    assert found is None or found.confidence < 0.7


@pytest.mark.parametrize("y, bearings", [(20, (60.0, 75.0, 90.0, 105.0, 120.0)),  # a pile half a short side below the top edge
                                         (124, (240.0, 255.0, 270.0, 285.0, 300.0))])  # ... and above the bottom edge
def test_a_hand_from_the_edge_the_pile_lies_near_names_its_seat(y: float, bearings: tuple[float, ...]) -> None:
    """A hand from the frame's edge next to the pile: straight towards that edge nothing lies
    beyond a card's short side, so only the hand's sides and thumb were left to count (no
    bearing at all for most of these, the rest 35 to 48 degrees off). Now each names its
    direction within 30 degrees: half the gap between six seats spaced evenly."""
    for bearing in bearings:
        found = trail_of(hand_frames((128, y), bearing, 400)).bearing(11, card_at(128, y))
        assert found is not None, bearing
        assert angle_gap(found.degrees, bearing) < 30, (bearing, found)
        assert found.confidence < 0.7  # little of the hand shows: the referee goes by turn order
