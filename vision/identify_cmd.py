"""`tableref identify IMAGE... [--deck NAME] [--all] [--json]`: the card in each image.

One line per image; with --json one JSON object per line:
{"file": ..., "card": code or null, "confidence": 0..1, "quad": [[x, y] x4] or null,
 "likely": [[code, confidence], ...]} (the two likeliest codes, read or declined).
With --all, every card in each image (hands spread out for scoring): one line per card found,
in the same form; an image with no card gives no line.
A file that cannot be read gets one error line on stderr; the others are still processed.
Exit status: 0 when every image showed a card that was read, 1 (SOME_FAILED) when a file
could not be read or an image showed no card it could read, 2 for a bad flag (STYLE.md E8).
"""
from __future__ import annotations

import argparse
import json
import sys

from tableref.errors import Exit, UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo(s) of a card")
    parser.add_argument("--deck", default="auto",
                        help="deck to expect: auto (default), uno, uno112, uno_no_mercy, ono99_classic, "
                             "ono99_2022, or the name of a deck taught with `tableref enroll`")
    parser.add_argument("--all", action="store_true",
                        help="read every card in each image (a hand spread out for scoring), one line per card")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")


def run(args: argparse.Namespace) -> int:
    from .recognise import Recogniser
    from .recognise_input import read_image
    from .spread_read import read_spread

    try:
        rec = Recogniser(args.deck)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    failed = 0
    for name in args.images:
        try:
            image = read_image(name)
        except UserError as exc:
            print(f"tableref: error: {exc}", file=sys.stderr)
            failed += 1
            continue
        read = read_spread(rec, image) if args.all else [rec.identify(image)]
        if not any(r.card is not None for r in read):
            failed += 1  # no card read: a script must not take it for a reading
        for r in read:
            quad = None if r.quad is None else [[round(float(x), 1), round(float(y), 1)] for x, y in r.quad]
            if args.json:
                print(json.dumps({"file": name, "card": r.card, "confidence": round(r.confidence, 3), "quad": quad,
                                  "likely": [list(t) for t in r.likely]}))
            else:
                said = r.card if r.card is not None else "no card recognised" + (
                    f" (perhaps {r.likely[0][0]})" if r.likely else "")
                where = f" at {quad[0][0]:.0f},{quad[0][1]:.0f}" if args.all and quad else ""
                print(f"{name}: {said}{where} (confidence {r.confidence:.2f})")
        sys.stdout.flush()
    return Exit.SOME_FAILED if failed else Exit.OK
