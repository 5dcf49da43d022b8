"""Resuming `tableref run`: the watcher primed on the frames already journaled goes on exactly as
the uninterrupted watcher does. The kill -9 end-to-end test checks one game; this checks the
priming itself, resumed after every event of a clip."""
from __future__ import annotations

import pathlib
from typing import Any

import pytest

from tableref.run_loop import RunLoop
from tableref.vision.recognise import Recogniser
from tableref.vision.sources import open_source
from tableref.vision.watcher import PileWatcher

# Seed 11 has a card taken back after a resume point: the watcher names it from its reading
# of the pile's top card, which priming without the recogniser never made.
SPEC = "synth:seed={seed},size=640x360,duration=12"


def _events(watcher: PileWatcher, frames: list[Any]) -> list[tuple[str, str | None, int]]:
    return [(e.event, e.card, e.frame) for f in frames for e in watcher.feed(f.index, f.t, f.image)]


@pytest.mark.parametrize("seed", [11])
def test_a_primed_watcher_sees_the_rest_as_the_uninterrupted_one(seed: int) -> None:
    recogniser = Recogniser("uno")
    frames = list(open_source(SPEC.format(seed=seed)))
    whole = _events(PileWatcher(recogniser), frames)
    assert len(whole) >= 3
    for _, _, last in whole[:-1]:
        loop = RunLoop(None, None, PileWatcher(recogniser), skip_through_frame=last)  # type: ignore[arg-type]
        it = iter(frames)
        first = loop._fast_forward(it)
        assert first is not None and first.index == last + 1
        rest = _events(loop.watcher, [first, *it])
        assert rest == [e for e in whole if e[2] > last], f"primed through frame {last}"


@pytest.mark.parametrize("seed", [11])
def test_a_restored_watcher_seeks_and_sees_the_rest_as_the_uninterrupted_one(seed: int, tmp_path) -> None:
    # the watcher's state saved after each event, restored into a fresh watcher and the source
    # sought to the next frame: the rest of the events are the uninterrupted watcher's
    from tableref.watch_checkpoint import WatchCheckpoint

    recogniser = Recogniser("uno")
    spec = SPEC.format(seed=seed)
    whole: list[tuple[str, str | None, int]] = []
    saved_at: dict[int, pathlib.Path] = {}
    watcher = PileWatcher(recogniser)
    for f in open_source(spec):
        events = [(e.event, e.card, e.frame) for e in watcher.feed(f.index, f.t, f.image)]
        whole += events
        if events:
            cp = WatchCheckpoint(tmp_path / f"j{f.index}.jsonl", spec)
            cp.save(watcher, f.index, events[-1][2])
            saved_at[f.index] = cp.path
    assert len(saved_at) >= 3
    for frame in list(saved_at)[:-1]:
        last = max(e[2] for e in whole if e[2] <= frame)
        restored = PileWatcher(recogniser)
        assert WatchCheckpoint(tmp_path / "other.jsonl", spec).restore(restored, last) is None  # none saved there
        cp = WatchCheckpoint(tmp_path / f"j{frame}.jsonl", spec)
        assert WatchCheckpoint(tmp_path / f"j{frame}.jsonl", "synth:another").restore(restored, last) is None
        assert cp.restore(restored, last) == frame
        source = open_source(spec)
        source.seek(frame + 1)  # type: ignore[attr-defined]
        frames = list(source)
        assert frames[0].index == frame + 1
        rest = [e for e in _events(restored, frames) if e[2] > last]
        assert rest == [e for e in whole if e[2] > last], f"restored at frame {frame}"


class NoContainerSeek:
    """A real capture whose container seek fails, as with some files: frames are skipped by decoding."""

    def __init__(self, cap: Any) -> None:
        self.cap = cap

    def set(self, prop: int, value: float) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cap, name)


@pytest.mark.parametrize("ext, container_seek", [("mp4", True), ("avi", True), ("mp4", False)])
def test_a_video_file_seeks_to_the_exact_frame(ext: str, container_seek: bool, tmp_path: pathlib.Path) -> None:
    import numpy as np

    from tableref.vision.synth.clip_writer import write_video
    from tableref.vision.synth.scene import SynthScene, parse_spec

    video = tmp_path / f"clip.{ext}"
    write_video(SynthScene(parse_spec("synth:seed=3,size=320x240,duration=4")), video)
    frames = list(open_source(str(video)))
    for k in (1, 17, len(frames) - 2):
        source = open_source(str(video))
        if not container_seek:
            source._cap = NoContainerSeek(source._cap)  # type: ignore[attr-defined]
        source.seek(k)  # type: ignore[attr-defined]
        got = list(source)
        assert [f.index for f in got] == [f.index for f in frames[k:]]
        assert all(np.array_equal(a.image, b.image) for a, b in zip(got, frames[k:]))
