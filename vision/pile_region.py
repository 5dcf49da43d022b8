"""Where the pile is, in working (small-image) pixels.

Until the first card lands the whole frame is watched. Each accepted change grows the pile's
bounding box; the watched region is that box plus a margin of most of a card, so hands
and shadows elsewhere on the table do not matter and the watcher settles sooner.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .cardface import ASPECT

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)


class RegionError(ValueError):
    """A --region the frame cannot hold: said as one line, unlike a bug's ValueError."""


@dataclass
class PileRegion:
    width: int
    height: int
    fixed: Box | None = None  # given by the user: never moves
    pile: Box | None = None
    card_size: float = 0.0  # estimated card short side, small-image pixels
    margin_cards: float = 0.9
    extra: float = 0.0  # grown when a settled change keeps touching the edge

    def box(self) -> Box:
        return self._box(self.extra)

    def grown_box(self) -> Box:
        """The box that grow() would give."""
        return self._box(self.extra + self._step())

    def _step(self) -> float:
        return 0.5 * max(self.card_size, 4.0)

    def _box(self, extra: float) -> Box:
        if self.fixed is not None:
            return self.fixed
        if self.pile is None:
            return (0, 0, self.width, self.height)
        m = int(round((self.margin_cards * self.card_size) + extra))
        x0, y0, x1, y1 = self.pile
        return (max(0, x0 - m), max(0, y0 - m), min(self.width, x1 + m), min(self.height, y1 + m))

    def is_whole_frame(self) -> bool:
        return self.box() == (0, 0, self.width, self.height)

    def add_card(self, bbox: Box, area: float) -> None:
        """Grow the pile with the bounding box of a card that just landed (its changed area).
        A fixed region keeps its box but learns the cards' size all the same."""
        size = (area / ASPECT) ** 0.5  # a card's area is ASPECT short sides squared
        self.card_size = size if self.card_size == 0 else 0.7 * self.card_size + 0.3 * size
        if self.fixed is not None:
            return
        if self.pile is None:
            self.pile = bbox
        else:
            a = self.pile
            self.pile = (min(a[0], bbox[0]), min(a[1], bbox[1]), max(a[2], bbox[2]), max(a[3], bbox[3]))

    def carry(self, move: Callable[[Box], Box]) -> None:
        """The camera moved: the pile (and a region the user gave) lie where `move` puts them."""
        if self.pile is not None:
            self.pile = move(self.pile)
        if self.fixed is not None:
            self.fixed = move(self.fixed)

    def grow(self) -> bool:
        """Widen the margin by half a card; False when already the whole frame."""
        if self.fixed is not None or self.is_whole_frame():
            return False
        self.extra += self._step()
        return True
