"""`tableref synth OUT_DIR --clips N --seed S`: write synthetic pile clips with ground truth."""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
from dataclasses import replace

from tableref.errors import UserError

from .synth.scene import SceneParams, parse_size


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out_dir", metavar="OUT_DIR", help="folder for the clips and their .json ground truth")
    parser.add_argument("--clips", type=int, default=1, help="number of clips (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first clip; clip k uses seed+k")
    parser.add_argument("--deck", default="uno", help="uno (default), uno112, uno_no_mercy, ono99_classic, ono99_2022")
    parser.add_argument("--size", default="1280x720", help="frame size WIDTHxHEIGHT (default 1280x720)")
    parser.add_argument("--fps", type=float, default=25.0)
    parser.add_argument("--seconds", type=float, default=None, help="length of each clip (default: 8 cards)")
    parser.add_argument("--cards", metavar="PHOTO_DIR", default=None,
                        help="take card faces from real photos in PHOTO_DIR (labels.csv: file,label)")
    parser.add_argument("--format", choices=("mp4", "avi"), default="mp4",
                        help="mp4 (mp4v codec, default) or avi (MJPG)")


def run(args: argparse.Namespace) -> int:
    from .synth.card_faces import deck_codes
    from .synth.clip_writer import write_clip

    if args.clips < 1:
        raise UserError("--clips must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        raise UserError("--seconds must be positive")
    if args.cards and not pathlib.Path(args.cards).is_dir():
        raise UserError(f"--cards: no such folder {args.cards}")
    deck_codes(args.deck)
    out = pathlib.Path(args.out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create {out}: {exc.strerror}") from None
    base = SceneParams(deck=args.deck, size=parse_size(args.size), fps=args.fps, duration=args.seconds,
                       photos=args.cards)
    for k in range(args.clips):
        seed = args.seed + k
        path = out / f"clip_{seed:04d}.{args.format}"
        truth = write_clip(replace(base, seed=seed), path)
        print(json.dumps({"video": str(path), "truth": str(path.with_suffix(".json")),
                          "frames": truth["frames"], "events": len(truth["events"])}))
        sys.stdout.flush()
    return 0
