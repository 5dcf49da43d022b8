"""After-game report speed, evidence disk cost, and what evidence capture adds per frame.

1. `tableref report` of a 500-event game (a seeded simulated game, written as a camera game's
   journal, with the evidence pictures the recorder writes for it), run as a command on one
   core: CPU seconds, against `tableref replay` of the same journal in the same run (Python
   start-up, reading and replaying the journal: the least any report must do).
2. Disk: the bytes of that game's evidence folder (1280x720 frames).
3. Per frame: the watcher with the recogniser and the table (TableController) on a synthetic
   clip, with and without the EvidenceRecorder (frame hook + pictures at every record), both fed
   each frame in turn, in CPU time on one thread, the clip twice with the order swapped. Also
   the recorder's own time, measured inside its two entry points, as a share of the watcher's.

    python bench/bench_report.py [--events 500] [--cards 6]
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

from tableref.evidence import EvidenceRecorder, evidence_dir, observe
from tableref.referee import Verdict
from tableref.report.series import record_source
from tableref.simulate import record_lines, simulate_game
from tableref.table import Outcome, TableSession, make_header
from tableref.table_app import TableController
from tableref.vision.recognise import Recogniser
from tableref.vision.sources import Frame
from tableref.vision.synth.scene import SceneParams, SynthScene
from tableref.vision.watcher import PileWatcher

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")
REGION = (480, 200, 800, 520)  # the pile's box in a 1280x720 frame


class Quiet:
    def update(self, ctrl: Any, line: str | None) -> None:
        pass

    def notice(self, text: str) -> None:
        pass


def camera_journal(folder: pathlib.Path, events: int) -> pathlib.Path:
    """A 500-event game as a camera game's journal: cards carry t, frame and confidence."""
    # the first seed whose game lasts that long, cut there (a game the journal stops in the middle of)
    sim = next(g for seed in range(1, 100)
               if len((g := simulate_game("uno", 4, seed, {}, misplay_rate=0.08, max_events=events)).events) >= events)
    lines = record_lines(sim)[:1]
    for i, ev in enumerate(sim.events):
        if ev["type"] in ("card", "flip"):
            ev = {**ev, "t": round(i * 3.5, 2), "frame": i * 105, "confidence": 0.97}
        lines.append(json.dumps(ev))
    path = folder / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def write_evidence(journal: pathlib.Path, scene: SynthScene) -> tuple[int, int]:
    """The pictures the recorder writes for that journal; (pictures, bytes)."""
    from tableref.record import read_record
    from tableref.replay_cmd import replay
    header, records = read_record(journal)
    rec = EvidenceRecorder(evidence_dir(journal), lambda: REGION)
    frames = [scene.frame(i) for i in range(0, scene.n_frames, max(1, scene.n_frames // 20))]
    for index, event, state in replay(header, records):
        rec.frame(Frame(index, 0.0, frames[index % len(frames)]))
        kind = event["type"] if event["type"] in ("undo", "taken_back") else "event"
        rec.record(index, Outcome(kind, event, Verdict(state["illegal"])), record_source(event))
    return rec.written, rec.bytes


def cpu_of(args: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one command pinned to one core."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(pin + args, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, OMP_NUM_THREADS="1"))
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def report_speed(events: int) -> None:
    scene = SynthScene(SceneParams(seed=5, deck="uno", size=(1280, 720), cards=6))
    with tempfile.TemporaryDirectory() as tmp:
        journal = camera_journal(pathlib.Path(tmp), events)
        pictures, size = write_evidence(journal, scene)
        n = len(journal.read_text().splitlines()) - 1
        best: dict[str, tuple[float, float]] = {}
        for _ in range(2):  # the second round has warm file caches; keep the fastest of each
            for label, args in (("replay", [TABLEREF, "replay", str(journal)]),
                                ("report", [TABLEREF, "report", str(journal), "--out", str(pathlib.Path(tmp) / "r.html")])):
                cpu, wall = cpu_of(args)
                if label not in best or cpu < best[label][0]:
                    best[label] = (cpu, wall)
        html = (pathlib.Path(tmp) / "r.html").stat().st_size
    (rep_cpu, rep_wall), (base_cpu, _) = best["report"], best["replay"]
    print(f"report of a {n}-event UNO game with {pictures} evidence pictures (1 core): {rep_cpu:.2f} s CPU "
          f"({rep_wall:.2f} s wall), {rep_cpu / base_cpu:.1f}x plain `tableref replay` of the same journal "
          f"({base_cpu:.2f} s CPU); HTML {html / 1e6:.2f} MB")
    print(f"evidence disk for that game: {size / 1e6:.2f} MB in {pictures} pictures "
          f"({size / max(1, pictures) / 1e3:.1f} kB each, {size / n / 1e3:.1f} kB per record)")


class Timed(EvidenceRecorder):
    """The recorder with a stopwatch around its two entry points."""
    spent = 0.0

    def frame(self, frame: Any) -> None:
        t0 = time.process_time()
        super().frame(frame)
        self.spent += time.process_time() - t0

    def record(self, index: int, outcome: Outcome, by: str = "") -> None:
        t0 = time.process_time()
        super().record(index, outcome, by)
        self.spent += time.process_time() - t0


class Table:
    """Watcher + recogniser + TableController on a fresh journal, with or without the recorder."""

    def __init__(self, recogniser: Recogniser, evidence: bool) -> None:
        self.folder = pathlib.Path(tempfile.mkdtemp())
        self.session = TableSession.new(make_header("uno", 4), self.folder / "j.jsonl")
        self.ctrl = TableController(self.session, Quiet())
        self.watcher = PileWatcher(recogniser)
        self.rec: Timed | None = None
        if evidence:
            watcher = self.watcher
            self.rec = Timed(evidence_dir(self.folder / "j.jsonl"), lambda: watcher.region_box)
            observe(self.ctrl, self.rec)
        self.spent = 0.0

    def step(self, frame: Frame) -> None:
        t0 = time.process_time()
        if self.rec is not None:
            self.rec.frame(frame)  # the one line RunLoop.handle_frame adds
        for ev in self.watcher.feed(frame.index, frame.t, frame.image):
            if ev.event == "landed":
                self.ctrl.landed(ev.card, ev.t, ev.frame, ev.confidence)
            else:
                self.ctrl.removed(ev.t, ev.frame)
        self.spent += time.process_time() - t0

    def close(self) -> None:
        self.session.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def capture_cost(cards: int) -> None:
    """Both tables see each frame in turn, so the machine's load falls on both alike, in CPU time
    on one thread (waiting for a busy machine's cores does not count); rendering is not timed.
    Whichever goes first on a frame pays for bringing it into the cache, and the frames where a
    card is read are few, so the clip is watched twice with the order swapped (an A/A run of
    one pass gave 1.05)."""
    import cv2
    cv2.setNumThreads(1)
    scene = SynthScene(SceneParams(seed=11, deck="uno", size=(1280, 720), cards=cards))
    n = scene.n_frames
    base = full = own = 0.0
    for swap in (0, 1):
        # one recogniser each: a shared one could hand the second table what it worked out for the first
        plain, recorded = Table(Recogniser(deck="uno"), False), Table(Recogniser(deck="uno"), True)
        for i in range(n):
            frame = Frame(i, i / scene.params.fps, scene.frame(i))
            for table in ((plain, recorded) if (i + swap) % 2 else (recorded, plain)):
                table.step(frame)
        rec = recorded.rec
        assert rec is not None
        base, full, own = base + plain.spent, full + recorded.spent, own + rec.spent
        pictures, records = rec.written, len(recorded.session.records)
        plain.close()
        recorded.close()
    n *= 2
    print(f"evidence capture, 1280x720, {scene.n_frames} frames watched twice, watcher + recogniser + table, "
          f"CPU time: {base / n * 1000:.2f} ms/frame without the recorder, {full / n * 1000:.2f} ms/frame with it "
          f"(ratio {full / base:.3f}); the recorder's own time {own / n * 1000:.3f} ms/frame = "
          f"{own / base * 100:.2f}% of the watcher's ({pictures} pictures for {records} records per pass)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--cards", type=int, default=6, help="landings in the synthetic clip (about 60 frames each)")
    args = parser.parse_args()
    report_speed(args.events)
    capture_cost(args.cards)
    return 0


if __name__ == "__main__":
    sys.exit(main())
