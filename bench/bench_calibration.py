#!/usr/bin/env python3
"""Calibration of the recogniser's confidence: a reliability table (for readings in each
confidence bin, how many, their mean confidence and how often the code was right), the
expected calibration error, and what a confidence threshold costs (asked) and saves (wrong).

Material the reader was never fitted on:
- synthetic: photos of cards made by the reader's own generator (vision/reader_data.py
  card_scene) with a seed neither training nor validation uses, read whole by `identify`
  (finder, both readers, the combination), not as crops;
- photos (with --photos DIR, a folder laid out as ../shared/data/photos): real photos, for
  measuring only.

    python bench/bench_calibration.py [--n 600] [--deck uno] [--photos ../shared/data/photos]

A calibrated reader is right about as often as it says: a 0.9 reading right 9 times in 10.
`tableref run` asks before flagging an illegal play below table_app.ILLEGAL_SURE, so the
rows at and above that threshold are the ones that must be right.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import cv2
import numpy as np

from tableref.vision.card_model import reliability
from tableref.vision.cardface import all_codes
from tableref.vision.reader_data import card_scene
from tableref.vision.recognise import Recogniser

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
from eval_photos import load_photos  # noqa: E402  (the photo folder's one loader)

THRESHOLDS = (0.6, 0.8, 0.9, 0.95)
SEED = 7001  # training uses 2026, validation 2027
Reading = tuple[str | None, str, float]  # (code said or None when declined, truth, confidence)


def table(readings: list[Reading]) -> tuple[list[dict], float]:
    """card_model.reliability's table over the codes read (declined ones left out), and the
    expected calibration error: the n-weighted mean |accuracy - confidence| over its bins."""
    read = [(c, said == truth) for said, truth, c in readings if said is not None]
    rows = reliability(np.array([c for c, _ in read]), np.array([ok for _, ok in read]))
    ece = sum(r["n"] * abs(r["accuracy"] - r["confidence"]) for r in rows) / max(len(read), 1)
    return rows, ece


def show(title: str, readings: list[Reading]) -> None:
    n = len(readings)
    right = sum(s == t for s, t, _ in readings)
    declined = sum(s is None for s, _, _ in readings)
    print(f"\n== {title}: {n} cards, right {right} ({100 * right / n:.1f}%), "
          f"wrong {n - right - declined} ({100 * (n - right - declined) / n:.1f}%), declined {declined}")
    rows, ece = table(readings)
    print(f"   {'confidence':<11} {'n':>5} {'mean conf':>10} {'accuracy':>9}")
    for r in rows:
        print(f"   {r['bin']:<11} {r['n']:>5} {r['confidence']:>10.3f} {r['accuracy']:>9.3f}")
    print(f"   expected calibration error: {ece:.3f}")
    for t in THRESHOLDS:
        kept = [(s, tr) for s, tr, c in readings if s is not None and c >= t]
        wrong = sum(s != tr for s, tr in kept)
        print(f"   at >= {t:.2f}: {len(kept)} taken as read, {wrong} of them wrong "
              f"({100 * wrong / max(len(kept), 1):.2f}%), {n - len(kept)} asked")


def synthetic(rec: Recogniser, deck: str, n: int) -> list[Reading]:
    codes = all_codes(deck)
    rng = np.random.default_rng(SEED)
    out = []
    for i in range(n):
        code = codes[i % len(codes)]
        scene, _ = card_scene(code, rng, codes)
        got = rec.identify(scene)
        out.append((got.card, code, got.confidence))
    return out


def photos(rec: Recogniser, folder: pathlib.Path) -> list[Reading]:
    out = []
    for p in load_photos(folder):
        got = rec.identify(p.image)
        out.append((got.card, p.label, got.confidence))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=600, help="synthetic cards")
    ap.add_argument("--deck", default="uno")
    ap.add_argument("--photos", type=pathlib.Path, default=None, help="a labelled photo folder (measuring only)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rec = Recogniser(args.deck)
    t0 = time.perf_counter()
    show(f"synthetic photos (reader generator, seed {SEED}), deck {args.deck}", synthetic(rec, args.deck, args.n))
    if args.photos is not None:
        show(f"photos in {args.photos}, deck {args.deck}", photos(rec, args.photos))
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
