"""Scoring `identify --all` against a rendered spread's true outlines (tests, tools/eval_spreads.py).

A card is read right when a report names it on an outline overlapping its own by half (IoU >=
0.5); a report is wrong when no card it overlaps so is the card it names. A missed card is
"misread" (a report lies on it naming another card), "outlined" (the finder outlined it but no
report came of that), "merged" (a report or an outline of the finder's covers most of it and
most of another card too), or "never outlined".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import cv2
import numpy as np

from ..find_card import quad_iou

HIT_IOU = 0.5
MISS_KINDS = ("misread", "outlined", "merged", "never outlined")


@dataclass
class SpreadScore:
    total: int
    reports: int
    right: int
    wrong_reports: list[Any] = field(default_factory=list)  # the reports that name no card on its outline
    missed: list[tuple[int, str]] = field(default_factory=list)  # (index of the card, miss kind)

    @property
    def wrong(self) -> int:
        return len(self.wrong_reports)

    def counts(self) -> dict[str, int]:
        out = {"total": self.total, "reports": self.reports, "right": self.right, "wrong": self.wrong}
        for _, kind in self.missed:
            out[kind] = out.get(kind, 0) + 1
        return out


def _covered(outline: np.ndarray, card: np.ndarray) -> float:
    """The share of `card` that `outline` covers."""
    inter, _ = cv2.intersectConvexConvex(outline.astype(np.float32), card.astype(np.float32))
    area = cv2.contourArea(card.astype(np.float32))
    return float(inter / area) if area > 0 else 0.0


def miss_kind(k: int, cards: Sequence[Any], reports: Sequence[Any], outlines: Sequence[np.ndarray]) -> str:
    quad = cards[k].quad
    if any(quad_iou(r.quad, quad) >= HIT_IOU for r in reports):
        return "misread"
    if any(quad_iou(o, quad) >= HIT_IOU for o in outlines):
        return "outlined"
    for o in [r.quad for r in reports] + list(outlines):
        if _covered(o, quad) >= 0.5 and any(_covered(o, c.quad) >= 0.5 for j, c in enumerate(cards) if j != k):
            return "merged"
    return "never outlined"


def score_spread(reports: Sequence[Any], cards: Sequence[Any], outlines: Sequence[np.ndarray] = ()) -> SpreadScore:
    """`reports`: Recognitions (card, quad); `cards`: SpreadCards; `outlines`: the finder's
    outlines of the image, to tell the kinds of misses apart."""
    reports = [r for r in reports if r.quad is not None]

    def hit(r: Any, c: Any) -> bool:
        return r.card == c.card and quad_iou(r.quad, c.quad) >= HIT_IOU
    right = [any(hit(r, c) for r in reports) for c in cards]
    wrong = [r for r in reports if not any(hit(r, c) for c in cards)]
    missed = [(k, miss_kind(k, cards, reports, outlines)) for k, ok in enumerate(right) if not ok]
    return SpreadScore(len(cards), len(reports), sum(right), wrong, missed)


__all__ = ["MISS_KINDS", "SpreadScore", "miss_kind", "score_spread"]
