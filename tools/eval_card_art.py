"""Measure `identify` on digital card faces of other decks (../shared/data/card_art: templates,
not photos), each laid on a table (wood, felt, a dark mat or a light top) at a random angle,
size and light and put through a cheap camera. Measuring only: nothing here is fitted on them, and nothing is shipped.

    .venv/bin/python tools/eval_card_art.py [--art ../shared/data/card_art] [--shots 2] [--seed 5] [--enrol]
                                            [--set contest=1.01 ...]

Per deck folder: cards read right, wrong codes, declined; the 99 deck is read with
--deck ono99_2022 (its codes), the UNO decks with --deck auto. With --enrol, as a deck
taught with `tableref enroll`: one other shot of each face enrolled first.
"""
from __future__ import annotations

import argparse
import collections
import csv
import pathlib
import sys

import cv2
import numpy as np

from tableref.vision.enrolment import Learner
from tableref.vision.profiles import Profile
from tableref.vision.recognise import Recogniser, RecogniserConfig
from tableref.vision.synth.odd_inks import table_shot
from tableref.vision.tunables import add_set_argument, with_settings

DEFAULT_ART = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "card_art"


def _face(path: pathlib.Path) -> np.ndarray | None:
    """The face as BGRA (a JPEG's every pixel opaque)."""
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        return None
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 3:
        img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    return img


def enrolled(name: str, faces: list[tuple[np.ndarray, str]], rng: np.random.Generator) -> Profile:
    """A deck taught as `tableref enroll` teaches it: one shot of each face, a shot that shows
    no card taken again (up to three times)."""
    learner = Learner(name)
    for face, code in faces:
        for _ in range(3):
            try:
                learner.add(table_shot(face, rng), code)
                break
            except LookupError:
                continue
    return learner.profile()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--art", type=pathlib.Path, default=DEFAULT_ART)
    ap.add_argument("--shots", type=int, default=2, help="shots of each face")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--enrol", action="store_true", help="enrol one shot of each face first")
    add_set_argument(ap, "RecogniserConfig", "contest=1.01 turns that rule off; veto=0.01")
    args = ap.parse_args(argv)
    try:
        config = with_settings(RecogniserConfig(), args.set)
    except ValueError as exc:
        ap.error(str(exc))
    if not args.art.is_dir():
        print(f"eval_card_art: error: {args.art}: no such folder", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    readers: dict[str, Recogniser] = {}
    for folder in sorted(p for p in args.art.iterdir() if (p / "labels.csv").is_file()):
        deck = "ono99_2022" if folder.name.startswith("ono99") else "auto"
        with open(folder / "labels.csv", newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["label"] != "back" and r["file"].lower().endswith((".png", ".jpg"))]
        faces = [(f, r["label"]) for r in rows if (f := _face(folder / r["file"])) is not None]
        if args.enrol:
            rec = Recogniser(deck, extra=enrolled(folder.name, faces, rng), config=config)
        else:
            rec = readers.setdefault(deck, Recogniser(deck, config=config))
        right = wrong = none = 0
        confusions: collections.Counter[tuple[str, str]] = collections.Counter()
        for face, code in faces:
            for _ in range(args.shots):
                said = rec.identify(table_shot(face, rng)).card
                if said == code:
                    right += 1
                elif said is None:
                    none += 1
                    confusions[(code, "None")] += 1
                else:
                    wrong += 1
                    confusions[(code, said)] += 1
        n = right + wrong + none
        taught = ", enrolled" if args.enrol else ""
        print(f"{folder.name} (--deck {deck}{taught}): right {right}/{n} = {right / max(n, 1):.1%}, wrong {wrong}, "
              f"declined {none}")
        if confusions:
            print("   " + ", ".join(f"{a}->{b} x{k}" for (a, b), k in confusions.most_common(12)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
