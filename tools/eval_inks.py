"""Enrolment on decks printed in other inks: for each hue shift, one shot of each card is
enrolled and two other shots of each are read, by the built-in reader and by the enrolled one.

    .venv/bin/python tools/eval_inks.py [--shifts -15 -10 10 15] [--deck uno] [--seed 1]

Shots are renders with every ink turned round the colour circle (vision/synth/odd_inks.py):
a lime yellow, an orange red, a violet blue. Prints right / wrong / declined per reader.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from tableref.vision.cardface import all_codes
from tableref.vision.enrolment import build_enrolled
from tableref.vision.recognise import Recogniser
from tableref.vision.synth.odd_inks import odd_ink_shot


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--shifts", type=int, nargs="+", default=[-15, -10, 10, 15])
    ap.add_argument("--deck", default="uno")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    codes = [c for c in all_codes(args.deck) if not c.startswith("wild")]
    for shift in args.shifts:
        rng = np.random.default_rng(args.seed)
        enrolled = build_enrolled(f"shift {shift}", [(odd_ink_shot(c, shift, rng), c) for c in codes])
        tests = [(odd_ink_shot(c, shift, rng), c) for c in codes for _ in range(2)]
        for name, rec in (("built-in", Recogniser(args.deck)), ("enrolled", Recogniser(args.deck, extra=enrolled))):
            said = [rec.identify(img).card for img, _ in tests]
            right = sum(s == c for s, (_, c) in zip(said, tests))
            none = sum(s is None for s in said)
            learned = f"; inks learned {enrolled.meta['inks']}" if name == "enrolled" else ""
            print(f"hue shift {shift:+d} ({shift * 2:+d} degrees), {name}: right {right}/{len(tests)}, "
                  f"wrong {len(tests) - right - none}, declined {none}{learned}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
