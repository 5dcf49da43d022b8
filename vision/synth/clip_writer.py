"""Writing synthetic clips to disk: a video (mp4v .mp4 or MJPG .avi) plus ground-truth JSON.

The pip build of OpenCV here writes `mp4v` (MPEG-4 Part 2) and `MJPG`; it has no H.264
encoder. Compression is part of what the watcher must cope with, so clips go through a
real lossy codec rather than being stored as raw frames.
"""
from __future__ import annotations

import json
import pathlib

import cv2

from tableref.errors import UserError

from .scene import SceneParams, SynthScene

CODECS = {".mp4": "mp4v", ".avi": "MJPG"}


def write_clip(params: SceneParams, video_path: pathlib.Path) -> dict:
    """Render the scene into `video_path` and write `<stem>.json` next to it; returns the ground truth."""
    scene = SynthScene(params)
    write_video(scene, video_path)
    truth = scene.ground_truth()
    truth["video"] = video_path.name
    video_path.with_suffix(".json").write_text(json.dumps(truth, indent=1) + "\n")
    return truth


def write_video(scene: SynthScene, video_path: pathlib.Path) -> None:
    """Render every frame of `scene` into `video_path` (its suffix picks the codec)."""
    ext = video_path.suffix.lower()
    if ext not in CODECS:
        raise UserError(f"cannot write {video_path}: use .mp4 (mp4v) or .avi (MJPG)")
    writer = cv2.VideoWriter(str(video_path), cv2.VideoWriter_fourcc(*CODECS[ext]), scene.fps, scene.size)
    if not writer.isOpened():
        raise UserError(f"cannot open {video_path} for writing with codec {CODECS[ext]}")
    try:
        for i in range(scene.n_frames):
            writer.write(scene.frame(i))
    finally:
        writer.release()
