"""The camera faults the dev photos are measured under (tools/camera_faults.py, eval_photos
--camera): each the same picture every run for a photo, and each the fault it names."""
from __future__ import annotations

import pathlib
import sys

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))

from camera_faults import FAULTS, as_taken, moved  # noqa: E402


def _card_photo() -> np.ndarray:
    img = np.full((300, 400, 3), 120, np.uint8)
    cv2.rectangle(img, (150, 60), (250, 215), (250, 250, 250), -1)
    cv2.rectangle(img, (158, 68), (242, 207), (40, 40, 200), -1)
    return img


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_fault_takes_a_photo_the_same_way_every_run(fault: str) -> None:
    img = _card_photo()
    once, again = as_taken(img, fault, "src/red-5.jpg"), as_taken(img, fault, "src/red-5.jpg")
    assert np.array_equal(once, again)
    assert once.shape != img.shape or not np.array_equal(once, img)


def test_each_fault_does_what_it_names() -> None:
    img = _card_photo()
    sharp = cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
    for fault in ("motion", "defocus"):
        blurred = as_taken(img, fault, "a.jpg")
        assert cv2.Laplacian(cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var() < sharp / 2
    assert as_taken(img, "lowres", "a.jpg").shape[1] == 480
    assert as_taken(img, "dark", "a.jpg").mean() < img.mean() * 0.6
    noisy = as_taken(img, "noisy", "a.jpg")
    assert 6 < float(noisy[:40, :40].std()) < 10 and not np.array_equal(noisy, as_taken(img, "noisy", "b.jpg"))
    tilted = as_taken(img, "tilt", "a.jpg")
    white = (tilted > 200).all(axis=2)
    rows = np.flatnonzero(white.any(axis=1))  # the card's border, top row to bottom row
    top, bottom = (np.flatnonzero(white[y]) for y in (rows[0], rows[-1]))
    assert np.ptp(top) < np.ptp(bottom) * 0.95  # the far edge narrower
    # and foreshortened, as a real slant is: the card squatter than it was (100 x 155 px)
    assert np.ptp(rows) / np.ptp(bottom) < 155 / 100 * 0.95


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_scenes_outlines_move_with_the_picture(fault: str) -> None:
    # eval_spreads --camera scores a spread on its true outlines moved as the fault moves the
    # picture: a card's corners, moved, are still its corners in the faulty picture
    img = np.full((300, 400, 3), 120, np.uint8)
    cv2.rectangle(img, (150, 60), (250, 215), (250, 250, 250), -1)  # a plain white card
    taken = as_taken(img, fault, "a.jpg")
    corners = np.float32([[150, 60], [250, 60], [250, 215], [150, 215]])
    h, w = img.shape[:2]
    at = cv2.perspectiveTransform(corners[None], moved(fault, w, h))[0]
    inside = at + np.sign(at.mean(axis=0) - at) * 0.04 * taken.shape[1]  # a little in from each corner
    outside = at - np.sign(at.mean(axis=0) - at) * 0.04 * taken.shape[1]
    grey = cv2.cvtColor(taken, cv2.COLOR_BGR2GRAY).astype(float)
    for p, q in zip(inside, outside):
        assert grey[int(p[1]), int(p[0])] > grey[int(q[1]), int(q[0])] + 30, (fault, p, q)


def test_an_unknown_fault_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="one of motion"):
        as_taken(_card_photo(), "fog", "a.jpg")
