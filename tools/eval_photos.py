#!/usr/bin/env python3
"""Measure the recogniser on the dev photos (../shared/data/photos). Nothing here is shipped:
photo features live only in memory for the duration of a run.

Modes:
  loso     leave-one-source-out: for each source, the built-in (rendered) profile plus the
           photos of the other 8 sources; test on the held-out source.
  builtin  the built-in profile alone (no photo used for anything).
  enroll   for every source with >= 2 photos of a card: enrol one photo per card, test on
           that source's other photos.
  faces    the card faces the synthetic photo clips are made of (synth/card_faces.py cuts
           each photo's card at the clip's card size), read flat by the built-in recogniser:
           about the most a watcher can read right in those clips.
  small    each card shrunk to 40, 55 and 70 px wide, softened and JPEG'd as a far 640x360
           webcam shows it (tools/other_clips.py's cards are 36-72 px), each end up.

    python tools/eval_photos.py [--photos DIR] [--mode loso|builtin|enroll|faces|small|all] [--profile-seeds 1 2 3]
                                [--reader classic|model|both] [--set FIELD=VALUE ...]
                                [--lamp warm|...] [--camera motion|defocus|tilt|lowres|dark|noisy]

--lamp and --camera measure each photo as another camera would take it: under a lamp its white
balance leaves in, or with a fault of its own (tools/camera_faults.py).

Every mode prints the wrong-code rate beside the accuracy, and a reliability table (reported
confidence against how often the code was right).
"""
from __future__ import annotations

import argparse
import collections
import csv
import pathlib
import sys
import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from camera_faults import FAULTS, as_taken  # tools/, beside this script
from tableref.vision.classify_symbol import CANON_H, CANON_W, features, rank_key
from tableref.vision.colour_cast import LAMPS, under_lamp
from tableref.vision.find_card import find_cards, warp_card
from tableref.vision.enrolment import build_enrolled
from tableref.vision.profiles import Profile, build_builtin, builtin_profile
from tableref.vision.recognise import Recogniser, RecogniserConfig
from tableref.vision.tunables import add_set_argument, with_settings

CONFIG = RecogniserConfig()  # set from the command line (--reader, --set)

DEFAULT_PHOTOS = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "photos"


@dataclass
class Photo:
    file: str
    source: str
    label: str
    image: np.ndarray


def load_photos(root: pathlib.Path) -> list[Photo]:
    if not (root / "labels.csv").is_file():
        raise SystemExit(f"no labels.csv in {root}: pass the photo folder with --photos DIR")
    with open(root / "labels.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = []
    for r in rows:
        img = cv2.imread(str(root / r["file"]), cv2.IMREAD_COLOR)
        if img is None:
            raise SystemExit(f"cannot read {root / r['file']}")
        out.append(Photo(r["file"], r["file"].split("/")[0], r["label"], img))
    return out


def photo_samples(photos: list[Photo]) -> Profile:
    """Features of each photo's card outline, in both 180-degree orientations."""
    xs, labels, codes = [], [], []
    base = Recogniser("auto", config=CONFIG)
    for p in photos:
        # the outline the built-in recogniser likes best (as enrolment does), else the finder's
        quad = base.identify(p.image).quad
        if quad is None:
            cands = find_cards(p.image)
            if not cands:
                continue
            quad = cands[0].quad
        warped = warp_card(p.image, quad, (CANON_W, CANON_H))
        for img in (warped, cv2.rotate(warped, cv2.ROTATE_180)):
            xs.append(features(img))
            labels.append(rank_key(p.label))
            codes.append(p.label)
    return Profile("photos", np.stack(xs), labels, codes)


def colour_of(code: str | None) -> str:
    if code is None:
        return "none"
    return code.split("-")[0] if "-" in code else "wild"


def report(title: str, results: list[tuple[Photo, str | None]], confidences: list[float] | None = None) -> float:
    n = len(results)
    ok = sum(1 for p, c in results if c == p.label)
    print(f"\n== {title}: exact-code accuracy {ok}/{n} = {100 * ok / max(n, 1):.1f}%")
    by_src: dict[str, list[bool]] = collections.defaultdict(list)
    by_col: dict[str, list[bool]] = collections.defaultdict(list)
    for p, c in results:
        by_src[p.source].append(c == p.label)
        by_col[colour_of(p.label)].append(c == p.label)
    print("   per source: " + ", ".join(f"{s} {100 * np.mean(v):.0f}% ({sum(v)}/{len(v)})" for s, v in sorted(by_src.items())))
    print("   per colour: " + ", ".join(f"{s} {100 * np.mean(v):.0f}% ({sum(v)}/{len(v)})" for s, v in sorted(by_col.items())))
    conf = collections.Counter((p.label, c or "None") for p, c in results if c != p.label)
    none = sum(1 for p, c in results if c is None)
    wrong = n - ok - none
    print(f"   errors: {wrong} wrong code, {none} rejected (None)")
    if conf:
        print("   confusions (truth -> said, count): " + ", ".join(f"{a}->{b} x{k}" for (a, b), k in conf.most_common(40)))
    if confidences is not None:
        reliability([c for _, c in results], [p.label for p, _ in results], confidences)
    return ok / max(n, 1)


BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0001)


