"""Reading every card of a hand spread under the camera (`identify --all`, scoring a hand).

`read_spread(recogniser, image)` gives each card once, best first: the finder's outlines that
read as a card; a card of the others' size around outlines that are only a card's oval or
field; small cards again at the photo's full resolution; the cards of a cluster no outline
parts, found by reading card-sized windows over it (spread_scan); then, round after round, the cards
beside those found (spread_neighbours, spread_fit), those that show once the cards found are
painted out (spread_peel); each card so far read again snapped onto its edges (spread_fit);
then the cards fanned under them, read by their index corner. The
reading of each outline is the Recogniser's; what this module decides is where to look and
which readings stand. The thresholds a sweep sets are one `SpreadConfig`
(tools/eval_spreads.py measures them).
"""
from __future__ import annotations

import collections
from dataclasses import dataclass, replace
from typing import Callable

import cv2
import numpy as np

from .cardface import ASPECT
from .classify_symbol import CANON_H, CANON_W, rank_key
from .colour_cast import without_cast
from .find_card import CardQuad, enclosing_rect, expand_field, find_cards, order_quad, overlap_share, quad_iou, warp_card
from .outline_shape import card_shaped, nudged_views
from .recognise import CROP_SCORE, SURE, CardReading, Recogniser, Recognition
from .spread_fit import cards_at, edge_fit, frame, snap, spread_size
from .spread_neighbours import edge_image, fanned, mirrored_in, neighbours
from .spread_peel import cover_mask, painted_out
from .spread_plane import FEWEST, square_on, through
from .spread_scan import ScanConfig, card_size, lie, paper, scan, unexplained

# a photo of several cards is searched at a finer scale, with more outlines
WORK_SIDE = 800
MAX_CARDS = 40
MAX_SCORED = 80


@dataclass(frozen=True)
class SpreadConfig:
    """Which of a spread's readings stand, and how far the search goes."""
    # a card of a spread is reported only this sure: on seed 11's varied spreads
    # (tools/eval_spreads.py) every right report was at least 0.72 sure, and 2 of the 4 wrong ones were less
    min_confidence: float = 0.7
    # a card found only once those read are painted out (_uncovered) is placed by a guess round
    # whatever of it the finder outlined, often turned wrong: on seeds 23 and 37's photo-faced
    # spreads the 4 such readings that were wrong were all below 0.91, and 21 of the 29 right ones above
    uncovered_confidence: float = 0.95
    # a reading the learned reader gives less than this stands only from doubt_sure on
    # (seed 11's photo-faced spreads: 3 wrong reports at 0.71-0.81 went, 1 right wild at 0.75 with them)
    doubt_learned: float = 0.02
    doubt_sure: float = 0.85
    beside_rounds: int = 4  # rounds of reading the cards beside those found (see _beside)
    # ... which may overlap a card found by this much (a spread's rows lie loosely: a 30% overlap
    # is often 40% at one end), their part under it mirrored in from the rest
    beside_overlap: float = 0.45
    fan_rounds: int = 12  # rounds of reading the cards fanned under those found (a fan holds up to a hand)
    fan_shows: float = 0.25  # a card proposed under those found shows at least this share of itself ...
    # ... and the corner readers read it at least this sure, in fan_views views (one view from
    # 0.95: on photo-faced fans of seeds 71-101, 250 of 358 read with 7 wrong, 218 with 10).
    # 0.8 since the pair reads fans: photo-faced fans at phone size of seeds 251 and 257 read
    # 75 -> 80 of 107 at 0.9 -> 0.8 (81 at 0.75, 81 and 1 wrong at 0.7); fresh seeds 431-443
    # 151 -> 161 of 196 (164 at 0.75, a wrong report more), the same 2 wrong, read at 0.95-0.98
    fan_sure: float = 0.8
    # a proposal read below fan_sure but at least this sure of some code: a card, fanned from
    # but not reported; and a round of proposals with one such is also read snapped onto edges
    fan_unread: float = 0.3
    fan_views: int = 7  # views of each proposal the corner reader combines (Recogniser.corner_readings)
    # two cards grown round outlines (guesses) with at least this IoU are one card (one_code_per_place; >1: never)
    same_card: float = 0.5
    fine_short: float = 90.0  # px of the photo: cards with a shorter short side are searched again at full size ...
    few: int = 3  # ... and so is a photo where fewer cards than this were found (small cards go unoutlined)
    # a spread's cards are one size: long sides within this of the median (0.78: on photo-faced
    # spreads of seeds 61, 23, 71, 83, 97 and 101 every right report's was at least 0.81 of it,
    # and 5 wrong ones, outlines of a card's print or visible part, 0.73-0.77)
    size_spread: tuple[float, float] = (0.78, 1.4)
    # a card is a rectangle, and a photo from above shows it nearly so: a report whose outline
    # has a corner further than this off square (degrees) outlines part of its card (what shows
    # beside a card over it), and is given as that outline's smallest enclosing rectangle. On
    # photo-faced spreads of seeds 251, 257, 431 and 433 (every layout) right reports' worst
    # corners were at most 15 degrees off but two (37, 39); 3 wrong reports were of the right
    # code on such outlines (31-43 degrees; IoU 0.47-0.49 with their card, 0.60 enclosed)
    square_skew: float = 20.0
    # each card found is read again snapped onto its edges, and dropped where that reads another
    # code more surely (_snap_checked). Photo-faced spreads at phone size, seeds 251, 257 and 467
    # (every layout), 461 and 463 (apart, touching, scattered): two reports read another code
    # snapped, a wrong one (surer: dropped) and a right one (less sure: kept)
    snap_check: bool = True
    # a card proposed beside those found that hides too much under them to mirror in is read
    # with each alone taken as over it (_mirrored_under_one): photo-faced 30% rows and
    # scattered 30% at phone size, seeds 481-486, read 580 -> 591 of 627 cards, the same 4 wrong;
    # fresh seeds 491, 493 and 497 (every layout) read alike either way
    mirror_under_one: bool = True
    # a card proposed beside those found is declined where the corner reader surely (fan_sure)
    # reads another rank in what shows of it (_index_shown)
    index_shown: bool = True
    # proposals of one place (and their snapped outlines) that read different codes surely: the
    # code most read stands, none on a tie (one_sure_code_per_place)
    one_code_proposed: bool = True
    overlap: float = 0.35  # outlines sharing more than this share of the smaller one are one card
    scan: ScanConfig | None = ScanConfig()  # windows read over a cluster no outline parts (spread_scan; None: none)
    # a photo with a longer side is read shrunk to it: phone-sized (4032 px) spreads took 12.7 s
    # each at full size, 3.6 s shrunk, and read alike (205 and 204 of 220: eval_spreads --seed 71
    # --spreads 3 --scale 3.15 --photos); the edge image, painting out and the full-resolution
    # search all cost by the pixel
    most_side: int = 1920
    # a camera at a slant shows far cards smaller and every card squatter, and cards proposed
    # at the others' size and a card's proportions lie off their cards: where the cards found
    # fit a plane (spread_plane) whose correction shrinks a card by more than this share across
    # the photo's longer side, the spread is read again seen square-on (inf: never). Photo-faced
    # spreads (eval_spreads --photos): unslanted (seed 661), the finder's outlines fitted at most
    # 0.19 where the fit explained them; at a 30 degree slant (--camera tilt, seed 683) mostly
    # 0.35-0.69, the truth 0.53-0.68
    slant: float = 0.2
    # a card the first read found, as photographed, where the read square-on found none
    # (nothing overlapping it by `overlap`) is reported too (keep_unseen; false: the square-on read alone)
    keep_unseen: bool = True
    # the full-resolution search (fine_short) keeps only cards of the size of those the first
    # search found, where it found enough to tell (alike): an index or a numeral outlined
    # with a little of the table round it read as a card, and displaced the card it lies on
    fine_alike: bool = True


