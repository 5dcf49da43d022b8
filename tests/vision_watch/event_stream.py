"""The watcher's whole event stream on a fixed set of seeded synthetic clips: the safety net
that lets the watcher's inside be rearranged without a change in what it reports.

Each clip is a `synth:` source (the project's own scene generator, rendered frame by frame,
no codec) watched by PileWatcher with the built-in recogniser for the deck named. The set
holds hands from several seats, take-backs, a 1280x720 clip, and a deck the recogniser was
not made for (its cards read unsurely, so they are looked at again, or declined).

    python tests/vision_watch/event_stream.py --write        # take the golden (from main!)
    python tests/vision_watch/event_stream.py --exact OUT    # every field at full precision

The golden (event_stream.json) holds each event as `tableref watch --json` prints it, plus
its outline; --exact writes every field unrounded, for comparing two checkouts on one
machine (a rounded golden also holds on another machine's float arithmetic).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
from dataclasses import asdict
from typing import Any

GOLDEN = pathlib.Path(__file__).with_name("event_stream.json")

# (recogniser's deck, source): seeds picked for what their scripts hold
CLIPS = (
    ("uno", "synth:seed=1014,size=640x360,cards=4"),  # two take-backs
    ("uno", "synth:seed=1023,size=640x360,cards=4,players=6,uneven=1"),  # six seats, spaced as people sit
    ("uno", "synth:seed=1057,size=640x360,cards=4,jpeg=70"),  # a take-back, frames through JPEG
    ("uno", "synth:seed=6,size=640x360,cards=4,deck=ono99_2022"),  # another deck: unsure reads, three declined
    ("uno", "synth:seed=1002,size=1280x720,cards=3"),
)


def watch(deck: str, spec: str, recognisers: dict[str, Any]) -> list[Any]:
    """The events PileWatcher reports on `spec`, as Event objects."""
    from tableref.vision.recognise import Recogniser
    from tableref.vision.sources import open_source
    from tableref.vision.watcher import PileWatcher

    recogniser = recognisers.setdefault(deck, Recogniser(deck=deck))
    watcher = PileWatcher(recogniser)
    source = open_source(spec)
    try:
        return [e for f in source for e in watcher.feed(f.index, f.t, f.image)] + watcher.finish()
    finally:
        source.close()


def as_golden(event: Any) -> dict[str, Any]:
    """What `watch --json` prints of the event, and its outline (to a hundredth of a pixel)."""
    quad = None if event.quad is None else [[round(x, 2), round(y, 2)] for x, y in event.quad]
    return {**event.as_json(), "quad": quad}


def streams() -> dict[str, list[Any]]:
    """Each clip's events, keyed by deck and source."""
    recognisers: dict[str, Any] = {}
    return {f"{deck} {spec}": watch(deck, spec, recognisers) for deck, spec in CLIPS}


def _dump(found: dict[str, list[Any]], path: pathlib.Path, exact: bool) -> None:
    path.write_text(json.dumps({k: [asdict(e) if exact else as_golden(e) for e in v] for k, v in found.items()},
                               indent=1) + "\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write the golden {GOLDEN.name}")
    parser.add_argument("--exact", metavar="OUT", help="write every field at full precision to OUT")
    args = parser.parse_args(argv)
    found = streams()
    if args.exact:
        _dump(found, pathlib.Path(args.exact), exact=True)
    if args.write:
        _dump(found, GOLDEN, exact=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
