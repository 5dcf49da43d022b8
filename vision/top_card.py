"""Reading the card that just landed: the one place where the watcher calls the recogniser.

The watcher knows *where* the pile changed; the recogniser knows what cards look like. Of
the card outlines the recogniser finds near the change, those that cover the changed pixels
best are tried, and so are card-sized outlines fitted to the change itself (card_fit.py: the
finder often misses a card lying on other cards). The outlines vote with their confidence,
weighted by how well they match the changed area: an odd outline (part of the card, or two
cards) can read surely as another card, while the card's own outlines agree with each other
and match the change best. Outlines far smaller than the change (the card's oval, outlined
several times over) do not vote at all. The reading gives the winner's surest confidence, on
the biggest outline that read it about as surely: the card's oval can read as surely as the
card, and must not pass for the card (the watcher learns the cards' size from it, and
whether a hand lies beside it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from .card_fit import EdgeFit, card_like_short_side, fitted_quads
from .find_card import warp_card
from .recognise import CardReading, PendingReading

Box = tuple[int, int, int, int]
SEARCH_SIDE = 320  # outlines are searched on the crop shrunk to about this long side (see _shrunk)
CHANGE_SHARE = 0.25  # an outline smaller than this share of the changed area is not the new card
AS_SURE = 0.05  # readings this close to the surest are about as sure


@dataclass(frozen=True)
class Outlines:
    """Where a read looked: the crop `box` (frame pixels), the outlines in it that may be the
    new card (4x2, the crop's pixels), and each one's overlap of the change and area (shrunk
    pixels, as the vote weighs them). A settled card does not move, so reading it again on the
    next still frame (look_again.py) reads these again and skips the search for them: the
    finder and the edge fit, about half of a read."""
    box: Box
    quads: tuple[np.ndarray, ...]
    overlaps: tuple[float, ...]
    areas: tuple[float, ...]


@dataclass(frozen=True)
class Reading:
    card: str | None
    confidence: float
    quad: np.ndarray | None  # 4x2, frame pixels
    likely: tuple[tuple[str, float], ...] = ()  # the two likeliest codes, read or declined
    outlines: Outlines | None = field(default=None, compare=False, repr=False)  # where it was read


def _coverage(quad: np.ndarray, changed: np.ndarray) -> float:
    """Fraction of the quad's outline band that changed (a new card's edges all changed)."""
    outline = np.zeros(changed.shape, np.uint8)
    cv2.polylines(outline, [np.round(quad).astype(np.int32)], True, 255, max(2, changed.shape[1] // 60))
    total = cv2.countNonZero(outline)
    return cv2.countNonZero(cv2.bitwise_and(outline, changed)) / total if total else 0.0


def _inside_changed(quad: np.ndarray, changed: np.ndarray) -> tuple[int, int]:
    """(changed pixels inside the quad, pixels inside the quad)."""
    inside = np.zeros(changed.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 255)
    return cv2.countNonZero(cv2.bitwise_and(inside, changed)), cv2.countNonZero(inside)


def _held(quad: np.ndarray, changed: np.ndarray, changed_area: int) -> float:
    """Share of the changed pixels that lie inside the quad."""
    return _inside_changed(quad, changed)[0] / changed_area if changed_area else 0.0


def _overlap(quad: np.ndarray, changed: np.ndarray, changed_area: int) -> float:
    """Intersection over union of the quad and the changed pixels."""
    inter, area = _inside_changed(quad, changed)
    union = area + changed_area - inter
    return inter / union if union else 0.0


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(np.asarray(quad, np.float32).reshape(-1, 1, 2)))


def _explaining(quads: list[np.ndarray], changed_area: int) -> list[np.ndarray]:
    """The outlines big enough to be the card that made the change. An outline far smaller
    than the change is part of a card (its oval or symbol, which the finder also outlines, and
    which then sets the size of the fitted outlines too): several of those can outvote the
    card itself. When no outline is that big, all of them stay."""
    floor = CHANGE_SHARE * changed_area
    big = [q for q in quads if _area(q) >= floor]
    return big or quads


def _distinct(quads: list[np.ndarray], tolerance: float = 1.0) -> list[np.ndarray]:
    """The quads without repeats: fitting searches started apart often end on the same
    outline, which must not vote twice (outlines a pixel or two apart still each vote)."""
    out: list[np.ndarray] = []
    for q in quads:
        if all(np.abs(q - o).max() > tolerance for o in out):
            out.append(q)
    return out


def read_top_card(recogniser: Any, frame_bgr: np.ndarray, box: Box, changed: np.ndarray,
                  card_side: float | None = None) -> Reading:
    """Find and classify the new top card inside `box` (frame pixels).

    `changed` is a uint8 mask of the box (255 = changed since the last accepted pile image).
    Without a recogniser the card is unknown (None), never guessed. The card's size is
    estimated at every read from the change and the whole cards the finder sees; the caller
    may add `card_side` (frame pixels), the size earlier readings outlined, which is worth
    trying when the change is no card's size. (The watcher keeps that from the frames it
    has seen, so a resumed run primes it on the same frames, recogniser and all.)
    """
    if recogniser is None:
        return Reading(None, 0.0, None)
    return read_outlines(recogniser, frame_bgr, card_outlines(recogniser, frame_bgr, box, changed, card_side))


def read_outlines(recogniser: Any, frame_bgr: np.ndarray, outlines: Outlines) -> Reading:
    """Classify the new top card on `outlines` (card_outlines) of this frame: the outlines
    vote (see the module doc). A settled card's outlines found on an earlier frame are read
    again here as they are."""
    x0, y0, x1, y1 = outlines.box
    crop = frame_bgr[y0:y1, x0:x1]
    origin = np.float32([x0, y0])  # the crop's pixels -> the frame's
    overlaps = list(outlines.overlaps)
    # every outline that could turn the vote votes (see the module doc and _read_deciding)
    warped = [warp_card(crop, q) for q in outlines.quads]
    read = _read_deciding(_pending(recogniser, warped), overlaps, list(outlines.areas))
    votes: dict[str, float] = {}
    readings: dict[str, list[tuple[float, int, tuple[tuple[str, float], ...]]]] = {}
    declined: list[tuple[float, tuple[tuple[str, float], ...]]] = []
    for i, r in sorted(read.items()):
        if r.card is None:
            if r.likely:
                declined.append((overlaps[i], r.likely))
            continue
        # an outline votes as much as it matches the change: the card's own outline matches
        # it best; its oval's (a third of it) and one around older cards too (their print
        # reads surely as an older card) match it less
        votes[r.card] = votes.get(r.card, 0.0) + float(r.confidence) * overlaps[i]
        readings.setdefault(r.card, []).append((float(r.confidence), i, r.likely))
    if not votes:
        # declined: what the outline that best matches the change thought it might be
        said = max(declined, key=lambda t: t[0])[1] if declined else ()
        return Reading(None, 0.0, outlines.quads[0] + origin if outlines.quads else None, said, outlines)
    card = max(votes, key=lambda c: votes[c])
    # its surest reading, on the biggest outline that read it about as surely: the card's
    # oval reads as surely as the card, and must not pass for the card's size
    # (and the runner-up that outline's reading gives: which outlines are read depends on the
    # order they are read in, that one does not)
    surest = max(c for c, _, _ in readings[card])
    _, best, likely = max((r for r in readings[card] if r[0] >= surest - AS_SURE), key=lambda r: outlines.areas[r[1]])
    runner_up = tuple(t for t in likely if t[0] != card)[:1]
    return Reading(card, surest, outlines.quads[best] + origin, ((card, round(surest, 3)),) + runner_up, outlines)


def card_outlines(recogniser: Any, frame_bgr: np.ndarray, box: Box, changed: np.ndarray,
                  card_side: float | None = None) -> Outlines:
    """The outlines inside `box` (frame pixels) that may be the card that made the change
    `changed` (see read_top_card): the finder's that cover the change best, and card-sized
    ones fitted to the change itself."""
    x0, y0, x1, y1 = box
    crop = frame_bgr[y0:y1, x0:x1]
    # outlines are searched at a working scale and read from the crop at full resolution
    k, look, changed = _shrunk(crop, changed)
    candidates: list[np.ndarray] = []
    quads = [np.asarray(q, np.float32).reshape(4, 2) for q in recogniser.find_cards(look)]
    changed_area = cv2.countNonZero(changed)
    if quads:
        # the card's oval and symbol lie wholly inside the change, so their outlines cover it
        # best of all: rank only the outlines big enough to be the card
        found = _explaining(quads, changed_area)
        scores = [_coverage(q, changed) for q in found]
        # outlines come top card first; keep those whose edges changed, ranked by how much of
        # the change they hold too (the card holds it all, its oval a third)
        held = [_held(q, changed, changed_area) for q in found]
        order = sorted(range(len(found)), key=lambda i: (-round(scores[i] * held[i], 1), i))
        candidates += [found[i] for i in order[:3] if scores[i] >= 0.3]
    hint = card_like_short_side(quads)  # the size of whole cards the finder saw is worth a try
    edges = EdgeFit(look, changed)
    # (the size-free search stays when the cards' size is known: a tilted camera shows a card
    # near it bigger, and on other_clips seed 304 the watcher lost 2 of 13 landings without it)
    candidates += edges.quads(None, hint) + fitted_quads(edges.rect, None, hint)
    if card_side:
        candidates += edges.quads(card_side / k) + fitted_quads(edges.rect, card_side / k)
    candidates = _distinct(_explaining(candidates, changed_area))
    # back to the crop's pixels (a shrunk pixel's centre is the middle of the k it stands for)
    shift = np.float32((k - 1) / 2)
    return Outlines(box, tuple(q * k + shift for q in candidates),
                    tuple(_overlap(q, changed, changed_area) for q in candidates),
                    tuple(_area(q) for q in candidates))


def _read_deciding(pending: list[Any], overlaps: list[float], areas: list[float]) -> dict[int, Any]:
    """{index: reading} of the outlines whose reading can change what the vote reports.

    Outlines are read the most overlapping first (those can turn the vote most, so it is
    settled after fewer) until no unread outline can turn it: each votes at most its
    overlap (a confidence is at most 1), and only for the
    codes its learned reading leaves possible (PendingReading.could; the classic reader, the
    slow one, is asked only for those read). Then the winner's unread outlines are read that
    could still raise its confidence, or give a bigger outline read about as surely: what is
    reported is what reading them all would report."""
    n = len(pending)
    read = {i: p.read() for i, p in enumerate(pending) if p.is_read}
    for i in sorted(range(n), key=lambda j: -overlaps[j]):
        if i not in read and _open(pending, read, overlaps) is None:
            read[i] = pending[i].read()
    winner = _open(pending, read, overlaps)
    if winner is None:
        return read
    # the winner's unread outlines that might read it: all of them while a surer reading is
    # possible, else those bigger than the outline it would give
    maybe = [i for i in range(n) if i not in read and (pending[i].could is None or winner in pending[i].could)]
    for i in sorted(maybe, key=lambda j: -areas[j]):
        mine = [(r.confidence, areas[j]) for j, r in read.items() if r.card == winner]
        surest = max(c for c, _ in mine)
        if surest < 1.0 or areas[i] > max(a for c, a in mine if c >= surest - AS_SURE):
            read[i] = pending[i].read()
    return read


def _open(pending: list[Any], read: dict[int, Any], overlaps: list[float]) -> str | None:
    """None while the outlines read so far leave the vote open (or give no card), else the
    code that wins it whatever the unread outlines read."""
    votes: dict[str, float] = {}
    for i, r in sorted(read.items()):
        if r.card is not None:
            votes[r.card] = votes.get(r.card, 0.0) + float(r.confidence) * overlaps[i]
    if not votes:
        return None
    leader = max(votes, key=lambda c: votes[c])
    unread = [i for i in range(len(pending)) if i not in read]
    if any(pending[i].could is None for i in unread):
        return None  # an outline that could read as anything (a recogniser without the learned reader)
    rivals = set(votes) | {c for i in unread for c in pending[i].could}
    for code in rivals - {leader}:
        most = votes.get(code, 0.0) + sum(overlaps[i] for i in unread if code in pending[i].could)
        if most >= votes[leader]:
            return None
    return leader


def _shrunk(crop: np.ndarray, changed: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(k, crop, change mask) shrunk by the whole factor k that brings the crop's long side
    near SEARCH_SIDE. The change comes from the watcher's working view (a fifth of a
    1280-pixel frame), and the finder and the edge search need no finer grain than a card of
    a hundred pixels; their cost grows with the pixels, the reading's does not."""
    k = max(1, round(max(crop.shape[:2]) / SEARCH_SIDE))
    if k == 1:
        return 1, crop, changed
    h, w = crop.shape[0] // k, crop.shape[1] // k
    look = cv2.resize(crop[:h * k, :w * k], (w, h), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(changed[:h * k, :w * k], (w, h), interpolation=cv2.INTER_AREA)
    return k, look, cv2.threshold(mask, 127, 255, cv2.THRESH_BINARY)[1]


def _pending(recogniser: Any, warped: list[np.ndarray]) -> list[Any]:
    """The readings of the rectified outlines, to be read as wanted (recognise.PendingReading):
    the recogniser's own when it has the learned reader's first look, else each read whole."""
    if hasattr(recogniser, "pending_reads"):
        return recogniser.pending_reads(warped)
    return [PendingReading(None, lambda w=w: CardReading(*recogniser.classify_card(w))) for w in warped]