def reliability(said: list[str | None], truth: list[str], confidences: list[float]) -> None:
    """How often a code read (not declined) with a confidence in each bin was right: a
    calibrated reader's accuracy matches its confidence."""
    rows = [(c, s == t) for s, t, c in zip(said, truth, confidences) if s is not None]
    print("   reliability (codes read): " + ", ".join(
        f"{lo:.2f}-{min(hi, 1):.2f}: {sum(r for c, r in rows if lo <= c < hi)}/{sum(1 for c, _ in rows if lo <= c < hi)}"
        for lo, hi in zip(BINS[:-1], BINS[1:]) if any(lo <= c < hi for c, _ in rows)))


def run_loso(photos: list[Photo], deck: str = "auto") -> float:
    sources = sorted({p.source for p in photos})
    samples = {s: photo_samples([p for p in photos if p.source == s]) for s in sources}
    results, confidences = [], []
    for s in sources:
        others = [samples[o] for o in sources if o != s]
        extra = Profile("others", np.concatenate([o.x for o in others]), sum((o.labels for o in others), []),
                        sum((o.codes for o in others), []))
        rec = Recogniser(deck, extra=extra, config=CONFIG)
        for p in photos:
            if p.source == s:
                got = rec.identify(p.image)
                results.append((p, got.card))
                confidences.append(got.confidence)
    return report(f"leave-one-source-out (rendered + 8 other sources), deck {deck}, reader {CONFIG.reader}",
                  results, confidences)


def run_builtin(photos: list[Photo], deck: str) -> float:
    rec = Recogniser(deck, config=CONFIG)
    got = [rec.identify(p.image) for p in photos]
    return report(f"built-in profile and model alone (no photos), --deck {deck}, reader {CONFIG.reader}",
                  [(p, g.card) for p, g in zip(photos, got)], [g.confidence for g in got])


def run_profile_seeds(photos: list[Photo], seeds: list[int]) -> None:
    """The built-in profile is a random sample of renders: rebuild it with other seeds and
    report each, so that one lucky or unlucky sample is not taken for the recogniser."""
    print(f"\n== built-in profile alone, rebuilt with render seeds {seeds} (shipped: 1234)")
    totals: dict[str, list[int]] = collections.defaultdict(list)
    for seed in seeds:
        prof = build_builtin(seed=seed)
        row = []
        for deck in ("auto", "uno"):
            rec = Recogniser(deck, profile=prof, config=CONFIG)
            ok = sum(rec.identify(p.image).card == p.label for p in photos)
            totals[deck].append(ok)
            row.append(f"--deck {deck} {ok}/{len(photos)}")
        print(f"   seed {seed}: " + ", ".join(row), flush=True)
    for deck, oks in totals.items():
        print(f"   --deck {deck}: mean {np.mean(oks):.1f}/{len(photos)} = {100 * np.mean(oks) / len(photos):.1f}%, "
              f"range {min(oks)}..{max(oks)}")


def run_faces(photos: list[Photo], deck: str, sides: tuple[int, ...] = (110, 250)) -> None:
    from tableref.vision.synth.card_faces import crop_photo, recogniser_finder

    finder = recogniser_finder()
    rec = Recogniser(deck, config=CONFIG)
    for side in sides:  # the face sizes of 640x360 and 1280x720 clips
        report(f"card faces cut for the synthetic clips ({side} px short side), read flat, --deck {deck}",
               [(p, rec.classify_card(crop_photo(p.image, side, finder))[0]) for p in photos])


def enrol_split(photos: list[Photo]) -> tuple[list[Photo], list[Photo]]:
    """One enrolment shot per (source, card) that has >= 2 shots; the rest of those are tests."""
    groups: dict[tuple[str, str], list[Photo]] = collections.defaultdict(list)
    for p in photos:
        groups[(p.source, p.label)].append(p)
    enrol, test = [], []
    for key in sorted(groups):
        g = sorted(groups[key], key=lambda p: p.file)
        if len(g) >= 2:
            enrol.append(g[0])
            test += g[1:]
    return enrol, test


