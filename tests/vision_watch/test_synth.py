"""The synthetic scene generator: deterministic, consistent ground truth, photo card faces."""
from __future__ import annotations

import pathlib

import cv2
import numpy as np
import pytest

from tableref.errors import UserError
from tableref.vision.cardface import render_card
from tableref.vision.synth.clip_writer import write_clip
from tableref.vision.synth.scene import SceneParams, SynthScene
from tableref.vision.synth.script import _Raster, hand_state


def test_same_seed_same_clip_other_seed_other_clip() -> None:
    a = SynthScene(SceneParams(seed=31, size=(320, 180), duration=6))
    b = SynthScene(SceneParams(seed=31, size=(320, 180), duration=6))
    c = SynthScene(SceneParams(seed=32, size=(320, 180), duration=6))
    assert a.ground_truth() == b.ground_truth()
    assert a.ground_truth()["events"] != c.ground_truth()["events"]
    for i in (0, a.n_frames // 2, a.n_frames - 1):
        assert np.array_equal(a.frame(i), b.frame(i))
    # rendering out of order gives the same pixels (caches do not leak between frames)
    assert np.array_equal(a.frame(5), b.frame(5))


@pytest.mark.parametrize("seed", range(40, 52))
def test_ground_truth_is_consistent(seed: int) -> None:
    scene = SynthScene(SceneParams(seed=seed, size=(320, 180), duration=10, deck="ono99" if seed % 2 else "uno"))
    truth = scene.ground_truth()
    events = truth["events"]
    assert events, "a 10 s clip has at least one event"
    frames = [e["frame"] for e in events]
    assert frames == sorted(frames) and frames[-1] < truth["frames"]
    pile: list[str] = []
    for ev in events:
        assert ev["type"] in ("landed", "removed")
        assert 0 <= ev["seat"] < truth["players"]
        assert ev["t"] == pytest.approx(ev["frame"] / truth["fps"], abs=1e-3)
        if ev["type"] == "landed":
            pile.append(ev["card"])
        else:
            assert pile and pile.pop() == ev["card"], "only the card just played is taken back"


@pytest.mark.parametrize("seed", range(60, 66))
def test_settled_frame_is_when_the_hand_clears_the_pile(seed: int) -> None:
    scene = SynthScene(SceneParams(seed=seed, size=(320, 180), duration=10))
    raster = _Raster(scene.size, scene.unit, scene.homography)
    for action in scene.script.actions:
        if action.kind == "pass":
            continue
        assert action.release <= action.settled <= action.end + 1
        # the pile right after this action (a removal's zone still includes the card taken)
        pile = scene._pile(sum(1 for a in scene.script.actions if a.kind != "pass" and a.release <= action.release))
        zone_cards = pile + ([(action.card, action.pose)] if action.kind == "remove" else [])
        zone = raster.pile_zone(zone_cards)
        st = hand_state(action, action.settled)
        if st is not None:
            assert not cv2.countNonZero(cv2.bitwise_and(zone, raster.hand_mask(st)))
        if action.settled > action.release:
            before = hand_state(action, action.settled - 1)
            assert before is not None and cv2.countNonZero(cv2.bitwise_and(zone, raster.hand_mask(before)))


def _photo_folder(tmp_path: pathlib.Path, rows: list[str] | None = None) -> pathlib.Path:
    """Photos made here: rendered cards pasted on a grey table, as a camera would see them."""
    for code in ("red-3", "blue-skip"):
        face = render_card(code, short_side=90)
        photo = np.full((240, 320, 3), 90, np.uint8)
        h, w = face.shape[:2]
        a = face[..., 3:].astype(np.float32) / 255
        roi = photo[40:40 + h, 110:110 + w]
        roi[...] = (roi * (1 - a) + face[..., :3] * a).astype(np.uint8)
        cv2.imwrite(str(tmp_path / f"{code}.jpg"), photo)
    lines = rows if rows is not None else ["file,label,notes", "red-3.jpg,red-3,x", "blue-skip.jpg,blue-skip,y"]
    (tmp_path / "labels.csv").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_cards_from_photos(tmp_path: pathlib.Path) -> None:
    scene = SynthScene(SceneParams(seed=3, size=(320, 180), cards=3, photos=str(_photo_folder(tmp_path))))
    cards = {e["card"] for e in scene.ground_truth()["events"]}
    assert cards <= {"red-3", "blue-skip"}
    assert scene.frame(scene.n_frames - 1).shape == (180, 320, 3)


@pytest.mark.parametrize("rows, message", [
    (["name,label", "red-3.jpg,red-3"], "file and label"),
    (["file,label", "nothere.jpg,red-3"], "no such photo"),
    (["file,label", "red-3.jpg,"], "empty file or label"),
])
def test_bad_photo_labels(tmp_path: pathlib.Path, rows: list[str], message: str) -> None:
    with pytest.raises(UserError, match=message):
        SynthScene(SceneParams(seed=1, size=(160, 90), cards=1, photos=str(_photo_folder(tmp_path, rows))))


def test_clip_writer_formats(tmp_path: pathlib.Path) -> None:
    params = SceneParams(seed=9, size=(160, 96), cards=1)
    truth = write_clip(params, tmp_path / "c.avi")
    cap = cv2.VideoCapture(str(tmp_path / "c.avi"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["frames"]
    cap.release()
    assert (tmp_path / "c.json").is_file()
    with pytest.raises(UserError, match="use .mp4"):
        write_clip(params, tmp_path / "c.mov")
