"""`tableref watch SOURCE`: report cards landing on and taken back from the pile."""
from __future__ import annotations

import argparse
import json
import sys

from tableref.errors import UserError


def _region(text: str) -> tuple[int, int, int, int]:
    try:
        x, y, w, h = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad region {text!r}: expected x,y,w,h in pixels") from None
    if w <= 0 or h <= 0 or x < 0 or y < 0:
        raise argparse.ArgumentTypeError(f"bad region {text!r}: width and height must be positive")
    return x, y, w, h


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="SOURCE",
                        help="camera index (0), video file, dir/%%04d.png or a folder of images, "
                             "or synth:seed=3,deck=uno,size=1280x720,cards=12")
    parser.add_argument("--deck", default="auto", help="deck the recogniser expects (default auto)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line (the default is text)")
    parser.add_argument("--region", type=_region, default=None, metavar="x,y,w,h",
                        help="where the pile is, in pixels (default: found by itself)")
    parser.add_argument("--fps", type=float, default=None, help="frame rate of an image sequence (default 25)")


def _recogniser(deck: str):
    try:
        from .recognise import Recogniser
    except ImportError:
        print("tableref: warning: no card recogniser in this build; cards are reported as unknown",
              file=sys.stderr)
        return None
    try:
        return Recogniser(deck=deck)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from .sources import open_source
    from .pile_region import RegionError
    from .watcher import PileWatcher

    source = open_source(args.source, fps=args.fps)
    watcher = PileWatcher(_recogniser(args.deck), region=args.region)
    try:
        for frame in source:
            try:
                events = watcher.feed(frame.index, frame.t, frame.image)
            except RegionError as exc:
                raise UserError(f"{args.source}: {exc}") from None
            _print(events, args.json)
            notice = watcher.fresh_notice()
            if notice:  # on stderr: stdout holds only the events
                print(f"tableref: note: frame {frame.index}: {notice}", file=sys.stderr, flush=True)
        _print(watcher.finish(), args.json)  # a card still being read when the source ended
    finally:
        source.close()
    return 0


def _print(events: list, as_json: bool) -> None:
    for ev in events:
        if as_json:
            print(json.dumps(ev.as_json()))
        else:
            card = ev.card or "unknown card"
            print(f"{ev.t:9.3f} s  frame {ev.frame:6d}  {ev.event:8s} {card} ({ev.confidence:.2f})")
        sys.stdout.flush()
