#!/usr/bin/env python3
"""Measure the learned card reader on the dev photos (../shared/data/photos). Measuring only:
nothing here feeds training, and no photo or photo feature is kept.

For each photo the card finder's best few outlines are warped to the canonical 128x200 card
and read by the model; the most confident reading is the photo's answer. Prints exact-code
accuracy overall and per source folder, the wrong-code rate when readings below a confidence
are declined, the wild class, and a reliability table (confidence bins vs accuracy).

    python tools/eval_reader.py [--photos DIR] [--model FILE] [--outlines 5] [--deck uno|all] [--one-end]
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys
import time

import cv2
import numpy as np

from tableref.vision.card_model import NONE, CardModel, ModelFileError, reliability
from tableref.vision.cardface import all_codes
from tableref.vision.find_card import WARP_H, WARP_W, find_cards, warp_card

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from eval_photos import DEFAULT_PHOTOS, Photo, load_photos  # noqa: E402

THRESHOLDS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95)


def read_photo(model: CardModel, image: np.ndarray, outlines: int, allowed: np.ndarray,
               both_ends: bool) -> tuple[str, float]:
    """(code, confidence) of the most confident card reading among the finder's best outlines;
    ("_none", p) when no outline holds a card. Only the `allowed` classes (the deck's codes and
    "_none") compete: the probabilities are renormalised over them."""
    quads = find_cards(image)[:outlines]
    if not quads:
        return NONE, 1.0
    cards = [warp_card(image, q.quad, (WARP_W, WARP_H)) for q in quads]
    p = model.probabilities(cards, both_ends=both_ends) * allowed
    p /= p.sum(axis=1, keepdims=True)
    none = model.classes.index(NONE)
    card_p = p.copy()
    card_p[:, none] = 0
    best = np.unravel_index(int(card_p.argmax()), card_p.shape)
    if p[best[0]].argmax() == none:  # even the best card outline reads as no card
        return NONE, float(p[best[0], none])
    return model.classes[best[1]], float(p[best])


def report(results: list[tuple[Photo, str, float]]) -> dict:
    n = len(results)
    right = np.array([c == p.label for p, c, _ in results])
    conf = np.array([k for _, _, k in results])
    declined = np.array([c == NONE for _, c, _ in results])
    print(f"== exact-code accuracy {right.sum()}/{n} = {100 * right.mean():.1f}%  "
          f"(wrong code {(~right & ~declined).sum()}, read as no card {declined.sum()})")
    by_src: dict[str, list[bool]] = collections.defaultdict(list)
    for (p, c, _), ok in zip(results, right):
        by_src[p.source].append(bool(ok))
    print("   per source: " + ", ".join(f"{s} {sum(v)}/{len(v)}" for s, v in sorted(by_src.items())))
    wild = [ok for (p, _, _), ok in zip(results, right) if p.label.startswith("wild")]
    if wild:
        print(f"   wild class: {sum(wild)}/{len(wild)} = {100 * np.mean(wild):.1f}%")
    print("   declining readings below a confidence (and those read as no card):")
    for t in THRESHOLDS:
        keep = (conf >= t) & ~declined
        print(f"     < {t:.2f}: right {(keep & right).sum()}, wrong {(keep & ~right).sum()} "
              f"({100 * (keep & ~right).mean():.1f}%), declined {(~keep).sum()}")
    print("   reliability (readings of a card; confidence bin: n, mean confidence, accuracy):")
    for row in reliability(conf[~declined], right[~declined]):
        print(f"     {row['bin']}: {row['n']:4d}  {row['confidence']:.3f}  {row['accuracy']:.3f}")
    conf_pairs = collections.Counter((p.label, c) for (p, c, _), ok in zip(results, right) if not ok)
    if conf_pairs:
        print("   confusions: " + ", ".join(f"{a}->{b} x{k}" for (a, b), k in conf_pairs.most_common(30)))
    return {"photos": n, "exact": int(right.sum()), "wrong_code": int((~right & ~declined).sum()),
            "read_as_no_card": int(declined.sum()), "wild": f"{sum(wild)}/{len(wild)}",
            "per_source": {s: f"{sum(v)}/{len(v)}" for s, v in sorted(by_src.items())},
            "wrong_at_0.9": int(((conf >= 0.9) & ~declined & ~right).sum())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--photos", type=pathlib.Path, default=DEFAULT_PHOTOS)
    ap.add_argument("--model", type=pathlib.Path, default=None, help="ONNX file (default: the shipped model)")
    ap.add_argument("--outlines", type=int, default=5, help="finder outlines read per photo")
    ap.add_argument("--deck", default="uno", help="deck whose codes compete (the photos are UNO: uno); all: every code")
    ap.add_argument("--one-end", dest="both_ends", action="store_false",
                    help="read each card only as warped (default: also turned half round, averaged)")
    ap.add_argument("--record", action="store_true",
                    help="write the figures (counts only) into the model's JSON under 'photos'")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        model = CardModel.load(args.model)
        codes = set(all_codes(args.deck)) | {NONE}
    except (ModelFileError, ValueError) as e:
        print(f"eval_reader: {e}", file=sys.stderr)
        return 2
    allowed = np.array([c in codes for c in model.classes], np.float64)
    photos = load_photos(args.photos)
    t0 = time.time()
    results = [(p, *read_photo(model, p.image, args.outlines, allowed, args.both_ends)) for p in photos]
    print(f"{len(photos)} photos, model {model.path.name} (temperature {model.temperature}), deck {args.deck}, "
          f"{args.outlines} outlines, both ends {args.both_ends}")
    summary = report(results)
    print(f"({time.time() - t0:.0f} s)")
    if args.record:
        meta_path = model.path.with_suffix(".json")
        meta = json.loads(meta_path.read_text())
        summary["command"] = "python tools/eval_reader.py " + " ".join(a for a in (argv or sys.argv[1:]) if a != "--record")
        meta["photos"] = summary
        meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
