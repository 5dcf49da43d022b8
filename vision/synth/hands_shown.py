"""A pile video with the end of each hand scored by showing the hands: after a given pile
frame the camera sees, one after another, each hand still to be scored spread on the table
(spread.py), each held still for a while, then the pile again.

Pure generation: a scene in (anything with `frame(i)`, `n_frames`, `fps`, `size` and
`ground_truth()`), a scene out; the spread photos are rendered once and held.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

import numpy as np

from .spread import spread_scene

HOLD_S = 2.0  # how long each spread hand lies still under the camera


@dataclass(frozen=True)
class ShownHand:
    after: int           # the pile frame after which it is shown (the hand has ended there)
    seat: int
    cards: tuple[str, ...]  # what is spread (the whole hand, or what a person forgot part of)


class HandsShownScene:
    """`pile` with the spread hands spliced in after their pile frames, in the order given."""

    def __init__(self, pile: Any, hands: list[ShownHand], seed: int, hold_s: float = HOLD_S) -> None:
        self.pile = pile
        self.fps = pile.fps
        self.size = pile.size
        self.hands = sorted(hands, key=lambda h: h.after)  # stable: the order within a hand's end stays
        rng = np.random.default_rng(seed + 4241)
        self.images = [spread_scene(list(h.cards), rng, size=tuple(self.size))[0] for h in self.hands]
        self.hold = max(1, round(hold_s * self.fps))
        # the output frame at which each spread starts
        self.starts = [h.after + 1 + i * self.hold for i, h in enumerate(self.hands)]
        self.n_frames = pile.n_frames + self.hold * len(self.hands)

    def _pile_frame(self, i: int) -> int:
        """The pile frame of output frame `i` (one not inside a spread)."""
        return i - self.hold * bisect.bisect_right(self.starts, i)

    def frame(self, i: int) -> np.ndarray:
        k = bisect.bisect_right(self.starts, i) - 1
        if k >= 0 and i < self.starts[k] + self.hold:
            return self.images[k]
        return self.pile.frame(self._pile_frame(i))

    def shift(self, pile_frame: int) -> int:
        """The output frame of pile frame `pile_frame`."""
        return pile_frame + self.hold * sum(1 for h in self.hands if h.after < pile_frame)

    def ground_truth(self) -> dict[str, Any]:
        """The pile's truth with its event frames moved past the spreads, and `hands`: when
        each hand is shown (its first frame and time), whose it is and its cards."""
        truth = dict(self.pile.ground_truth())
        events = []
        for ev in truth["events"]:
            frame = self.shift(ev["frame"])
            events.append({**ev, "frame": frame, "t": round(frame / self.fps, 3)})
        truth["events"] = events
        truth["frames"] = self.n_frames
        truth["hands"] = [{"frame": s, "t": round(s / self.fps, 3), "seat": h.seat, "cards": list(h.cards)}
                          for s, h in zip(self.starts, self.hands)]
        return truth
