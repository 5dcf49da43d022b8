"""`tableref synth OUT_DIR --clips N --seed S`: write synthetic pile clips with ground truth;
`tableref synth --game GAME OUT_DIR`: a whole game's pile video with the input script to play
it through `tableref run` (tableref.practice)."""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
from dataclasses import replace

from tableref.errors import UserError

from tableref.practice import GAMES

from .synth.scene import SceneParams, parse_size


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out_dir", metavar="OUT_DIR", help="folder for the clips and their .json ground truth")
    parser.add_argument("--game", default=None, choices=GAMES,
                        help="write the video of a whole legal game of GAME and its input script instead of clips")
    parser.add_argument("--players", type=int, default=3, help="seats of the --game game (default 3)")
    parser.add_argument("--option", action="append", default=None, metavar="KEY=VALUE",
                        help="a game option of the --game game (repeatable)")
    parser.add_argument("--clips", type=int, default=1, help="number of clips (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first clip; clip k uses seed+k")
    parser.add_argument("--deck", default="uno", help="uno (default), uno112, uno_no_mercy, ono99_classic, ono99_2022")
    parser.add_argument("--size", default=None, help="frame size WIDTHxHEIGHT (default 1280x720; --game: 640x480)")
    parser.add_argument("--fps", type=float, default=None, help="frames per second (default 25; --game: 15)")
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
    if args.game is not None:
        return _practice(args, out)
    _make_folder(out)
    base = SceneParams(deck=args.deck, size=parse_size(args.size or "1280x720"), fps=args.fps or 25.0, duration=args.seconds,
                       photos=args.cards)
    for k in range(args.clips):
        seed = args.seed + k
        path = out / f"clip_{seed:04d}.{args.format}"
        truth = write_clip(replace(base, seed=seed), path)
        print(json.dumps({"video": str(path), "truth": str(path.with_suffix(".json")),
                          "frames": truth["frames"], "events": len(truth["events"])}))
        sys.stdout.flush()
    return 0


def _make_folder(out: pathlib.Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create {out}: {exc.strerror}") from None


def _practice(args: argparse.Namespace, out: pathlib.Path) -> int:
    from tableref.practice import write_practice
    from tableref.referee import Referee
    from tableref.settings import parse_option

    options = dict(parse_option(o) for o in (args.option or []))
    Referee(args.game, args.players, options)  # a bad player count or option: one line, before any work
    _make_folder(out)
    try:
        summary = write_practice(args.game, args.players, args.seed, options, out, parse_size(args.size or "640x480"),
                                 args.fps or 15.0, args.format)
    except RuntimeError as exc:  # no seed in the search gave a game the table can play
        raise UserError(f"--game {args.game}: {exc}") from None
    print(json.dumps(summary))
    return 0
