"""What a resume of a recorded game costs before it watches anything new, for the practice
video of a whole game resumed at its last card: before, `run --resume` primed the watcher on
every frame already journaled; now it restores the watcher's state saved beside the journal
and seeks the video to the next frame (tableref.watch_checkpoint, tableref.run_loop). Both
printed as ratios to merely decoding the same frames, measured in the same run.

    .venv/bin/python bench/bench_resume_priming.py
"""
from __future__ import annotations

import pathlib
import pickle
import tempfile
import time

from tableref.practice import write_practice
from tableref.vision.recognise import Recogniser
from tableref.vision.sources import open_source
from tableref.vision.watcher import PileWatcher
from tableref.watch_checkpoint import KEEP_OUT, WatchCheckpoint


def main() -> int:
    recogniser = Recogniser("uno")
    with tempfile.TemporaryDirectory() as tmp:
        summary = write_practice("uno", 3, 0, {}, pathlib.Path(tmp), (640, 480), 15.0, "mp4")
        video = summary["video"]
        # the uninterrupted run: the watcher's state saved after each event, as `run` does
        checkpoint = WatchCheckpoint(pathlib.Path(tmp) / "game.jsonl", video)
        watcher = PileWatcher(recogniser)
        saved = last = saves = 0
        saving = 0.0
        for f in open_source(video):
            events = watcher.feed(f.index, f.t, f.image)
            if events:
                saved, last = f.index, max(e.frame for e in events)
                start = time.perf_counter()
                checkpoint.save(watcher, saved, last)
                saving += time.perf_counter() - start
                saves += 1
        start = time.perf_counter()
        for f in open_source(video):
            if f.index > saved:
                break
        decode = time.perf_counter() - start
        # before: prime a fresh watcher on every frame up to the last journaled one
        primed = PileWatcher(recogniser)
        start = time.perf_counter()
        for f in open_source(video):
            if f.index > last:
                break
            primed.feed(f.index, f.t, f.image)
        prime = time.perf_counter() - start
        # now: restore the saved state, seek, read the first new frame
        start = time.perf_counter()
        restored = PileWatcher(recogniser)
        assert checkpoint.restore(restored, last) == saved
        source = open_source(video)
        source.seek(saved + 1)  # type: ignore[attr-defined]
        first = next(iter(source))
        seek = time.perf_counter() - start
        assert first.index == saved + 1
        size = checkpoint.path.stat().st_size
        # the same state pickled as it is (what the checkpoint was before it packed the views)
        plain = len(pickle.dumps({k: v for k, v in vars(watcher).items() if k not in KEEP_OUT},
                                 protocol=pickle.HIGHEST_PROTOCOL))
    print(f"resumed at frame {saved + 1} ({saved / 15.0:.0f} s of video): priming = {prime / decode:.2f} x "
          f"decoding those frames; restore + seek = {seek / decode:.3f} x decoding; "
          f"seek is {prime / seek:.0f} x faster than priming; the {saves} saves of the watcher's state "
          f"({size / 1e6:.1f} MB the last, {size / plain:.2f} x the {plain / 1e6:.1f} MB of its plain pickle) while watching = {saving / decode:.2f} x decoding")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
