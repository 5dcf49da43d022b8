#!/usr/bin/env python3
"""Reject rate: card-free scenes made by the project (bare procedural tables, a hand over the
table, card backs, another game's playing card) must give card=None; with --all, `identify
--all` (spread_read) must report no card in them.

    python tools/eval_reject.py [--n 200] [--seed 99] [--all]
"""
from __future__ import annotations

import argparse
import collections
import sys

import cv2
import numpy as np

from tableref.vision.classify_training import CARD_FREE_KINDS, card_free_scene
from tableref.vision.recognise import Recogniser
from tableref.vision.spread_read import read_spread


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--deck", default="auto")
    ap.add_argument("--all", action="store_true", help="identify --all: every card in the scene, not the top one")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    rec = Recogniser(args.deck)
    said: dict[str, list[str | None]] = collections.defaultdict(list)
    for i in range(args.n):
        kind = CARD_FREE_KINDS[i % len(CARD_FREE_KINDS)]
        scene = card_free_scene(rng, kind)
        if args.all:  # the first of the cards reported, if any
            said[kind].append(next((r.card for r in read_spread(rec, scene) if r.card is not None), None))
        else:
            said[kind].append(rec.identify(scene).card)
    total = sum(len(v) for v in said.values())
    false = sum(1 for v in said.values() for c in v if c is not None)
    print(f"card-free scenes reported as {'holding a card' if args.all else 'a card'}: {false}/{total} = "
          f"{100 * false / total:.1f}% (deck {args.deck}{', identify --all' if args.all else ''})")
    for kind, v in said.items():
        bad = collections.Counter(c for c in v if c is not None)
        print(f"   {kind}: {sum(bad.values())}/{len(v)}" + (f"  said: {dict(bad)}" if bad else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
