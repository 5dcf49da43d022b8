"""Pile watcher speed and memory, on one core.

1. Frames per second of PileWatcher.feed at 1280x720 and 640x480 on pre-rendered synthetic
   frames (rendering is not timed), against a baseline measured in the same run: the least
   any watcher must do per frame (cv2.cvtColor to grey + cv2.resize to the working size,
   best of three). Each card read is timed as the watcher makes it, and made again after
   the run with the same arguments, best of three (the figure a busy machine disturbs least).
2. Peak resident memory while watching a long synthetic clip streamed frame by frame from
   the synth source (default 1 minute so the run stays under 2 minutes; --minutes 10 for
   the full ten-minute figure).
3. What the bearings (where each card came from, bearing.py) cost: the run without reading
   against the same with WatcherConfig(bearings=False), as a time ratio (best of three each).
4. What a fit of a camera move costs (camera_shift.py), against the baseline frame.

    python bench/bench_watcher.py [--frames 200] [--minutes 1]
    python bench/bench_watcher.py --score 100     # accuracy on 100 streamed clips (slow: minutes)
    python bench/bench_watcher.py --paced 4       # wall-clock latency, clips paced as recorded
"""
from __future__ import annotations

import argparse
import contextlib
import resource
import sys
import time
from typing import Any, Iterator

import cv2
import numpy as np

from tableref.errors import UserError
from tableref.vision import watcher as watcher_module
from tableref.vision.camera_shift import camera_move
from tableref.vision.motion import MotionConfig, Normaliser
from tableref.vision.recognise import Recogniser
from tableref.vision.sources import open_source
from tableref.vision.synth.scene import SceneParams, SynthScene, parse_size
from tableref.vision.tunables import with_settings
from tableref.vision.watcher import PileWatcher, WatcherConfig


def _fps(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def speed(size: tuple[int, int], n_frames: int, recogniser: Recogniser) -> None:
    scene = SynthScene(SceneParams(seed=11, size=size, duration=n_frames / 25.0 + 1))
    frames = [scene.frame(i) for i in range(n_frames)]
    work = (256, int(round(256 * size[1] / size[0])))
    base = float("inf")
    for _ in range(3):  # best of three: a busy machine only ever adds time
        t0 = time.perf_counter()
        for f in frames:
            cv2.resize(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), work, interpolation=cv2.INTER_AREA)
        base = min(base, time.perf_counter() - t0)
    timings = {}
    runs = (("without reading", None, WatcherConfig()), ("with reading", recogniser, WatcherConfig()),
            ("without reading, no bearings", None, WatcherConfig(bearings=False)),
            ("with reading, none ahead", recogniser, WatcherConfig(read_ahead=False)))
    reads: list[float] = []
    cpu: list[float] = []  # the same reads in this process's CPU time (a busy machine adds wall time only)
    asked: list[tuple[tuple, dict]] = []  # each read's arguments, to be read again (see _replayed)
    # the runs without reading take turns three times and keep their best: a busy machine
    # slows one run or another, not the watcher
    for label, rec, config in [runs[0], runs[2]] * 3 + [runs[1], runs[3]]:
        watcher = PileWatcher(rec, config=config)
        events = 0
        timed = label == "with reading"
        with _timed_reads(reads if timed else [], cpu if timed else [], asked if timed else []):
            t0 = time.perf_counter()
            for i, f in enumerate(frames):
                events += len(watcher.feed(i, i / 25.0, f))
            took = time.perf_counter() - t0
        timings[label] = min((took, events), timings.get(label, (took, events)))
    bare, events = timings["without reading"]
    full, _ = timings["with reading"]
    plain, _ = timings["without reading, no bearings"]
    behind, _ = timings["with reading, none ahead"]
    base_frame = base / n_frames
    again = _replayed(asked)
    per_read = (f"{len(reads)} reads, median {np.median(reads) * 1000:.0f} ms per read "
                f"= {np.median(reads) / base_frame:.0f}x the baseline frame (max {max(reads) * 1000:.0f} ms; "
                f"CPU time median {np.median(cpu) * 1000:.0f} ms)"
                f"; each read again, best of 3: median {np.median(again) * 1000:.0f} ms "
                f"= {np.median(again) / base_frame:.0f}x"
                if reads else "no card read")
    print(f"{size[0]}x{size[1]} [{n_frames} frames, 1 thread]: baseline cvtColor+resize {_fps(n_frames, base):.0f} fps; "
          f"watcher {_fps(n_frames, bare):.0f} fps without reading ({bare / base:.1f}x baseline time), "
          f"{_fps(n_frames, full):.0f} fps with the recogniser reading {events} cards ({full / base:.1f}x baseline "
          f"time; {per_read}); reading each settling card a frame ahead (WatcherConfig.read_ahead) costs "
          f"{full / behind:.2f}x the time of the same run without it ({_fps(n_frames, behind):.0f} fps); "
          f"bearings cost {bare / plain:.2f}x the time of the run without them and without reading "
          f"({_fps(n_frames, plain):.0f} fps)")


