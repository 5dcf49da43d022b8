"""Frame sources: files, image sequences, synthetic scenes, and a camera that drops out."""
from __future__ import annotations

import pathlib

import cv2
import numpy as np
import pytest

from tableref.errors import UserError
from tableref.vision.sources import CameraSource, open_source


def _write_video(path: pathlib.Path, n: int, fps: float = 20.0) -> None:
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    assert w.isOpened()
    for i in range(n):
        w.write(np.full((48, 64, 3), 10 * i, np.uint8))
    w.release()


def test_video_file_uses_video_time(tmp_path: pathlib.Path) -> None:
    _write_video(tmp_path / "v.avi", 7, fps=20.0)
    src = open_source(str(tmp_path / "v.avi"))
    frames = list(src)
    assert [f.index for f in frames] == list(range(7))
    assert [f.t for f in frames] == pytest.approx([i / 20.0 for i in range(7)])
    assert frames[3].image.shape == (48, 64, 3)
    assert abs(int(frames[3].image.mean()) - 30) <= 3  # frames come in order


@pytest.mark.parametrize("make, message", [
    (lambda p: None, "no such video file"),
    (lambda p: p.write_bytes(b""), r"empty \(0 bytes\)"),
    (lambda p: p.write_text("not a video at all\n" * 50), "cannot read video"),
])
def test_bad_video_files(tmp_path: pathlib.Path, make, message: str) -> None:
    path = tmp_path / "clip.mp4"
    make(path)
    with pytest.raises(UserError, match=message) as err:
        open_source(str(path))
    assert str(path) in str(err.value)


def test_single_image_is_not_a_video(tmp_path: pathlib.Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(UserError, match="single image"):
        open_source(str(tmp_path / "a.png"))


def test_image_sequence_pattern_and_folder(tmp_path: pathlib.Path) -> None:
    for i in (3, 1, 2, 10):
        cv2.imwrite(str(tmp_path / f"{i:04d}.png"), np.full((8, 8, 3), i, np.uint8))
    (tmp_path / "notes.txt").write_text("ignored")
    by_pattern = list(open_source(str(tmp_path / "%04d.png"), fps=10))
    assert [int(f.image[0, 0, 0]) for f in by_pattern] == [1, 2, 3, 10]
    assert [f.t for f in by_pattern] == pytest.approx([0.0, 0.1, 0.2, 0.3])
    by_folder = list(open_source(str(tmp_path)))
    assert [int(f.image[0, 0, 0]) for f in by_folder] == [1, 2, 3, 10]


def test_empty_image_folder(tmp_path: pathlib.Path) -> None:
    with pytest.raises(UserError, match="no images"):
        open_source(str(tmp_path))


def test_synth_source_is_deterministic() -> None:
    spec = "synth:seed=4,size=160x96,cards=2"
    a = open_source(spec)
    b = open_source(spec)
    fa = [f.image for _, f in zip(range(30), a)]
    fb = [f.image for _, f in zip(range(30), b)]
    assert all(np.array_equal(x, y) for x, y in zip(fa, fb))
    assert not np.array_equal(fa[0], next(iter(open_source("synth:seed=5,size=160x96,cards=2"))).image)
    truth = a.ground_truth()  # type: ignore[attr-defined]
    assert truth["size"] == [160, 96]
    assert sum(e["type"] == "landed" for e in truth["events"]) == 2


@pytest.mark.parametrize("spec, message", [
    ("synth:seed=x", "bad value"), ("synth:colour=red", "unknown synth option"),
    ("synth:size=12", "bad size"), ("synth:deck=chess", "unknown deck"),
])
def test_bad_synth_specs(spec: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        open_source(spec)


class FakeCapture:
    """Stands in for cv2.VideoCapture on a machine without a camera: scripted reads."""

    def __init__(self, script: list[bool], opened: bool = True):
        self.script = list(script)
        self.opened = opened
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def read(self):
        ok = self.script.pop(0) if self.script else False
        return (ok, np.zeros((4, 4, 3), np.uint8) if ok else None)

    def get(self, prop: int) -> float:
        return 30.0

    def release(self) -> None:
        self.released = True


def test_camera_absent_is_a_clear_error() -> None:
    with pytest.raises(UserError, match="no camera at index 3"):
        CameraSource(3, opener=lambda i: FakeCapture([], opened=False))


def test_camera_recovers_from_dropped_frames_and_unplug() -> None:
    # first device: 3 frames, 2 dropped, 2 frames, then gone (unplugged);
    # reopening fails twice (still unplugged) and then a new device gives frames again
    devices = [FakeCapture([True] * 3 + [False] * 2 + [True] * 2 + [False] * 10),
               FakeCapture([], opened=False), FakeCapture([], opened=False),
               FakeCapture([True] * 4)]
    opened: list[FakeCapture] = []

    def opener(index: int) -> FakeCapture:
        cap = devices.pop(0)
        opened.append(cap)
        return cap

    sleeps: list[float] = []
    now = [0.0]
    cam = CameraSource(0, opener=opener, sleep=lambda s: (sleeps.append(s), now.__setitem__(0, now[0] + s)),
                       clock=lambda: now[0], max_failures=5)
    frames = [f for _, f in zip(range(9), cam)]
    assert [f.index for f in frames] == list(range(9))
    assert cam.reopens == 1
    assert sleeps == [0.25, 0.5, 1.0]  # backoff doubles while the camera is away
    assert opened[0].released


def test_camera_gives_up_only_when_asked() -> None:
    now = [0.0]
    cam = CameraSource(0, opener=lambda i: FakeCapture([True]) if now[0] == 0 else FakeCapture([], opened=False),
                       sleep=lambda s: now.__setitem__(0, now[0] + s), clock=lambda: now[0], give_up_after=10)
    it = iter(cam)
    next(it)
    with pytest.raises(UserError, match="camera 0 is gone"):
        next(it)
