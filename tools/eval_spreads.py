#!/usr/bin/env python3
"""Measure `identify --all` on rendered spreads (vision/synth/spread.py): cards read right in
their place, wrong reports, and why each missed card was missed, per layout and overlap.

    python tools/eval_spreads.py [--seed 11] [--spreads 10] [--plain] [--deck uno] [--only apart fan ...]
                                 [--save-misses DIR] [--photos ../shared/data/photos] [--true-outlines]
                                 [--scale 3.15] [--lamp warm] [--camera noisy] [--set fan_sure=0.9 ...]

--plain: the plain spreads the tests were first measured on (spread_scene's defaults: random
procedural table, no lamp, no tilt, cards as big as fit); otherwise varied_spread (table
textures, lamp gradients, tilt, card sizes 1/12 to 1/4 of the frame). A card counts as read
when a report names it on an outline overlapping its own by half (IoU >= 0.5); each missed
card is classed by spread_score.miss_kind. --photos: the cards are crops of real photos
(labels.csv; measuring only), each spread's faces drawn afresh from them, among the crops that
are a whole card on an outline the recogniser reads a card on (card_faces.CardFaces: 31 of the
421 dev photos crop to part of a card, or to more than one, or are read as no card, and are
left out). --true-outlines: the corner reader alone, given what
identify --all has to find: each card but the top one read on its true outline with the cards
over it painted out (Recogniser.corner_readings), its first choice and its readings at least
0.9 and 0.95 sure counted. --scale: each spread enlarged (and softened) as a phone's photo.
--camera: each spread as a worse camera takes it (tools/camera_faults.py), the true outlines
moved with it where the fault moves the picture (tilt, lowres).
--set: a field of spread_read.SpreadConfig changed, to sweep it.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import pathlib
import sys
import time

import cv2
import numpy as np

from tableref.vision.cardface import all_codes
from tableref.vision.colour_cast import LAMPS, under_lamp, without_cast
from tableref.vision.find_card import quad_iou
from tableref.vision.recognise import Recogniser, Recognition
from tableref.vision.spread_read import SpreadConfig, read_spread, spread_outlines
from tableref.vision.spread_peel import cover_mask
from tableref.vision.synth.card_faces import CardFaces, read_labels
from tableref.vision.synth.spread import spread_scene, varied_spread
from tableref.vision.synth.spread_score import MISS_KINDS, score_spread
from tableref.vision.tunables import add_set_argument, with_settings

from camera_faults import FAULTS, as_taken, moved  # tools/, beside this script

CONDITIONS = (("apart", "rows", 0.0), ("touching", "touching", 0.0), ("overlap 15%", "rows", 0.15),
              ("overlap 30%", "rows", 0.30), ("fan", "fan", 0.4),
              ("scattered", "scattered", 0.0), ("scattered 30%", "scattered", 0.3))


SURE = (0.9, 0.95)


def corner_counts(rec: Recogniser, img: np.ndarray, cards: list) -> collections.Counter:
    """How the corner reader reads each card but the top one (cards are drawn in order, each
    over those before) on its true outline, the cards over it painted out."""
    c: collections.Counter = collections.Counter()
    for k, card in enumerate(cards[:-1]):
        r = rec.corner_readings(img, [card.quad], cover_mask(img.shape, [x.quad for x in cards[k + 1:]]))[0]
        c["total"] += 1
        c["first"] += r.card == card.card
        for t in SURE:
            if r.card is not None and r.confidence >= t:
                c[f"right {t}" if r.card == card.card else f"wrong {t}"] += 1
    return c


def described(report: Recognition, cards: list) -> str:
    """A wrong report (SpreadScore.wrong_reports): its code and sureness, and the card its
    outline overlaps most, with their IoU."""
    best = max(cards, key=lambda c: quad_iou(report.quad, c.quad))
    return f"{report.card} {report.confidence:.3f} on {best.card} (IoU {quad_iou(report.quad, best.quad):.2f})"


def enlarged(img: np.ndarray, cards: list, scale: float) -> tuple[np.ndarray, list]:
    """The spread `scale` times the size, softened as a lens is at that size (a phone's photo
    is no sharper per card than a webcam's frame), its cards' outlines with it."""
    h, w = img.shape[:2]
    big = cv2.resize(img, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_CUBIC)
    if scale > 1:
        big = cv2.GaussianBlur(big, (0, 0), 0.5 * scale)
    return big, [dataclasses.replace(c, quad=(c.quad * scale).astype(np.float32)) for c in cards]


def taken(img: np.ndarray, cards: list, fault: str, name: str) -> tuple[np.ndarray, list]:
    """The spread as a camera with `fault` takes it (camera_faults.as_taken, seeded by `name`),
    its cards' outlines moved as the fault moves the picture."""
    h, w = img.shape[:2]
    m = moved(fault, w, h)
    return as_taken(img, fault, name), [dataclasses.replace(c, quad=cv2.perspectiveTransform(
        c.quad.reshape(-1, 1, 2).astype(np.float32), m).reshape(-1, 2)) for c in cards]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--spreads", type=int, default=10, help="spreads per condition")
    ap.add_argument("--deck", default="uno")
    ap.add_argument("--plain", action="store_true", help="spread_scene's defaults, not varied tables")
    ap.add_argument("--only", nargs="+", metavar="CONDITION", help="these conditions alone (apart, touching, "
                    "15, 30, fan: a word of the condition's name)")
    ap.add_argument("--save-misses", type=pathlib.Path, help="write each spread with a miss here, outlined")
    ap.add_argument("--list-wrong", action="store_true",
                    help="print each wrong report: its code and sureness, the card it lies most on, their IoU")
    ap.add_argument("--photos", help="card faces cropped from real photos (labels.csv), not renders")
    ap.add_argument("--true-outlines", action="store_true",
                    help="the corner reader alone, on each card's true outline (see above)")
    ap.add_argument("--lamp", choices=sorted(LAMPS), help="each spread as a camera that ignores this lamp takes it")
    ap.add_argument("--camera", choices=list(FAULTS), help="each spread as a camera with this fault takes it")
    ap.add_argument("--scale", type=float, default=1.0, metavar="S",
                    help="each spread enlarged S times and softened as much, as a phone's photo (3.15: 4032 px wide)")
    add_set_argument(ap, "spread_read.SpreadConfig", "fan_sure=0.9; scan.sure=0.97")
    args = ap.parse_args(argv)
    try:
        config = with_settings(SpreadConfig(), args.set)
    except ValueError as exc:
        print(f"eval_spreads: {exc}", file=sys.stderr)
        return 2
    if args.spreads < 1:
        print("eval_spreads: --spreads must be at least 1", file=sys.stderr)
        return 2
    if not 0.25 <= args.scale <= 8:
        print("eval_spreads: --scale must be between 0.25 and 8", file=sys.stderr)
        return 2
    rec = Recogniser(args.deck)
    codes = sorted(read_labels(pathlib.Path(args.photos))) if args.photos else all_codes(args.deck)
    totals = collections.Counter()
    print(f"seed {args.seed}, {args.spreads} {'plain' if args.plain else 'varied'} spreads per condition, deck {args.deck}"
          + (f", faces from {args.photos}" if args.photos else "") + (f", under a {args.lamp} lamp" if args.lamp else "")
          + (f", taken {args.camera}" if args.camera else ""))
    if args.true_outlines:
        print(f"{'condition':<12} {'cards':>6} {'first':>6}  " + "  ".join(f"{'right/wrong ' + str(t):>17}" for t in SURE))
    else:
        print(f"{'condition':<12} {'right':>9} {'wrong':>9}  " + "  ".join(f"{k:>12}" for k in MISS_KINDS) + "   s/spread")
    for name, layout, overlap in CONDITIONS:
        if args.only and not any(word in name for word in args.only):
            continue
        rng = np.random.default_rng(args.seed)
        c = collections.Counter()
        spent = 0.0
        for i in range(args.spreads):
            hand = [codes[j] for j in rng.integers(0, len(codes), int(rng.integers(4, 14)))]
            faces = CardFaces(args.deck, 200, rng, args.photos).face if args.photos else None
            if args.plain:
                img, cards = spread_scene(hand, rng, overlap=overlap, layout=layout, faces=faces)
            else:
                img, cards = varied_spread(hand, rng, overlap=overlap, layout=layout, faces=faces)
            if args.lamp:
                img = under_lamp(img, args.lamp)
            if args.scale != 1:
                img, cards = enlarged(img, cards, args.scale)
            if args.camera:
                img, cards = taken(img, cards, args.camera, f"{args.seed}-{name}-{i}")
            if args.true_outlines:
                c.update(corner_counts(rec, img, cards))
                continue
            start = time.perf_counter()
            got = read_spread(rec, img, config)
            spent += time.perf_counter() - start
            s = score_spread(got, cards, [o.quad for o in spread_outlines(without_cast(img))])
            c.update(s.counts())
            if args.list_wrong:
                for r in s.wrong_reports:
                    print(f"  wrong: {name} spread {i}: {described(r, cards)}")
            if args.save_misses and s.missed:
                args.save_misses.mkdir(parents=True, exist_ok=True)
                for q, colour in [(g.quad, (0, 255, 0)) for g in got if g.quad is not None] + \
                                 [(cards[k].quad, (0, 0, 255)) for k, _ in s.missed]:
                    cv2.polylines(img, [np.round(q).astype(np.int32)], True, colour, 2)
                cv2.imwrite(str(args.save_misses / f"{name.replace(' ', '_').replace('%', '')}_{i}.png"), img)
        totals.update(c)
        if args.true_outlines:
            print(f"{name:<12} {c['total']:>6} {c['first']:>6}  "
                  + "  ".join(f"{c[f'right {t}']:>11}/{c[f'wrong {t}']:<5}" for t in SURE))
            continue
        print(f"{name:<12} {c['right']:>4}/{c['total']:<4} {c['wrong']:>4}/{c['reports']:<4}  "
              + "  ".join(f"{c[k]:>12}" for k in MISS_KINDS) + f"   {spent / args.spreads:8.2f}")
    t = totals
    if args.true_outlines:
        return 0
    print(f"{'all':<12} {t['right']:>4}/{t['total']:<4} {t['wrong']:>4}/{t['reports']:<4}  "
          + "  ".join(f"{t[k]:>12}" for k in MISS_KINDS))
    print(f"read right in place: {t['right'] / max(1, t['total']):.1%} (bar 98%); "
          f"wrong reports: {t['wrong'] / max(1, t['reports']):.1%} (bar 1%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
