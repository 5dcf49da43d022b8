"""What a resume of a recorded game costs before it watches anything new: `run --resume` primes
the watcher on every frame already journaled (tableref.run_loop). Printed as a ratio to merely
decoding the same frames, measured in the same run, for the practice video of a whole game.

    .venv/bin/python bench/bench_resume_priming.py
"""
from __future__ import annotations

import pathlib
import tempfile
import time

from tableref.practice import write_practice
from tableref.vision.recognise import Recogniser
from tableref.vision.sources import open_source
from tableref.vision.watcher import PileWatcher


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        summary = write_practice("uno", 3, 0, {}, pathlib.Path(tmp), (640, 480), 15.0, "mp4")
        video = summary["video"]
        start = time.perf_counter()
        frames = sum(1 for _ in open_source(video))
        decode = time.perf_counter() - start
        watcher = PileWatcher(Recogniser("uno"))
        start = time.perf_counter()
        for f in open_source(video):
            watcher.feed(f.index, f.t, f.image)
        prime = time.perf_counter() - start
    seconds = frames / 15.0
    print(f"{frames} frames ({seconds:.0f} s of video): priming = {prime / decode:.1f} x decoding alone; "
          f"priming runs at {seconds / prime:.1f} x real time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
