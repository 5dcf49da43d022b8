"""The camera (or the table) bumped mid-game: the watcher follows the pile to where it now
lies in the picture instead of waiting forever on a change that reaches every edge."""
from __future__ import annotations

import pathlib
import sys

import cv2
import numpy as np
import pytest

from tableref.vision.camera_shift import camera_move  # noqa: E402
from tableref.vision.motion import MotionConfig, Normaliser  # noqa: E402
from tableref.vision.recognise import Recogniser  # noqa: E402
from tableref.vision.sources import open_source  # noqa: E402
from tableref.vision.synth.score import score_clip, watch_events  # noqa: E402
from tableref.vision.watcher import PileWatcher  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))

from other_clips import OtherScene  # noqa: E402

SIZE = (640, 360)
# the second generator's clips (3 players, 6 hands to the pile) whose knock comes as a card is
# let go, and which lost a card before the watcher fitted a move by its corners (5 of 6 found
# and 1 extra; 4 of 6 and 1 extra)
SLAPPED = (3, 20)


def _bump(shift: tuple[float, float], degrees: float) -> np.ndarray:
    """The camera's move as a map of the frame: turned about its centre, then shifted."""
    m = cv2.getRotationMatrix2D((SIZE[0] / 2, SIZE[1] / 2), degrees, 1.0)
    m[:, 2] += shift
    return m


def _frames(seed: int) -> tuple[list, dict]:
    source = open_source(f"synth:seed={seed},size={SIZE[0]}x{SIZE[1]},duration=10")
    frames = [(f.index, f.t, f.image) for f in source]
    return frames, source.ground_truth()


@pytest.mark.parametrize("seed, shift, degrees", [(0, (4.0, 2.0), 0.5), (16, (2.0, 1.0), 1.0)])
def test_a_bump_mid_game_loses_no_card(seed: int, shift: tuple[float, float], degrees: float) -> None:
    # measured on seeds 0-23 (4, 8, 2 and 3 px, turned 0.5, 0, 1 and -0.3 degrees, 6 seeds
    # each): 71 of 72 events found and 1 extra, where the watcher before found 52 with 8 extra
    frames, truth = _frames(seed)
    m = _bump(shift, degrees)
    watcher = PileWatcher(Recogniser("uno"))
    reported = []
    for index, t, image in frames:
        if t >= 4.0:  # the bump: the picture stays moved from here on
            image = cv2.warpAffine(image, m, SIZE, borderMode=cv2.BORDER_REFLECT)
        reported += [e.as_json() for e in watcher.feed(index, t, image)]
    reported += [e.as_json() for e in watcher.finish()]
    s = score_clip(truth, reported, f"seed {seed}")
    assert sum(e["t"] > 4.5 for e in truth["events"]) >= 2  # cards were played after the bump
    assert s.found == s.truth and s.extra == 0, s.summary()


def test_the_fit_finds_the_move_and_nothing_where_nothing_moved() -> None:
    frames, truth = _frames(0)
    norm, mc = Normaliser(SIZE), MotionConfig()
    before = frames[95][2]  # two cards on the pile, no hand
    old = norm(before)
    assert camera_move(old, norm(before), mc) is None
    moved = norm(cv2.warpAffine(before, _bump((4.0, 2.0), 0.5), SIZE, borderMode=cv2.BORDER_REFLECT))
    m = camera_move(old, moved, mc)
    assert m is not None
    # the same map at working size: the turn as it was, the shift scaled
    true = _bump((4.0, 2.0), 0.5)
    true[:, 2] *= norm.scale
    corners = np.float32([[0, 0], [255, 0], [255, 143], [0, 143]]).reshape(-1, 1, 2)
    off = cv2.transform(corners, m) - cv2.transform(corners, true.astype(np.float32))
    assert float(np.abs(off).max()) < 1.0, off.reshape(-1, 2)
    # a card landing, the camera still: no move (the card pulls a fit its way a pixel at most)
    landed = next(e for e in truth["events"] if e["frame"] > 120)
    after = norm(frames[landed["frame"] + 10][2])
    assert camera_move(old, after, mc) is None


@pytest.mark.parametrize("seed", SLAPPED)
def test_a_knock_as_a_card_is_slapped_down_loses_neither(seed: int) -> None:
    # the second clip generator's knock (shifted, turned and zoomed, two frames of shake) in
    # the frame a card is let go: the arm still lies across the region's edge when all is
    # still. Measured on tools/other_clips.py --clips 12 --seed 300 --size 640x360 --bumps 1:
    # 152 of 156 events found before (each card slapped down with a knock lost), 155 after
    # (one taken back with a knock, on a plain table, is still lost)
    scene = OtherScene(seed, SIZE, players=3, plays=6, bumps=1)
    knock = scene.knocks[0][0]
    assert any(a.kind == "land" and a.start + a.reach == knock for a in scene.acts)
    watcher = PileWatcher(Recogniser("uno"))
    reported, gain = [], 1.0
    for i in range(scene.n_frames):
        image, gain = scene.frame(i, gain)
        reported += [e.as_json() for e in watcher.feed(i, i / scene.fps, image)]
    reported += [e.as_json() for e in watcher.finish()]
    s = score_clip(scene.truth(), reported, f"seed {seed}")
    assert s.found == s.truth and s.extra == 0, s.summary()


def test_a_knock_over_a_striped_cloth_does_not_turn_the_next_card_into_an_arm(tmp_path: pathlib.Path) -> None:
    # other_clips seed 906 (5 players, --bumps 1): a knock as a card lands by the frame's
    # bottom edge, on a cloth of sharp diagonal stripes, filmed to mp4. The fit is a fraction
    # of a pixel off, which leaves specks along every stripe; with the video's noise they
    # came and went from frame to frame, joined the card's change to the frame's edge far
    # from the card, and the card and the six after it were waited on as an arm (5 of 12
    # found, 1 extra). Fed the frames unfilmed, the watcher found all 12 even then.
    scene = OtherScene(906, SIZE, players=5, bumps=1)
    path = tmp_path / "striped.mp4"
    scene.write(path)
    s = score_clip(scene.truth(), watch_events(str(path), Recogniser("uno")), "seed 906")
    assert s.truth == 12
    assert s.found == s.truth and s.extra == 0, s.summary()