def move_fit(size: tuple[int, int]) -> None:
    """What a fit of a camera move costs (camera_shift.camera_move, tried once per stillness:
    thoroughly where the change reaches the region's edge, plainly before a landing is read):
    a bumped frame against the one before, and a landed card with nothing moved, best of
    five, as ratios to the baseline frame."""
    scene = SynthScene(SceneParams(seed=0, size=size, duration=5))
    before, after = scene.frame(95), scene.frame(96)
    m = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), 0.5, 1.0)
    m[:, 2] += (size[0] / 160, size[0] / 320)  # 4 and 2 px of a 640-wide frame
    bumped = cv2.warpAffine(after, m, size, borderMode=cv2.BORDER_REFLECT)
    norm = Normaliser(size)
    work = norm.small_size
    old, new = norm(before), norm(bumped)
    landed = norm(scene.frame(130))  # a card landed since frame 95, the camera still: the common case
    base = fit = still = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        cv2.resize(cv2.cvtColor(bumped, cv2.COLOR_BGR2GRAY), work, interpolation=cv2.INTER_AREA)
        base = min(base, time.perf_counter() - t0)
        t0 = time.perf_counter()
        found = camera_move(old, new, MotionConfig(), thorough=True)
        fit = min(fit, time.perf_counter() - t0)
        t0 = time.perf_counter()
        none = camera_move(old, landed, MotionConfig())
        still = min(still, time.perf_counter() - t0)
    print(f"{size[0]}x{size[1]}: a camera-move fit, once per stillness: a bump, thoroughly (the change reaches "
          f"the region's edge) {fit * 1000:.1f} ms = {fit / base:.0f}x the baseline frame "
          f"({'found' if found is not None else 'MISSED'}); before a landing is read, nothing moved "
          f"{still * 1000:.1f} ms = {still / base:.0f}x ({'none found' if none is None else 'A MOVE FOUND'})")


def _replayed(asked: list[tuple[tuple, dict]], runs: int = 3) -> list[float]:
    """Seconds of each read made again with the same arguments, the best of `runs` (as
    bench_recognise times identify: a busy machine only ever adds time)."""
    best = []
    for args, kwargs in asked:
        took = []
        for _ in range(runs):
            t0 = time.perf_counter()
            watcher_module.read_top_card(*args, **kwargs)
            took.append(time.perf_counter() - t0)
        best.append(min(took))
    return best


@contextlib.contextmanager
def _timed_reads(took: list[float], cpu: list[float], asked: list[tuple[tuple, dict]]) -> Iterator[None]:
    """Appends to `took` the seconds of each card read the watcher makes meanwhile (its one
    call into the recogniser, top_card.read_top_card), to `cpu` the CPU seconds of each and
    to `asked` its arguments."""
    real = watcher_module.read_top_card

    def timed(*args: Any, **kwargs: Any) -> Any:
        asked.append((args, kwargs))
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            took.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)

    watcher_module.read_top_card = timed
    try:
        yield
    finally:
        watcher_module.read_top_card = real


