"""Scoring watcher output against synthetic ground truth (used by the tests and the benchmark).

A reported event matches a true one of the same type if it comes no earlier than
`early_s` before the settled frame and no later than `late_s` after it; matching is
one-to-one, a report of the same card first (the nearest), then any report, greedy in time
order. Unmatched reports are extra (false or double reports).

Seats: for each landing found, the seat named by the reported bearing (the seat whose true
bearing lies nearest) against the seat that played it; a landing reported with no bearing
names no seat and counts as wrong. Landings whose bearing confidence is below the referee's
(seats.SURE: it goes by turn order for them) are counted apart, and so are those named
wrong although sure.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tableref.vision.watch_config import WatcherConfig


@dataclass
class Score:
    truth: int = 0
    extra: int = 0
    reads: list[tuple[str | None, bool]] = field(default_factory=list)  # per found event: true card, read right
    latencies: list[float] = field(default_factory=list)  # reported t - settled t, seconds
    misses: list[str] = field(default_factory=list)  # human-readable, for failure messages
    extras: list[str] = field(default_factory=list)
    misreads: list[str] = field(default_factory=list)
    seats: list[bool] = field(default_factory=list)  # per landing found: the bearing named the right seat
    seat_errors: list[str] = field(default_factory=list)
    bearing_errors: list[float] = field(default_factory=list)  # degrees off the reach's true bearing
    seat_sure: list[bool] = field(default_factory=list)  # per landing found: its bearing is sure enough to name a seat

    def add(self, other: "Score") -> "Score":
        return Score(self.truth + other.truth, self.extra + other.extra, self.reads + other.reads,
                     self.latencies + other.latencies, self.misses + other.misses, self.extras + other.extras,
                     self.misreads + other.misreads, self.seats + other.seats, self.seat_errors + other.seat_errors,
                     self.bearing_errors + other.bearing_errors, self.seat_sure + other.seat_sure)

    @property
    def seat_accuracy(self) -> float:
        return sum(self.seats) / len(self.seats) if self.seats else 1.0

    def seat_summary(self) -> str:
        errors = self.bearing_errors or [0.0]
        unsure = self.seat_sure.count(False)
        sure_wrong = sum(sure and not right for sure, right in zip(self.seat_sure, self.seats))
        return (f"seat named right {sum(self.seats)}/{len(self.seats)} ({self.seat_accuracy:.1%}), bearing off "
                f"p50 {np.median(errors):.1f} p95 {np.percentile(errors, 95):.1f} max {max(errors):.1f} degrees; "
                f"below the referee's confidence {unsure}, sure but wrong {sure_wrong}")

    @property
    def found(self) -> int:
        return len(self.reads)

    @property
    def read_correct(self) -> int:
        return sum(ok for _, ok in self.reads)

    @property
    def recall(self) -> float:
        return self.found / self.truth if self.truth else 1.0

    @property
    def extra_rate(self) -> float:
        return self.extra / self.truth if self.truth else float(self.extra)

    @property
    def read_accuracy(self) -> float:
        return self.read_correct / self.found if self.found else 1.0

    @property
    def latency_p95(self) -> float:
        return float(np.percentile(self.latencies, 95)) if self.latencies else 0.0

    def summary(self) -> str:
        return (f"events {self.truth}: found {self.found} ({self.recall:.1%}), extra {self.extra} "
                f"({self.extra_rate:.1%}), read correctly {self.read_correct}/{self.found} "
                f"({self.read_accuracy:.1%}), latency p50 {np.median(self.latencies or [0]):.3f} s "
                f"p95 {self.latency_p95:.3f} s max {max(self.latencies or [0]):.3f} s")


def score_clip(truth: dict, reported: list[dict], name: str = "", early_s: float = 0.5,
               late_s: float = 1.5) -> Score:
    """`truth` is a ground-truth dict (fps, events[type, card, frame]); `reported` are watcher events (event, card, frame)."""
    fps = float(truth["fps"])
    events = truth["events"]
    used = [False] * len(reported)

    def window(ev: dict) -> list[int]:
        lo, hi = ev["frame"] - early_s * fps, ev["frame"] + late_s * fps
        return [j for j, r in enumerate(reported) if not used[j] and r["event"] == ev["type"] and lo <= r["frame"] <= hi]

    # first the reports of the very card, nearest first: a card missed must not pass its
    # window on to the next card's report, and that one's to the next (one miss, not misreads)
    match: list[int | None] = [None] * len(events)
    for i, ev in enumerate(events):
        same = [j for j in window(ev) if reported[j]["card"] == ev["card"]]
        if same:
            match[i] = min(same, key=lambda j: abs(reported[j]["frame"] - ev["frame"]))
            used[match[i]] = True
    for i, ev in enumerate(events):
        if match[i] is None and (free := window(ev)):
            match[i] = free[0]
            used[free[0]] = True
    s = Score(truth=len(events))
    for ev, j in zip(events, match):
        if j is None:
            s.misses.append(f"{name}: {ev['type']} {ev['card']} settled at frame {ev['frame']}")
            continue
        r = reported[j]
        s.latencies.append((r["frame"] - ev["frame"]) / fps)
        s.reads.append((ev["card"], r["card"] == ev["card"]))
        if r["card"] != ev["card"]:
            s.misreads.append(f"{name}: frame {ev['frame']} {ev['type']} {ev['card']} read as {r['card']}")
        if ev["type"] == "landed" and truth.get("seat_bearings"):
            _score_seat(s, truth["seat_bearings"], ev, r, name)
    for j, r in enumerate(reported):
        if not used[j]:
            s.extra += 1
            s.extras.append(f"{name}: {r['event']} {r['card']} at frame {r['frame']}")
    return s


def _score_seat(s: Score, seat_bearings: list[float], ev: dict, r: dict, name: str) -> None:
    from tableref.seats import SURE, angle_gap, nearest_seat

    if r.get("bearing") is not None and ev.get("bearing") is not None:
        s.bearing_errors.append(angle_gap(r["bearing"], ev["bearing"]))
    said = None if r.get("bearing") is None else nearest_seat(r["bearing"], seat_bearings)
    s.seats.append(said == ev["seat"])
    s.seat_sure.append(said is not None and float(r.get("bearing_confidence") or 0.0) >= SURE)
    if said != ev["seat"]:
        s.seat_errors.append(f"{name}: frame {ev['frame']} seat {ev['seat']} (bearing {ev.get('bearing')}) "
                             f"named seat {said} (bearing {r.get('bearing')}, confidence "
                             f"{r.get('bearing_confidence')}; seats at {seat_bearings})")


def watch_events(spec: str, recogniser: object = None, config: WatcherConfig | None = None) -> list[dict]:
    """Run a PileWatcher over a source spec (file, folder, synth:...) and return its events as
    dicts; `config`: its WatcherConfig (default the shipped one)."""
    from tableref.vision.sources import open_source
    from tableref.vision.watcher import PileWatcher, WatcherConfig

    watcher = PileWatcher(recogniser, config=config or WatcherConfig())
    source = open_source(spec)
    out: list[dict] = []
    try:
        for frame in source:
            out += [e.as_json() for e in watcher.feed(frame.index, frame.t, frame.image)]
        out += [e.as_json() for e in watcher.finish()]
    finally:
        source.close()
    return out