def read_spread(recogniser: Recogniser, image_bgr: np.ndarray,
                config: SpreadConfig = SpreadConfig()) -> list[Recognition]:
    """Every card in the image (a hand spread out for scoring), best first (see SpreadReader)."""
    return SpreadReader(recogniser, config).read(image_bgr)


class SpreadReader:
    def __init__(self, recogniser: Recogniser, config: SpreadConfig = SpreadConfig()) -> None:
        self.rec = recogniser
        self.config = config

    def read(self, image_bgr: np.ndarray) -> list[Recognition]:
        """Every card in the image, best first: each outline the finder gives that reads as a
        card, once. An outline that overlaps one already taken, or lies inside it (its oval, a
        panel of its print), is the same card; an outline around two touching cards reads as
        neither surely, or has no card's shape. Then, for an outline that is no whole card
        (the finder often outlines only a card's oval or field among many cards) and lies
        clear of the cards found, a card of the size the others have is tried around it.
        Small cards (or few found) are searched again at the photo's full resolution, where
        their borders part. Then the cards of a cluster that no outline parts (see _scanned).
        Then the cards beside those found, which no outline parts from
        them (see _beside), and those that show once the cards found are painted out; each
        card so far is read again snapped onto its edges, and dropped where that reads another
        code more surely (_snap_checked). Last, the cards fanned under them. Where the cards
        found show a camera at a slant, all that again on the spread seen square-on
        (_square_on)."""
        h, w = image_bgr.shape[:2]
        shrink = self.config.most_side / max(h, w)
        if shrink >= 1:
            return self._square_on(image_bgr)
        small = cv2.resize(image_bgr, (round(w * shrink), round(h * shrink)), interpolation=cv2.INTER_AREA)
        return moved(self._square_on(small), np.diag([1 / shrink, 1 / shrink, 1.0]))

    def _square_on(self, image_bgr: np.ndarray) -> list[Recognition]:
        """`_read`, and where the cards it finds show a camera at a slant (`slant`), `_read`
        again on the spread seen square-on, its outlines taken back to the photo. The slant is
        fitted to the finder's own outlines of cards read surely: they follow a card's edges
        however it lies, where a card placed by a guess, or snapped, is a card's shape square-on.
        Where the two name different cards on one place, the square-on read stands, however
        sure the first (at a slant it was right 11 times in 16 such places); a card only the
        first found is kept too (keep_unseen)."""
        found, outlined = self._read(image_bgr)
        quads = _sure_whole(outlined)
        if len(quads) < FEWEST:  # rows overlapping: few outlined; the cards placed show less of it, but some
            quads = _sure_whole(found)
        size = image_bgr.shape[1], image_bgr.shape[0]
        plane = square_on(quads, size, self.config.slant)
        if plane is None:
            return found
        hom, shown = plane
        seen = cv2.warpPerspective(image_bgr, hom, shown, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        again = moved(self._read(seen)[0], np.linalg.inv(hom))
        return again + unseen_again(found, again, self.config.overlap) if self.config.keep_unseen else again

    def _read(self, image_bgr: np.ndarray) -> tuple[list[Recognition], list[Recognition]]:
        """`read` on an image no bigger than most_side, and those of its cards read on the
        finder's own outlines (before any is grown, snapped or proposed)."""
        cfg = self.config
        image_bgr = without_cast(image_bgr)  # the readers too see the cards as in plain light
        grads = edge_image(image_bgr)  # for snapping cards onto their edges, and finding those beside
        outlines = spread_outlines(image_bgr, WORK_SIDE)
        kept, outlined = self._read_at(image_bgr, outlines, grads)
        h, w = image_bgr.shape[:2]
        if max(h, w) > WORK_SIDE * 1.25:
            shorts = [_rect_sides(k.quad)[0] for k in kept if k.quad is not None]
            if len(shorts) < cfg.few or float(np.median(shorts)) < cfg.fine_short:
                # both searches' cards, the full resolution's first (its outlines are exacter)
                fine_outlines = spread_outlines(image_bgr, max(h, w))
                fine, fine_outlined = self._read_at(image_bgr, fine_outlines, grads)
                if cfg.fine_alike:
                    fine = alike(fine, cfg, like=kept)
                kept = fine + [k for k in kept if k.quad is not None
                               and all(_apart(k.quad, f.quad, cfg.overlap) for f in fine if f.quad is not None)]
                outlined = fine_outlined + [k for k in outlined if k.quad is not None and all(
                    _apart(k.quad, f.quad, cfg.overlap) for f in fine_outlined if f.quad is not None)]
                outlines += fine_outlines
        kept = self._scanned(image_bgr, alike(kept, cfg), [c.quad for c in outlines], grads)
        kept = self._uncovered(image_bgr, self._beside(image_bgr, alike(kept, cfg), grads), grads)
        kept = self._snap_checked(image_bgr, kept, grads)
        return squared(alike(self._fanned(image_bgr, kept, grads), self.config), self.config), outlined

    def _snap_checked(self, image_bgr: np.ndarray, kept: list[Recognition],
                      grads: tuple[np.ndarray, np.ndarray]) -> list[Recognition]:
        """`kept`, less each card that reads another code, and more surely, once snapped onto
        its own edges at the spread's card size: an outline a little off a card, along a
        neighbour's edge or its print, can read as another card (a green 6 as an 8 at 0.82,
        snapped 6 at 0.997). A snapped outline that reads no card says nothing (a neighbour's
        edges often pull it off a card read right), nor does a less sure one: a yellow 9 read
        at 0.98 snapped to an 8 at 0.63. (A card placed by a guess is held to more: `agreeing`.)"""
        placed = [k for k in kept if k.quad is not None]
        size = spread_size([k.quad for k in placed]) if self.config.snap_check else None
        if size is None:
            return kept
        again = self._lazy(image_bgr, [snap(grads, k.quad, size) for k in placed])
        reads = [again(i) for i in range(len(placed))]
        gone = {id(k) for k, r in zip(placed, reads) if r.card not in (None, k.card) and r.confidence > k.confidence}
        return [k for k in kept if id(k) not in gone]

    def _lazy(self, image_bgr: np.ndarray, quads: list[np.ndarray]) -> Callable[[int], CardReading]:
        return self.rec.lazy_reader(image_bgr, quads, lambda r, learned: doubted(r, learned, self.config))

    def _corner_reads(self, image_bgr: np.ndarray, quads: list[np.ndarray], cover: np.ndarray) -> list[CardReading]:
        """Recogniser.corner_readings, a reading less than fan_sure sure declined. Each
        proposal is read as proposed first, and those that read as some card at least
        fan_unread sure are read in the other fan_views - 1 views too (most proposals are no
        card: reading them all so cost half as much again)."""
        cfg, rec = self.config, self.rec
        if rec.corner_reader is None or not quads:
            return rec.corner_readings(image_bgr, quads, cover)
        first = rec.corner_probabilities(image_bgr, quads, cover)
        reads = [rec.corner_reading(p[None]) for p in first]
        again = [i for i, r in enumerate(reads) if r.card is not None and r.confidence >= cfg.fan_unread]
        if cfg.fan_views > 1 and again:
            others = [nudged_views(quads[i], cfg.fan_views)[1:] for i in again]
            more = rec.corner_probabilities(image_bgr, [v for vs in others for v in vs], cover)
            more = more.reshape(len(again), len(others[0]), -1)
            for i, m in zip(again, more):
                reads[i] = rec.corner_reading(np.concatenate([first[i][None], m]))
        return [r if r.confidence >= cfg.fan_sure else CardReading(None, r.confidence, r.likely) for r in reads]

    def _fanned(self, image_bgr: np.ndarray, kept: list[Recognition],
                grads: tuple[np.ndarray, np.ndarray]) -> list[Recognition]:
        """`kept` plus the cards fanned under them (spread_neighbours.fanned), round after
        round from the cards the last round added. A fanned card shows only a wedge of
        itself, so each proposal is read by the corner reader with the cards found
        painted out (HIDDEN_FILL, as it was trained), and stands only where it shows enough
        of itself beside those found and those added before it, surest first. A card it
        leans to some code for but is unsure of is not reported, but the fan goes on under it
        (fan_unread): one unsure card no longer ends its fan."""
        cfg = self.config
        new = [k.quad for k in kept if k.quad is not None]
        unreported: list[np.ndarray] = []  # cards the corner reader is unsure of: not reported, but fanned from
        for round_ in range(cfg.fan_rounds if self.rec.corner_reader is not None else 0):
            quads = [k.quad for k in kept if k.quad is not None]
            cover = cover_mask(image_bgr.shape, quads + unreported)
            # the finder often outlines a card's print inside its white border: turned about
            # that outline's corners, not the card's, no side meets the edge of the card
            # under it, so the cards it found are also fanned from as the card round a print
            # (the cards proposed later lie on the edges they were found by)
            pivots = new + [expand_field(q) for q in new] if round_ == 0 else new

            def showing(cards: list[np.ndarray]) -> list[np.ndarray]:
                return [p for p in cards if _shows(p, cover) >= cfg.fan_shows]
            # those that show too little beside the cards found are dropped before they are
            # snapped (the costly part: a row's cards offer many straight edges)
            proposed = showing([p for q in pivots for p in fanned(grads, q)])
            if not proposed:
                break
            readings = self._corner_reads(image_bgr, proposed, cover)
            size = spread_size(quads)
            if size is not None and any(r.confidence >= cfg.fan_unread for r in readings):
                # each also snapped onto its edges (a card found a little off turns its fan so),
                # but only in a round where some proposal reads as a card as it is: a row's or a
                # scattered hand's straight edges offer hundreds of proposals, none of them a card,
                # and snapping them took a quarter to a third of the time of reading such a spread
                snapped = showing([snap(grads, p, size) for p in proposed])
                readings += self._corner_reads(image_bgr, snapped, cover)
                proposed = proposed + snapped
            reads = sorted(zip(readings, proposed), key=lambda t: -t[0].confidence)
            added: list[Recognition] = []
            unread: list[np.ndarray] = []
            taken = cover.copy()  # ... and those this round takes, surest first
            took: list[Taken] = []
            for r, p in reads:
                if r.card is None and r.confidence < cfg.fan_unread:
                    break
                touched = [t for t in took if _touch(p, t.quad)]
                if _shows(p, taken) >= cfg.fan_shows:  # under the cards it touches
                    took.append(Taken(p, r.card, [t.quad for t in touched]))
                elif _lies_over(p, r.card, took, cover, cfg.fan_shows):
                    for t in touched:
                        t.above.append(p)
                    took.append(Taken(p, r.card, []))
                else:
                    continue
                taken |= cover_mask(taken.shape, [p])
                if r.card is not None:
                    added.append(Recognition(r.card, r.confidence, p, r.likely))
                else:
                    unread.append(p)
            if not added and not unread:
                break
            kept, new = kept + added, [a.quad for a in added] + unread
            unreported += unread
        return kept

    def _beside(self, image_bgr: np.ndarray, kept: list[Recognition], grads: tuple[np.ndarray, np.ndarray],
                new: list[Recognition] | None = None) -> list[Recognition]:
        """`kept` plus the cards read beside them in their rows (spread_neighbours: a card
        partly under its neighbour, which no outline found), round after round from the cards
        the last round added (the first round: from `new`, default all of `kept`). `grads`:
        the photo's edge_image."""
        new = kept if new is None else new
        for _ in range(self.config.beside_rounds):
            proposed = [n for k in new if k.quad is not None for n in neighbours(grads, k.quad)]
            before = len(kept)
            kept = self._read_proposed(image_bgr, proposed, kept, grads)
            new = kept[before:]
            if not new:
                break
        return kept

    def _scanned(self, image_bgr: np.ndarray, kept: list[Recognition], outlines: list[np.ndarray],
                 grads: tuple[np.ndarray, np.ndarray]) -> list[Recognition]:
        """`kept` plus the cards of a cluster no outline parts (spread_scan): card-sized windows
        laid over the finder's outlines clear of the cards found, at those cards' size (or,
        none found, the size at which most windows read surely), each window's peak read
        again as a card placed by a guess, at least uncovered_confidence sure."""
        cfg = self.config.scan
        if cfg is None or self.rec.reader is None or not outlines:
            return kept
        quads = [k.quad for k in kept if k.quad is not None]
        size = spread_size(quads)
        least = max(cfg.least_short * max(image_bgr.shape[:2]), cfg.least_px)
        grow = least / 2 if size is None else size[0] / 2
        stock = paper(image_bgr, least * least * ASPECT / 2 if size is None else size[0] * size[1] / 2)
        region = unexplained(stock, outlines, quads, grow)
        if size is not None and cv2.countNonZero(region) < size[0] * size[1] / 2:
            return kept  # no room for a card beside those found

        def read(windows: np.ndarray) -> tuple[np.ndarray, list[str | None]]:
            return self.rec.window_sureness(image_bgr, windows)

        def glance(windows: np.ndarray) -> tuple[np.ndarray, list[str | None]]:  # enough to count peaks by
            return self.rec.window_sureness(image_bgr, windows, both_ends=False)
        angle = lie(grads, region)
        short = size[0] if size is not None else card_size(glance, region, angle, cfg)
        if short is None:
            return kept
        found = scan(read, region, short, angle, cfg)
        # a window straddling two cards can read surely as either, or as neither of them: a
        # card stands only where the window and the card placed there read the same code
        return self._read_proposed(image_bgr, [q for q, _, _ in found], kept, grads, self.config.uncovered_confidence,
                                   size or (short, short * ASPECT), [c for _, c, _ in found])

    def _uncovered(self, image_bgr: np.ndarray, kept: list[Recognition],
                   grads: tuple[np.ndarray, np.ndarray]) -> list[Recognition]:
        """`kept` plus the cards the finder outlines once those of `kept` are painted out
        (spread_peel: a card dropped over part of another, or beside one of its colour, joins
        them in one shape that no outline fits), then the cards beside those."""
        quads = [k.quad for k in kept if k.quad is not None]
        painted = painted_out(image_bgr, quads) if len(quads) >= 2 else None
        if painted is None:
            return kept
        found = [c.quad for c in spread_outlines(painted, max(image_bgr.shape[:2]))]
        # what shows of a card under others is seldom a card's shape, and often only its
        # print is outlined: also a card of the spread's size round each outline (snapped
        # onto its edges in _read_proposed)
        grown, _ = _cards_round_clear(found, quads, grads)
        proposed = [q for q in found if card_shaped(q) and _clear_of(q, quads)] + grown
        before = len(kept)
        kept = self._read_proposed(image_bgr, proposed, kept, grads, self.config.uncovered_confidence)
        return self._beside(image_bgr, kept, grads, kept[before:]) if len(kept) > before else kept

    def _read_proposed(self, image_bgr: np.ndarray, proposed: list[np.ndarray], kept: list[Recognition],
                       grads: tuple[np.ndarray, np.ndarray], least: float | None = None,
                       size: tuple[float, float] | None = None,
                       expected: list[str] | None = None) -> list[Recognition]:
        """`kept` plus those of the `proposed` cards (placed by a guess, partly under cards
        found) that read as a card, at least `least` sure (default min_confidence), apart
        from them, each also snapped onto the edges nearby at the spread's card size (or
        `size`, where none is found). `expected`: the code each proposal was proposed as (a
        window's reading, spread_scan); one that reads another code does not stand."""
        most = self.config.beside_overlap
        least = self.config.min_confidence if least is None else least
        codes = expected if expected is not None else [None] * len(proposed)
        pairs = [(p, c) for p, c in zip(proposed, codes) if all(_apart(p, k.quad, most) for k in kept if k.quad is not None)]
        if not pairs:
            return kept
        proposed, codes = [p for p, _ in pairs], [c for _, c in pairs]
        found = [k.quad for k in kept if k.quad is not None]
        read = self._read_beside(image_bgr, proposed, found)
        size = spread_size(found) or size
        if size is not None:
            # each proposal also snapped onto the edges nearby at the spread's card size and
            # read again: a card proposed beside an outline of the print alone, or of a card's
            # visible part, is as far off; and a card read a little off can read wrong (a 1
            # whose corner a neighbour's edge crosses as a 7), so where the two read different
            # codes neither stands
            snapped = [snap(grads, p, size) for p in proposed]
            read, again = agreeing(read, self._read_beside(image_bgr, snapped, found))
            read += again
            proposed += snapped
            codes += codes
        read = [r if c is None or r.card in (None, c) else CardReading(None, 0.0, r.likely) for r, c in zip(read, codes)]
        if self.config.one_code_proposed:
            read = one_sure_code_per_place(read, proposed, least, self.config.same_card)
        return self._read_apart(image_bgr, proposed, [CROP_SCORE] * len(proposed), kept, most,
                                read.__getitem__, least)

    def _read_beside(self, image_bgr: np.ndarray, quads: list[np.ndarray], found: list[np.ndarray]) -> list[CardReading]:
        """How each of `quads` reads, a card proposed beside the cards `found` (their
        outlines): an unsure one also with the part under them mirrored in from the rest of it
        (a card reads the same upside down; their print is not its), the surest reading
        standing (a card lying over them is its own print either way). Where that hides too
        much to mirror in, each found card that overlaps it is tried alone as the one over it
        (_mirrored_under_one): a card in the middle of a row lies over the card before it and
        under the one after (a green 4 read as no card, and at 0.996 with only the card after
        it taken as over it)."""
        cover = cover_mask(image_bgr.shape, found)
        plain = self._lazy(image_bgr, quads)
        out = []
        for i, quad in enumerate(quads):
            first = plain(i)
            if first.card is not None and first.confidence >= SURE:
                out.append(first)
                continue
            second = self._read_mirrored(image_bgr, quad, cover)
            readings = [first] + ([second] if second is not None else self._mirrored_under_one(image_bgr, quad, found))
            out.append(max(readings, key=lambda r: (r.card is not None, r.confidence)))
        return self._index_shown(image_bgr, quads, out, cover)

    def _index_shown(self, image_bgr: np.ndarray, quads: list[np.ndarray], reads: list[CardReading],
                     cover: np.ndarray) -> list[CardReading]:
        """`reads`, each declined where the corner reader, on what shows of its card beside the
        cards `cover` hides, surely (fan_sure) reads another rank: the recogniser's own index
        check wants both ends, and under a neighbour one end is hidden, while the whole-card
        readers read the rest as a card that shares its look (a 3 half under a card as an 8 at
        1.00, its index a plain 3)."""
        if not self.config.index_shown:
            return reads
        read = [i for i, r in enumerate(reads) if r.card is not None]
        corner = self._corner_reads(image_bgr, [quads[i] for i in read], cover)
        out = list(reads)
        for i, c in zip(read, corner):
            r = reads[i]
            if c.card is not None and rank_key(c.card) != rank_key(r.card):
                out[i] = CardReading(None, r.confidence, ((r.card, round(r.confidence, 3)), (c.card, round(c.confidence, 3))))
        return out

    def _read_mirrored(self, image_bgr: np.ndarray, quad: np.ndarray, cover: np.ndarray) -> CardReading | None:
        """The card `quad` read with the part `cover` hides mirrored in (None: nothing hidden,
        or too much)."""
        mirrored = mirrored_in(image_bgr, quad, cover)
        return None if mirrored is None else self.rec.agreed(warp_card(mirrored, quad, (CANON_W, CANON_H)))

    def _mirrored_under_one(self, image_bgr: np.ndarray, quad: np.ndarray, found: list[np.ndarray]) -> list[CardReading]:
        """The card `quad` read with each one of the `found` cards that overlap it (two or
        more) taken alone as the one over it, its hidden part mirrored in. One card alone is
        one guess more, and mirroring makes chimeras (a 3 whose half turned in reads as an 8):
        a reading stands only sure, and where the corner reader reads the same code in what
        shows of the card."""
        if not self.config.mirror_under_one:
            return []
        touching = [q for q in found if overlap_share(q, quad) > 0]
        if len(touching) < 2:
            return []
        out = []
        for q in touching:
            cover = cover_mask(image_bgr.shape, [q])
            r = self._read_mirrored(image_bgr, quad, cover)
            if r is not None and r.card is not None and r.confidence >= SURE and \
                    self._corner_reads(image_bgr, [quad], cover)[0].card == r.card:
                out.append(r)
        return out

    def _read_at(self, image_bgr: np.ndarray, found: list[CardQuad],
                 grads: tuple[np.ndarray, np.ndarray]) -> tuple[list[Recognition], list[Recognition]]:
        """The cards of the finder's outlines `found` (spread_outlines), and a card of their
        size round each outline clear of them; and the first alone."""
        kept = outlined = self._read_apart(image_bgr, [c.quad for c in found if card_shaped(c.quad)],
                                           [c.score for c in found if card_shaped(c.quad)], [])
        if kept:
            quads = [k.quad for k in kept if k.quad is not None]
            grown, round_ = _cards_round_clear([c.quad for c in found], quads, grads)
            size = spread_size(quads)
            if grown and size is not None:
                placed, scores, reading = self._read_snapped(image_bgr, grown, size, grads, round_)
                kept = self._read_apart(image_bgr, placed, scores, kept, reading=reading)
            else:
                kept = self._read_apart(image_bgr, grown, [CROP_SCORE] * len(grown), kept)
        return kept, outlined

    def _read_snapped(self, image_bgr: np.ndarray, quads: list[np.ndarray], size: tuple[float, float],
                      grads: tuple[np.ndarray, np.ndarray], round_: list[int]
                      ) -> tuple[list[np.ndarray], list[float], Callable[[int], CardReading]]:
        """Each of `quads` (a card placed by a guess: around an outline of its oval) read as
        placed and snapped onto the edges nearby at the spread's card `size`: a card read a
        little off can read wrong (a 1 whose corner a neighbour's edge crosses reads as a 7),
        so where the two read different codes neither stands; else the surer reading, on its
        outline (`grads`: the photo's edge_image). `round_[i]`: the outline quads[i] was grown
        round; of the cards grown round one outline that read different codes only the one
        lying best on the edges stands (one_code_per_outline). The arguments for
        _read_apart: quads, scores, reading."""
        snapped = [snap(grads, q, size) for q in quads]
        both = self._lazy(image_bgr, list(quads) + snapped)
        plain, moved = agreeing([both(i) for i in range(len(quads))],
                                [both(len(quads) + i) for i in range(len(quads))])
        out_quads, out_reads = [], []
        for a, b, q, sq in zip(plain, moved, quads, snapped):
            best = max(((a, q), (b, sq)), key=lambda t: (t[0].card is not None, t[0].confidence))
            out_quads.append(best[1])
            out_reads.append(best[0])
        out_reads = one_code_per_outline(out_reads, round_, lambda i: edge_fit(grads, out_quads[i]))
        out_reads = one_code_per_place(out_reads, out_quads, self.config.same_card)
        return out_quads, [CROP_SCORE] * len(out_quads), out_reads.__getitem__

    def _read_apart(self, image_bgr: np.ndarray, quads: list[np.ndarray], scores: list[float],
                    kept: list[Recognition], most: float | None = None,
                    reading: Callable[[int], CardReading] | None = None,
                    least: float | None = None) -> list[Recognition]:
        """`kept` plus each of `quads` that reads as a card, at least `least` sure (default
        min_confidence), and lies apart from those taken (overlapping each by less than
        `most`, default overlap), surest first. `reading(i)`: how quads[i] reads (default: as
        the image shows it)."""
        most = self.config.overlap if most is None else most
        least = self.config.min_confidence if least is None else least
        lazy = reading or self._lazy(image_bgr, quads)
        read = []
        for i, (quad, score) in enumerate(zip(quads, scores)):
            r = lazy(i)
            if r.card is not None and r.confidence >= least:
                read.append((r.confidence * (0.5 + 0.5 * min(1.0, score / 0.6)),
                             Recognition(r.card, r.confidence, quad, r.likely)))
        kept = list(kept)
        for _, r in sorted(read, key=lambda t: -t[0]):
            assert r.quad is not None
            if all(_apart(r.quad, k.quad, most) for k in kept if k.quad is not None):
                kept.append(r)
        return kept


def _sure_whole(found: list[Recognition]) -> list[np.ndarray]:
    """The outlines of `found` read surely, of a whole card's shape."""
    return [r.quad for r in found if r.quad is not None and r.confidence >= SURE and card_shaped(r.quad)]


def moved(found: list[Recognition], hom: np.ndarray) -> list[Recognition]:
    """`found` with their outlines moved by the 3x3 homography `hom`."""
    return [Recognition(r.card, r.confidence, None if r.quad is None else through(hom, r.quad).astype(np.float32),
                        r.likely) for r in found]


def unseen_again(first: list[Recognition], again: list[Recognition], most: float) -> list[Recognition]:
    """The cards of `first` (a spread read as photographed) that the read `again` (square-on)
    did not find: no report of it overlaps theirs by `most` (_apart)."""
    quads = [r.quad for r in again if r.quad is not None]
    return [f for f in first
            if f.card is not None and f.quad is not None and all(_apart(f.quad, q, most) for q in quads)]


def alike(found: list[Recognition], config: SpreadConfig, like: list[Recognition] | None = None) -> list[Recognition]:
    """The cards of a spread of one size: a reading on an outline far smaller or bigger than
    the spread's cards (config.size_spread; the median of `like`'s, by default `found`'s) is
    of something else (a card's oval, a panel of its print, two cards). Fewer than 3 cards
    to measure tell no size."""
    like = found if like is None else like
    sizes = [_rect_sides(r.quad)[1] for r in like if r.quad is not None]
    if len(like) < 3 or not sizes:
        return found
    median = float(np.median(sizes))
    least, most = config.size_spread
    return [r for r in found if r.quad is None or least <= _rect_sides(r.quad)[1] / median <= most]


def squared(found: list[Recognition], config: SpreadConfig) -> list[Recognition]:
    """`found`, a report whose outline is too far off square (config.square_skew) given its
    smallest enclosing rectangle instead."""
    return [r if r.quad is None or skew(r.quad) <= config.square_skew else replace(r, quad=enclosing_rect(r.quad))
            for r in found]


def skew(quad: np.ndarray) -> float:
    """How far (degrees) an outline's worst corner is off a right angle."""
    q = order_quad(quad.astype(np.float32)).astype(np.float64)
    sides = np.roll(q, -1, axis=0) - q  # each corner's outgoing side; the one before comes in
    incoming = -np.roll(sides, 1, axis=0)
    cos = (sides * incoming).sum(axis=1) / np.maximum(
        np.linalg.norm(sides, axis=1) * np.linalg.norm(incoming, axis=1), 1e-9)
    return float(np.degrees(np.arcsin(np.clip(np.abs(cos), 0.0, 1.0))).max())


def doubted(reading: CardReading, learned: dict[str, float], config: SpreadConfig) -> CardReading:
    """A card of a spread is left out rather than guessed: a reading the learned reader all
    but rules out (`learned`: its probabilities) stands only where the classic reader is sure
    of it. (The single-card path asks the table instead; a spread's unread card is typed.)"""
    if reading.card is None or reading.confidence >= config.doubt_sure or \
            learned.get(reading.card, 0.0) >= config.doubt_learned:
        return reading
    return CardReading(None, reading.confidence, reading.likely)


def spread_outlines(image_bgr: np.ndarray, work_side: int = WORK_SIDE) -> list[CardQuad]:
    """The finder's outlines in a photo of several cards (searched at a finer scale, with
    more outlines), but the whole frame's; the photo's cast is out already (read_spread)."""
    return [c for c in find_cards(image_bgr, max_cards=MAX_CARDS, work_side=work_side,
                                  max_scored=MAX_SCORED, balanced=True) if not c.whole_frame]


def _shows(quad: np.ndarray, cover: np.ndarray) -> float:
    """The share of the card `quad` outside the mask `cover` (and inside the image)."""
    own = cover_mask(cover.shape, [quad])
    whole = cv2.contourArea(np.asarray(quad, np.float32))
    return cv2.countNonZero(cv2.bitwise_and(own, cv2.bitwise_not(cover))) / whole if whole > 0 else 0.0


# outlines a round proposes that overlap this much are one card, whatever they read
SAME_CARD = 0.6


@dataclass
class Taken:
    """A card a fan round took: its outline, its code (None: unsure, fanned from only), and
    the outlines of the cards the round took that lie over it."""
    quad: np.ndarray
    code: str | None
    above: list[np.ndarray]


def _touch(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex outlines overlap at all."""
    return quad_iou(a, b) > 0


def _lies_over(quad: np.ndarray, code: str | None, took: list[Taken], cover: np.ndarray, shows: float) -> bool:
    """Whether a proposal that shows too little beside the cards a round took (`took`) is a
    card lying over some of them: a round proposes cards at several depths of a fan, and the
    surest is not always the one on top. It is where it is no second outline of a card taken
    (SAME_CARD, or the same code), and each card taken that it overlaps still shows `shows`
    of itself beside the cards found (`cover`), it and the cards taken over that one. (Every
    card taken, each under all the others, once: a card taken in one fan then kept a card
    from lying over another in the next fan, and a card lying over one taken was counted
    under it: photo-faced fans of seeds 761 and 762 read 127 of 174 so, 138 now.)"""
    if not took or any(quad_iou(quad, t.quad) >= SAME_CARD
                       or (t.code is not None and t.code == code and _touch(quad, t.quad)) for t in took):
        return False
    return all(_shows(t.quad, cover | cover_mask(cover.shape, [quad] + t.above)) >= shows
               for t in took if _touch(quad, t.quad))


def _clear_of(outline: np.ndarray, quads: list[np.ndarray]) -> bool:
    """Whether the outline's centre lies outside every one of `quads`."""
    centre = tuple(map(float, outline.mean(axis=0)))
    return all(cv2.pointPolygonTest(q.astype(np.float32).reshape(-1, 1, 2), centre, False) < 0 for q in quads)


def _cards_round_clear(outlines: list[np.ndarray], quads: list[np.ndarray],
                       grads: tuple[np.ndarray, np.ndarray]) -> tuple[list[np.ndarray], list[int]]:
    """A card of the size of the cards found (`quads`) round each outline whose centre lies
    clear of them, along the outline and lying as its nearest card found does: an outline may
    be a diagonal oval, or what shows of a card, and the cards of a spread lie alike. A
    scattered card lies as neither its oval nor its neighbour: it is also tried lying as the
    edges round the outline run (`grads`: the photo's edge_image), either way round, where
    that is another lie. (Not in a spread whose cards found lie alike, a row: there the
    nearest card's lie is the better guess, and the edges round an outline are as much its
    neighbours'.) Also which of the clear outlines each card was grown round."""
    sides = np.median([_rect_sides(q) for q in quads], axis=0)
    clear = [o for o in outlines if _clear_of(o, quads)]
    guessed = [(_card_around(q, sides), _card_around(q, sides, _nearest(q, quads))) for q in clear]
    along = [] if _lie_alike(quads) else \
        [(k, c) for k, (q, g) in enumerate(zip(clear, guessed)) for c in _cards_along_edges(q, sides, grads, g)]
    cards = [a for a, _ in guessed] + [b for _, b in guessed] + [c for _, c in along]
    return cards, list(range(len(clear))) * 2 + [k for k, _ in along]


# cards lie alike where the mean of exp(2i * long-axis angle) over them is at least this long
# (1: all alike; a row's cards turned 5 degrees at random about 0.99; scattered about 1/sqrt(n))
ALIKE = 0.9


def _lie_alike(quads: list[np.ndarray]) -> bool:
    """Whether at least two cards lie alike, as a row's do (ALIKE)."""
    turns = np.array([frame(q)[1] for q in quads])
    return len(quads) >= 2 and abs(np.mean(np.exp(2j * turns))) >= ALIKE


# where a card's own edges run round its centre, as shares of its long side (its oval and
# index lie inside, its neighbours' edges mostly outside): on seed 233's phone-sized scattered
# spread 8 the lie there was within 3 degrees of every card's
RING = (0.3, 0.6)
# a lie the other guesses miss by this much (degrees) is another card (snap turns 3 each way)
OTHER_LIE = 6.0


def _cards_along_edges(outline: np.ndarray, sides: np.ndarray, grads: tuple[np.ndarray, np.ndarray],
                       guessed: tuple[np.ndarray, ...]) -> list[np.ndarray]:
    """Cards of (short, long) `sides` centred on the outline, lying as the edges in a ring
    round its centre run (spread_scan.lie), its long side either way; those lying within
    OTHER_LIE of a card `guessed` already are left out."""
    centre = outline.mean(axis=0)
    gx, gy = grads
    h, w = gx.shape
    r0, r1 = (share * float(sides[1]) for share in RING)
    x0, y0 = (max(0, int(v - r1)) for v in centre)
    x1, y1 = min(w, int(centre[0] + r1) + 1), min(h, int(centre[1] + r1) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return []
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dist = np.hypot(xx - centre[0], yy - centre[1])
    ring = ((dist >= r0) & (dist <= r1)).astype(np.uint8)
    angle = lie((gx[y0:y1, x0:x1], gy[y0:y1, x0:x1]), ring)
    turns = np.array([angle, angle + np.pi / 2])
    cards = cards_at(np.repeat(centre[None], 2, axis=0), turns, np.full(2, float(sides[0])), np.full(2, float(sides[1])))
    return [order_quad(c) for c in cards if all(_lie_apart(c, g) >= OTHER_LIE for g in guessed)]


def _lie_apart(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees between two cards' long axes (either way along)."""
    d = abs(np.degrees(frame(a)[1] - frame(b)[1])) % 180.0
    return float(min(d, 180.0 - d))


def _rect_sides(quad: np.ndarray) -> tuple[float, float]:
    """(short, long) side of an outline's smallest enclosing rectangle (find_card.side_lengths
    averages opposite sides instead: the same for a card's rectangle, not for a skewed outline)."""
    (_, _), (w, h), _ = cv2.minAreaRect(quad.astype(np.float32).reshape(-1, 1, 2))
    return min(w, h), max(w, h)


def _card_around(quad: np.ndarray, sides: np.ndarray, like: np.ndarray | None = None) -> np.ndarray:
    """A card of (short, long) `sides` centred on an outline, its long side along the
    outline's (a card's field lies along the card), or along the card `like`'s."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(quad.astype(np.float32).reshape(-1, 1, 2))
    if like is not None:
        _, (w, h), angle = cv2.minAreaRect(like.astype(np.float32).reshape(-1, 1, 2))
    size = (float(sides[0]), float(sides[1])) if h >= w else (float(sides[1]), float(sides[0]))
    return order_quad(cv2.boxPoints(((cx, cy), size, angle)))


def _nearest(quad: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """The outline among `quads` whose centre is nearest `quad`'s."""
    centre = quad.mean(axis=0)
    return min(quads, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre)))


def _apart(a: np.ndarray, b: np.ndarray, most: float) -> bool:
    """Two outlines are two cards: little overlap (less than `most` of the smaller), and
    neither mostly inside the other."""
    return overlap_share(a, b) < most


def one_code_per_outline(reads: list[CardReading], round_: list[int],
                         fit: Callable[[int], float]) -> list[CardReading]:
    """Cards grown round one outline (`round_[i]`: which) at several lies are guesses at one
    card: where they read different codes, only the one whose sides lie best along the edges
    (`fit(i)`, spread_fit.edge_fit, asked only there) keeps its reading, the others declined (their likely codes
    kept). A card grown square to the photo round a tilted card's oval read a 7 as a 1 at
    1.00, as sure as the card grown along its edges read the 7."""
    out = list(reads)
    for k in set(round_):
        mine = [i for i, o in enumerate(round_) if o == k and reads[i].card is not None]
        if len({reads[i].card for i in mine}) > 1:
            best = max(mine, key=fit)
            for i in mine:
                if i != best:
                    out[i] = CardReading(None, 0.0, reads[i].likely)
    return out


def one_code_per_place(reads: list[CardReading], quads: list[np.ndarray], same: float) -> list[CardReading]:
    """Cards grown round two outlines of one card (their IoU at least `same`) are guesses
    at that card too: where they read different codes, neither stands (both declined, their
    likely codes kept). Round two outlines of a red 1 lying apart, one guess read a 7 at
    0.76 and the other a 1 at 0.64, and the surer was taken."""
    out = list(reads)
    for i in range(len(reads)):
        for j in range(i + 1, len(reads)):
            a, b = reads[i], reads[j]
            if a.card is not None and b.card is not None and a.card != b.card \
                    and quad_iou(quads[i], quads[j]) >= same:
                out[i], out[j] = CardReading(None, 0.0, a.likely), CardReading(None, 0.0, b.likely)
    return out


def one_sure_code_per_place(reads: list[CardReading], quads: list[np.ndarray], least: float,
                            same: float) -> list[CardReading]:
    """Proposals of one place beside the cards found (guesses at a card, and each snapped
    onto the edges; their IoU at least `same`) that read different codes, each at least
    `least` sure (sure enough to stand): the code most of them read stands, and none where
    two codes are read as often. A green 3 half under a card read 3 at 0.97-0.99 three ways
    and 8 at 1.00 the fourth, and the 8 was taken; seven proposals read a yellow 8 at 1.00 and
    one a skip at 0.97. A reading less sure than `least` does not count (it is declined)."""
    sure = [r if r.card is None or r.confidence >= least else CardReading(None, r.confidence, r.likely)
            for r in reads]
    out = list(sure)
    for i, r in enumerate(sure):
        if r.card is None:
            continue
        votes = collections.Counter(o.card for j, o in enumerate(sure) if o.card is not None
                                    and (j == i or quad_iou(quads[i], quads[j]) >= same))
        (top, most), *rest = votes.most_common(2)
        if top != r.card or (rest and rest[0][1] == most):
            out[i] = CardReading(None, 0.0, r.likely)
    return out


def agreeing(first: list[CardReading], second: list[CardReading]) -> tuple[list[CardReading], list[CardReading]]:
    """Two readings of each card (as placed, and snapped onto its edges): where both read a
    code and the codes differ, neither stands (each declined, the first's likely codes kept)."""
    a_out, b_out = list(first), list(second)
    for i, (a, b) in enumerate(zip(first, second)):
        if a.card is not None and b.card is not None and a.card != b.card:
            a_out[i] = b_out[i] = CardReading(None, 0.0, a.likely)
    return a_out, b_out