def memory(minutes: float, recogniser: Recogniser) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    source = open_source(f"synth:seed=12,size=1280x720,minutes={minutes}")
    watcher = PileWatcher(recogniser)
    events = frames = 0
    t0 = time.perf_counter()
    for frame in source:
        events += len(watcher.feed(frame.index, frame.t, frame.image))
        frames += 1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"streamed {minutes:g} min at 1280x720 ({frames} frames, {events} events, "
          f"{time.perf_counter() - t0:.0f} s incl. rendering): peak RSS {peak:.0f} MiB "
          f"(was {before:.0f} MiB before the clip)")


def accuracy(clips: int, first_seed: int, recogniser: Recogniser, photos: str | None = None,
             size: str = "640x360", config: WatcherConfig = WatcherConfig()) -> None:
    """Detection, extra reports, reading and latency on streamed seeded clips (10 s each)."""
    from tableref.vision.synth.score import Score, score_clip

    total = Score()
    flat: list[bool] = []  # per found event with a card: the recogniser reads its face right on its own
    for seed in range(first_seed, first_seed + clips):
        source = open_source(f"synth:seed={seed},size={size},duration=10" + (f",photos={photos}" if photos else ""))
        watcher = PileWatcher(recogniser, config=config)
        reported = [e.as_json() for f in source for e in watcher.feed(f.index, f.t, f.image)]
        reported += [e.as_json() for e in watcher.finish()]  # a card still being read as the clip ends
        clip = score_clip(source.ground_truth(), reported, f"seed {seed}")  # type: ignore[attr-defined]
        faces = source.scene.faces  # type: ignore[attr-defined]
        flat += [recogniser.classify_card(faces.face(card)[..., :3])[0] == card for card, _ in clip.reads if card]
        total = total.add(clip)
    faces_from = f"photos from {photos}" if photos else "rendered uno"
    print(f"{clips} clips (seeds {first_seed}..{first_seed + clips - 1}, {size}, 10 s, {faces_from}, "
          f"unsure cards read on up to {config.look_frames} frames): {total.summary()}")
    # A misread card whose face the recogniser misreads even flat and unmoved is the
    # recogniser's; the others are the watcher's (its outline, its timing).
    carded = [ok for card, ok in total.reads if card]
    own = [ok for ok, f in zip(carded, flat) if f]
    print(f"   cards whose face the recogniser reads right on its own: {sum(own)}/{len(own)} read correctly; "
          f"the other {len(carded) - len(own)}: {sum(carded) - sum(own)} read correctly")
    for line in total.misses + total.extras + total.misreads:
        print("  ", line)


