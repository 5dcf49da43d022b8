"""Read the top card of synthetic pile clips (rendered faces) frame by frame, without the
watcher: for each landing, the frame 1 s later goes to Recogniser.identify.

    .venv/bin/python tools/eval_pile.py --deck ono99 --seeds 0 14

Prints right / rejected / wrong and the confusions (truth -> said). The watcher's own
acceptance figure is tests/vision_watch/test_acceptance.py; this isolates the recogniser.
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
    args = ap.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