def run_enroll(photos: list[Photo]) -> float:
    enrol, test = enrol_split(photos)
    results = []
    for s in sorted({p.source for p in test}):
        prof = build_enrolled(s, [(p.image, p.label) for p in enrol if p.source == s])
        rec = Recogniser("auto", extra=prof, config=CONFIG)
        results += [(p, rec.identify(p.image).card) for p in test if p.source == s]
    first = report(f"enrolment (1 shot per card enrolled, {len(enrol)} enrolled, {len(test)} tested)", results)
    # The same physical deck photographed in two sessions (SOURCES.md: nuno_set2 is the
    # nuno_set1 deck and table at a higher resolution): enrol set1, test on set2.
    set1 = [p for p in photos if p.source == "nuno_set1"]
    set2 = [p for p in photos if p.source == "nuno_set2"]
    if set1 and set2:
        rec = Recogniser("auto", extra=build_enrolled("nuno", [(p.image, p.label) for p in set1]), config=CONFIG)
        report(f"enrolment, same deck across sessions (enrol {len(set1)} nuno_set1 shots, test nuno_set2)",
               [(p, rec.identify(p.image).card) for p in set2])
    return first


def webcam_small(card: np.ndarray, side: int) -> np.ndarray:
    """A flat card image as a far 640x360 webcam shows it: `side` px wide, a little soft, JPEG'd."""
    h, w = card.shape[:2]
    small = cv2.resize(card, (side, max(1, round(side * h / w))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 0.6)
    return cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_COLOR)


def run_small(photos: list[Photo], deck: str, sides: tuple[int, ...] = (40, 55, 70)) -> list[float]:
    """Each card cut from its photo and shrunk to the 36-72 px a 640x360 webcam gives it (as in
    tools/other_clips.py), read as it lies and turned half round: where 6, 8 and 9 and the
    reverse's arrows blur together."""
    from tableref.vision.synth.card_faces import crop_photo, recogniser_finder

    finder = recogniser_finder()
    rec = Recogniser(deck, config=CONFIG)
    cards = [crop_photo(p.image, 4 * max(sides), finder) for p in photos]
    accuracies = []
    for side in sides:
        results: list[tuple[Photo, str | None]] = []
        confidences: list[float] = []
        for p, card in zip(photos, cards):
            small = webcam_small(card, side)
            for view in (small, cv2.rotate(small, cv2.ROTATE_180)):
                code, conf = rec.classify_card(view)
                results.append((p, code))
                confidences.append(conf)
        accuracies.append(report(f"cards {side} px wide as a far webcam shows them, each end up, --deck {deck}, "
                                 f"reader {CONFIG.reader}", results, confidences))
    return accuracies


def main(argv: list[str] | None = None) -> int:
    global CONFIG
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--photos", type=pathlib.Path, default=DEFAULT_PHOTOS)
    ap.add_argument("--mode", choices=("loso", "builtin", "enroll", "faces", "small", "all"), default="all")
    ap.add_argument("--deck", default="auto", help="deck the LOSO recogniser expects (auto, uno, ...)")
    ap.add_argument("--profile-seeds", type=int, nargs="*", default=[], metavar="SEED",
                    help="also rebuild the built-in profile with these render seeds and score each (slow)")
    ap.add_argument("--reader", choices=("classic", "model", "both"), default=CONFIG.reader)
    add_set_argument(ap, "RecogniserConfig", "contest=1.01 turns that rule off; veto=0.01")
    ap.add_argument("--lamp", choices=sorted(LAMPS), help="each photo as a camera that ignores this lamp takes it")
    ap.add_argument("--camera", choices=list(FAULTS), help="each photo as a camera with this fault takes it")
    args = ap.parse_args(argv)
    try:
        CONFIG = with_settings(replace(CONFIG, reader=args.reader), args.set)
    except ValueError as exc:
        ap.error(str(exc))
    cv2.setNumThreads(1)
    t0 = time.time()
    photos = load_photos(args.photos)
    if args.lamp:
        photos = [replace(p, image=under_lamp(p.image, args.lamp)) for p in photos]
    if args.camera:
        photos = [replace(p, image=as_taken(p.image, args.camera, p.file)) for p in photos]
    builtin_profile()
    print(f"{len(photos)} photos from {len({p.source for p in photos})} sources"
          + (f", under a {args.lamp} lamp" if args.lamp else "")
          + (f", taken {args.camera}" if args.camera else ""))
    if args.mode in ("loso", "all"):
        run_loso(photos, args.deck)
    if args.mode in ("builtin", "all"):
        run_builtin(photos, "auto")
        run_builtin(photos, "uno")
    if args.profile_seeds:
        run_profile_seeds(photos, args.profile_seeds)
    if args.mode in ("enroll", "all"):
        run_enroll(photos)
    if args.mode in ("faces", "all"):
        run_faces(photos, args.deck)
    if args.mode in ("small", "all"):
        run_small(photos, args.deck)
    print(f"\n({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