def paced(clips: int, first_seed: int, recogniser: Recogniser, size: str, photos: str | None = None,
          speed: float = 1.0, config: WatcherConfig = WatcherConfig()) -> None:
    """Wall-clock latency from a card settling to its event, on clips paced as recorded.

    Each clip is rendered first and held as JPEG (rendering is no camera's work); then each
    frame is decoded and fed no earlier than its time in the clip (`speed` 1: as recorded),
    as `tableref run --speed 1` paces a video. A watcher that falls behind delays every
    later frame, and so the events. An event's latency is the wall time at which feed()
    returned it less the time at which the card's settled frame was due; the baseline is the
    same clips' latency in video time (the frame that reported it less the settled frame).
    On a shared machine other processes take the core too, so the same run also gives the
    latency on a core of its own: each frame's CPU time (decode and feed), queued behind the
    frames before it from the time it is due."""
    from tableref.vision.synth.score import Score, score_clip

    wall, own, video = Score(), Score(), Score()
    lags: list[float] = []
    for seed in range(first_seed, first_seed + clips):
        source = open_source(f"synth:seed={seed},size={size},duration=10" + (f",photos={photos}" if photos else ""))
        encoded = [(f.index, f.t, cv2.imencode(".jpg", f.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1]) for f in source]
        truth = source.ground_truth()  # type: ignore[attr-defined]
        fps = float(truth["fps"])
        watcher = PileWatcher(recogniser, config=config)
        by_frame, by_wall, by_own = [], [], []
        done = 0.0  # when the frame fed last would have been done on a core of its own (clip seconds)
        start = time.perf_counter()
        for index, t, jpeg in encoded:
            delay = t / speed - (time.perf_counter() - start)
            if delay > 0:
                time.sleep(delay)
            cpu = time.process_time()
            events = watcher.feed(index, t, cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
            done = max(done, t) + (time.process_time() - cpu) * speed
            now = (time.perf_counter() - start) * speed  # clip seconds
            lags.append(now - t)
            if index == encoded[-1][0]:
                events += watcher.finish()  # a card still being read as the clip ends
            for e in events:
                out = e.as_json()
                by_frame.append(out)
                # the scorer measures in frames: the wall time as a (fractional) frame number
                by_wall.append({**out, "frame": now * fps})
                by_own.append({**out, "frame": done * fps})
        video = video.add(score_clip(truth, by_frame, f"seed {seed}"))
        wall = wall.add(score_clip(truth, by_wall, f"seed {seed}"))
        own = own.add(score_clip(truth, by_own, f"seed {seed}"))

    def p95(s: Score) -> str:
        return f"p50 {np.median(s.latencies or [0]):.3f} s p95 {s.latency_p95:.3f} s max {max(s.latencies or [0]):.3f} s"

    print(f"{clips} clips paced at {speed:g}x (seeds {first_seed}..{first_seed + clips - 1}, {size}, 10 s), "
          f"latency from settling to the event (bar: p95 0.3 s): in video time {p95(video)}; on a core of its own "
          f"{p95(own)} = {own.latency_p95 / max(video.latency_p95, 1e-9):.2f}x video time; measured wall-clock "
          f"{p95(wall)} = {wall.latency_p95 / max(video.latency_p95, 1e-9):.2f}x (frames handled late by p50 "
          f"{np.median(lags) * 1000:.0f} ms, p95 {np.percentile(lags, 95) * 1000:.0f} ms: the machine's load)")
    print(f"   {video.summary()}")


def _size(text: str) -> str:
    """`--size`, checked as the synth: source will check it (one clear argparse error)."""
    try:
        parse_size(text)
    except UserError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=200, help="frames per speed run (default 200)")
    p.add_argument("--minutes", type=float, default=1.0, help="length of the streamed clip (default 1)")
    p.add_argument("--score", type=int, default=0, metavar="N",
                   help="instead: score the watcher on N streamed synthetic clips")
    p.add_argument("--seed", type=int, default=0, help="first seed for --score (default 0)")
    p.add_argument("--photos", default=None, metavar="DIR", help="--score with card faces from real photos (labels.csv)")
    p.add_argument("--size", type=_size, default=None, metavar="WxH",
                   help="frame size of the --score clips (default 640x360) or the --paced ones (default 1280x720)")
    p.add_argument("--paced", type=int, default=0, metavar="N",
                   help="instead: wall-clock latency on N synthetic clips paced as recorded (see --speed)")
    p.add_argument("--speed", type=float, default=1.0, help="--paced: pace of the clips (default 1: as recorded)")
    p.add_argument("--deck", default=None,
                   help="the recogniser's deck for --score (default: uno, the rendered clips' deck, as the app "
                        "passes the game's deck; auto with --photos)")
    p.add_argument("--set", nargs="+", default=[], metavar="FIELD=VALUE",
                   help="--score, --paced: change a field of the watcher's WatcherConfig (e.g. look_frames=1: "
                        "an unsure card read on the settled frame alone; motion.settled_reach=2)")
    args = p.parse_args(argv)
    try:
        config = with_settings(WatcherConfig(), args.set)
    except ValueError as exc:
        p.error(str(exc))
    cv2.setNumThreads(1)
    if args.speed <= 0:
        p.error("--speed must be positive")
    deck = args.deck or ("auto" if args.photos else "uno")
    if args.paced:
        paced(args.paced, args.seed, Recogniser(deck=deck), args.size or "1280x720", args.photos, args.speed, config)
        return 0
    if args.score:
        print(f"recogniser deck: {deck}")
        accuracy(args.score, args.seed, Recogniser(deck=deck), args.photos, args.size or "640x360",
                 config)
        return 0
    recogniser = Recogniser(deck=args.deck or "auto")
    memory(args.minutes, recogniser)  # first: the speed runs hold their frames in memory
    for size in ((1280, 720), (640, 480)):
        speed(size, args.frames, recogniser)
        move_fit(size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
