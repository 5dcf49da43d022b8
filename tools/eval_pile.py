"""Read the top card of synthetic pile clips (rendered faces) frame by frame, without the
watcher: for each landing, the frame 1 s later goes to Recogniser.identify.

    .venv/bin/python tools/eval_pile.py --deck ono99 --seeds 0 14

Prints right / rejected / wrong and the confusions (truth -> said). The watcher's own
acceptance figure is tests/vision_watch/test_acceptance.py; this isolates the recogniser.

With --seats, the whole watcher instead, on streamed clips with the given numbers of
players: for each landing found, whether the seat its bearing names (the nearest seat
bearing) is the one that played it, per player count, and how many landings had a bearing
too unsure for the referee to name a seat by (it goes by turn order for them) or named a
wrong seat although sure:

    .venv/bin/python tools/eval_pile.py --seats 2 3 4 5 6 8 --uneven --seeds 0 6 --size 1280x720
"""
from __future__ import annotations

import argparse
import collections
import sys

from tableref.vision.recognise import Recogniser
from tableref.vision.synth.scene import SceneParams, SynthScene


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="ono99", help="synthetic scene deck (uno, ono99, ono99_classic, uno_no_mercy)")
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 14), metavar=("FIRST", "END"))
    ap.add_argument("--recogniser-deck", default=None, help="deck the recogniser expects (default: the scene's codes)")
    ap.add_argument("--photos", default=None, metavar="DIR", help="card faces cropped from real photos (labels.csv)")
    ap.add_argument("--seats", type=int, nargs="+", default=None, metavar="PLAYERS",
                    help="score the seats the watcher's bearings name, for these player counts")
    ap.add_argument("--uneven", action="store_true", help="--seats: seats spaced unevenly, as people sit")
    ap.add_argument("--edge", action="store_true", help="--seats: the pile near an edge or a corner of the frame")
    ap.add_argument("--size", default="640x360", help="--seats: frame size (default 640x360)")
    ap.add_argument("--duration", type=float, default=10.0, help="--seats: seconds per clip (default 10)")
    args = ap.parse_args(argv)
    if args.seats:
        return seats(args)
    rec_deck = args.recogniser_deck or {"ono99": "ono99_2022", "ono99_classic": "ono99_classic"}.get(args.deck, args.deck)
    rec = Recogniser(deck=rec_deck)
    counts: collections.Counter[str] = collections.Counter()
    confusions: collections.Counter[tuple[str, str | None]] = collections.Counter()
    for seed in range(*args.seeds):
        scene = SynthScene(SceneParams(seed=seed, size=(640, 360), duration=20, deck=args.deck, photos=args.photos))
        for ev in scene.ground_truth()["events"]:
            if ev["type"] != "landed":
                continue
            frame = min(ev["frame"] + int(scene.fps), scene.n_frames - 1)
            said = rec.identify(scene.frame(frame)).card
            kind = "right" if said == ev["card"] else ("rejected" if said is None else "wrong")
            counts[kind] += 1
            if kind != "right":
                confusions[(ev["card"], said)] += 1
    total = sum(counts.values())
    print(f"{args.deck} seeds {args.seeds[0]}..{args.seeds[1] - 1}: right {counts['right']}/{total}, "
          f"rejected {counts['rejected']}, wrong {counts['wrong']}")
    print("confusions:", ", ".join(f"{t}->{s} x{n}" for (t, s), n in confusions.most_common()))
    return 0


def seats(args: argparse.Namespace) -> int:
    from tableref.vision.synth.score import Score, score_clip, watch_events

    rec = Recogniser(deck=args.recogniser_deck or "uno")
    total = Score()
    for players in args.seats:
        score = Score()
        for seed in range(*args.seeds):
            spec = (f"synth:seed={seed},size={args.size},duration={args.duration},players={players}"
                    f",uneven={int(args.uneven)},edge={int(args.edge)}")
            from tableref.vision.sources import open_source
            source = open_source(spec)
            truth = source.ground_truth()  # type: ignore[attr-defined]
            source.close()
            score = score.add(score_clip(truth, watch_events(spec, rec), f"{players} players seed {seed}"))
        print(f"{players} players{' (uneven)' if args.uneven else ''}{' (pile near the edge)' if args.edge else ''}, {args.size}, seeds {args.seeds[0]}.."
              f"{args.seeds[1] - 1}: events found {score.found}/{score.truth}; {score.seat_summary()}",
              flush=True)
        for line in score.seat_errors:
            print("  ", line)
        total = total.add(score)
    print(f"all: {total.seat_summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
