"""Card recogniser: find the top card, rectify it, read its colour and symbol.

`Recogniser(deck)` where deck is "auto" (every known code), a deck name from
`cardface.all_codes` ("uno", "uno112", "uno_no_mercy", "ono99_classic", "ono99_2022") or the
name of an enrolled profile. Low confidence, card backs, bare tables and foreign cards give
`card=None`: the referee then asks the table instead of guessing.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .cardface import DECKS, all_codes, is_ninety_nine, split_code
from .classify_colour import COLOURS, colour_scores, white_gains
from .classify_symbol import CANON_H, CANON_W, KnnModel, features, rank_key, six_or_nine, symbol_mask
from .find_card import find_cards, warp_card
from .profiles import BACK_LABEL, NONE_LABEL, Profile, builtin_profile, list_profiles, profile_path

# Below these the answer is "unknown". Set from a sweep: LOSO accuracy on the dev photos
# against false cards on the project's card-free scenes (tools/eval_reject.py).
MIN_CONFIDENCE = 0.6
MIN_SIMILARITY = 0.55
FRAME_MIN_CONFIDENCE = 0.85
CANDIDATES = 5   # card outlines tried per image, best first
# a wild's ink mix stands in for similarity down to this closeness (see _classify)
WILD_INK_CLOSENESS = 0.75
WILD_INK_SHARE = 0.15
SURE = 0.9       # stop trying outlines after an answer this confident


@dataclass(frozen=True)
class Recognition:
    card: str | None
    confidence: float
    quad: np.ndarray | None


class Recogniser:
    def __init__(self, deck: str = "auto", profile: Profile | None = None,
                 extra: Profile | None = None) -> None:
        """`profile` overrides the built-in one (evaluation); `extra` adds samples to it."""
        self.deck = deck
        base = profile if profile is not None else builtin_profile()
        if deck in ("auto", *DECKS, "uno_family", "ono99", "all"):
            codes = all_codes("all" if deck == "auto" else deck)
        else:
            path = profile_path(deck)
            if not path.is_file():
                known = ", ".join(["auto", *DECKS, *list_profiles()])
                raise ValueError(f"unknown deck {deck!r} (known: {known})")
            enrolled = Profile.load(path)
            extra = enrolled if extra is None else _merge(enrolled, extra)
            codes = sorted({c for c in enrolled.codes if c}) or all_codes("all")
        self.codes = set(codes)
        prof = base if extra is None else _merge(base, extra)
        self.allowed_ranks = {rank_key(c) for c in self.codes} | {NONE_LABEL, BACK_LABEL}
        self.model = KnnModel(prof.x, prof.labels, k=5)

    # ---------------------------------------------------------------- public API
    def find_cards(self, image_bgr: np.ndarray) -> list[np.ndarray]:
        return [c.quad for c in find_cards(image_bgr)]

    def classify_card(self, warped_bgr: np.ndarray) -> tuple[str | None, float]:
        """(code or None, confidence) of an already rectified card (any size; a landscape
        image is turned to portrait first; either end may be up)."""
        if warped_bgr.shape[1] > warped_bgr.shape[0]:
            warped_bgr = cv2.rotate(warped_bgr, cv2.ROTATE_90_CLOCKWISE)
        code, conf, _ = self._classify(warped_bgr)
        return code, conf

    def identify(self, image_bgr: np.ndarray) -> Recognition:
        """The top card: among the best few outlines, the one whose outline score times
        classification confidence is highest."""
        best = Recognition(None, 0.0, None)
        best_score = -1.0
        for cand in find_cards(image_bgr)[:CANDIDATES]:
            warped = warp_card(image_bgr, cand.quad, (CANON_W, CANON_H))
            code, conf, _ = self._classify(warped)
            if cand.whole_frame and conf < FRAME_MIN_CONFIDENCE:
                code = None  # the whole photo as a card is a last resort: only when sure
            score = conf * (0.4 + 0.6 * min(1.0, cand.score / 0.6))
            if code is not None and score > best_score:
                best, best_score = Recognition(code, conf, cand.quad), score
                if conf >= SURE and cand.score >= 0.5:
                    break  # a clear card on a clear outline: the other outlines cannot beat it
            elif best.quad is None:
                best = Recognition(None, conf, cand.quad)
        return best

    # ---------------------------------------------------------------- internals
    def _classify(self, warped_bgr: np.ndarray) -> tuple[str | None, float, dict[str, float]]:
        canon = warped_bgr if warped_bgr.shape[:2] == (CANON_H, CANON_W) else cv2.resize(
            warped_bgr, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
        gains = white_gains(canon)
        mask = symbol_mask(canon, gains)
        rank_probs, sim = self.model.scores(features(canon, mask), self.allowed_ranks)
        rank_probs = _settle_six_nine(rank_probs, mask)
        colours = colour_scores(canon, gains)
        scored: dict[str, float] = {}
        uno_colours = {c: colours[c] for c in COLOURS}
        col_total = sum(uno_colours.values()) or 1.0
        for rank, p in rank_probs.items():
            if rank in (NONE_LABEL, BACK_LABEL):
                scored[rank] = p
                continue
            if rank.startswith("99:"):
                code = rank[3:]
                if code in self.codes:
                    scored[code] = p
                continue
            if rank.startswith("wild"):
                if rank in self.codes:
                    # a wild shows a black field or several inks, no single dominant one
                    mixed = float(np.clip((1 - max(uno_colours.values()) / col_total) / 0.5, 0, 1))
                    scored[rank] = p * (0.3 + 0.7 * max(colours["black"], mixed))
                continue
            for colour in COLOURS:
                code = f"{colour}-{rank}"
                if code in self.codes:
                    scored[code] = p * (uno_colours[colour] / col_total) * (1 - 0.7 * colours["black"])
        if not scored:
            return None, 0.0, scored
        code = max(scored, key=lambda c: scored[c])
        closeness = min(1.0, max(0.0, (sim - MIN_SIMILARITY) / 0.2))
        if code.startswith("wild") and _four_inks(uno_colours):
            # wilds are printed in many designs, few of which the profile holds; three or four
            # inks in clear shares are evidence the nearest-neighbour distance cannot give
            closeness = max(closeness, WILD_INK_CLOSENESS)
        conf = scored[code] * closeness
        if code in (NONE_LABEL, BACK_LABEL) or sim < MIN_SIMILARITY or conf < MIN_CONFIDENCE:
            return None, float(conf if code not in (NONE_LABEL, BACK_LABEL) else 0.0), scored
        return code, float(conf), scored


def _four_inks(colours: dict[str, float]) -> bool:
    """At least three of the four UNO inks, each a clear share of the coloured area."""
    total = sum(colours.values()) or 1.0
    return sum(v / total >= WILD_INK_SHARE for v in colours.values()) >= 3


def _settle_six_nine(rank_probs: dict[str, float], mask: np.ndarray) -> dict[str, float]:
    """6 and 9 differ only by which way up they are; the underline decides (see six_or_nine)."""
    top = max(rank_probs, key=lambda r: rank_probs[r]) if rank_probs else None
    if top not in ("6", "9"):
        return rank_probs
    which = six_or_nine(mask)
    if which is None:
        return rank_probs
    out = dict(rank_probs)
    pair = out.get("6", 0.0) + out.get("9", 0.0)
    out[which] = pair
    out["9" if which == "6" else "6"] = 0.0
    return out


def _merge(a: Profile, b: Profile) -> Profile:
    return Profile(f"{a.name}+{b.name}", np.concatenate([a.x, b.x]), a.labels + b.labels,
                   (a.codes or [""] * len(a.labels)) + (b.codes or [""] * len(b.labels)))


__all__ = ["Recogniser", "Recognition", "is_ninety_nine", "split_code"]
