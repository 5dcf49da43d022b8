"""Several frames' readings of one settled card -> one reading (pure logic: images only held).

The watcher reads a card once it has settled; a reading it is unsure of (declined, or below
the sure level) is taken again on the next still frames (landing.py, `look_frames`), since
a glint, a shadow or a blur that spoils one frame seldom spoils the next the same way. The
readings vote with their confidence. Frames that read two different codes are no silent
answer: the card is declined, offering both, so that the table is asked. Otherwise the code
read stands with its surest reading (and that reading's outline), as one frame's outlines do
in top_card.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .top_card import Reading
from .watch_config import lasted

SURE = 0.9  # a combined reading this sure needs no further look (WatcherConfig.look_sure)
CONFLICT = 0.5  # a second code read at least this surely makes the frames disagree (WatcherConfig.look_conflict)


def combine(readings: list[Reading], conflict: float = CONFLICT) -> Reading:
    """One reading of the card from the readings of several frames (first one first); a
    second code read at least `conflict` surely makes them disagree."""
    if not readings:
        raise ValueError("no reading to combine")
    votes: dict[str, float] = {}
    surest: dict[str, Reading] = {}
    for r in readings:
        if r.card is None:
            continue
        votes[r.card] = votes.get(r.card, 0.0) + r.confidence
        if r.card not in surest or r.confidence > surest[r.card].confidence:
            surest[r.card] = r
    if not votes:
        # every frame declined: what the frames thought it might be, the likeliest first
        return _declined(readings)
    ranked = sorted(votes, key=lambda c: -votes[c])
    best = surest[ranked[0]]
    others = [c for c in ranked[1:] if surest[c].confidence >= conflict]
    if others:
        total = sum(votes.values())
        likely = tuple((c, round(votes[c] / total, 3)) for c in (ranked[0], others[0]))
        return Reading(None, 0.0, best.quad, likely)
    return best


def is_sure(reading: Reading, sure: float = SURE) -> bool:
    """Whether a reading needs no further look: a card read at least `sure` surely."""
    return reading.card is not None and reading.confidence >= sure


def _declined(readings: list[Reading]) -> Reading:
    """A declined reading whose two likeliest codes are summed over the frames."""
    weight: dict[str, float] = {}
    for r in readings:
        for code, p in r.likely:
            weight[code] = weight.get(code, 0.0) + p
    ranked = sorted(weight, key=lambda c: -weight[c])[:2]
    n = len(readings)
    quad = next((r.quad for r in readings if r.quad is not None), None)
    return Reading(None, 0.0, quad, tuple((c, round(weight[c] / n, 3)) for c in ranked))


@dataclass
class Look:
    """A landing whose reading was unsure, being read again on the next still frames: the
    readings so far, when the first was taken, and what the pile's record needs to report
    it (held as they came: the pile image with the card, and where it changed, `interior`
    of the region from `origin`, `roi`)."""
    image: Any
    roi: tuple[slice, slice]
    interior: Any
    origin: tuple[int, int]
    readings: list[Reading]
    t: float

    def enough(self, frames: int, seconds: float, t: float, sure: float = SURE, conflict: float = CONFLICT) -> bool:
        """Whether to report now, at time `t`: the readings together are sure (see is_sure
        and combine), or they are `frames` readings, or the first is `seconds` old."""
        return (is_sure(combine(self.readings, conflict), sure) or len(self.readings) >= frames
                or lasted(self.t, t, seconds))
