"""What a settled change in the pile is: a landing, a take-back, an arm, or nothing.

The pile watcher's deciding stage (see watcher.py for the rules in full). Per frame it takes
the motion stage's report (pile_motion.py) and, when the region has kept still long enough
after a disturbance, compares the frame with the pile image (pile_change.py), asks the
reader for the card (the `read` it is handed: the watcher's one call into the recogniser),
judges its outline against the change (pile_outline.py) and tells the pile's record
(pile_book.py) what happened, which makes the event; a card clear of a hand still leaving
is leaving_hand.py's to find. It keeps what must outlive a frame: how long all has kept
still, a landing put off while a hand may still hold it, a card reported while the hand
was still leaving, a reading being looked at again.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .camera_shift import camera_move
from .cardface import ASPECT
from .leaving_hand import LeavingHand
from .look_again import Look, combine, is_sure
from .motion import View, clean
from .pile_book import Event, PileBook, landed
from .pile_change import (ChangeSizes, Roi, at_edge, edge_specks, exposure_step, inner_sides, off_the_change, origin,
                          own_change, pieces, raw_change, roi_of, without_halo)
from .pile_motion import Motion
from .pile_outline import FRAME_SIDES as SIDE_SLICES
from .pile_outline import at_size, beside_card, explains_cut, fill, same_place, short_long, small_quad, whole_card
from .pile_read import Read
from .pile_region import PileRegion
from .top_card import Reading
from .watch_config import WatcherConfig, lasted

log = logging.getLogger(__name__)

# Shares that describe how a card covers and uncovers the change, not trade-offs to sweep:
NEW_SHARE = 0.5  # a card read is new there if this share of it changed since (new_there)
STILL_SHOWS = 0.25  # ... and the put-off change still lies as it did if this share of it shows
STILL_MOVED = 0.3  # ... and at most this share of what shows has changed since (see _still_there)
SAME_EDGE = 0.6  # a change at the region's edge is the same piece as before if they overlap this much (IoU)
CUT_SPILL = 0.15  # a card cut by the frame's edge explains all but this share of the change (an arm does not)
CUT_SHAPE = 0.15  # ... its outline is a card's proportions within this share
# ... and the size of the cards read surely before within this share (a camera tilted 20 degrees
# shows a card at the frame's edge a quarter bigger than one in the middle)
CUT_SIZE = 0.3
CUT_WITHIN = 0.9  # ... and an outline the read looked at lies within the one reported by this share (cut_outlines)
UNREAD_STILL = 0.8  # a card the frame cut, read as no card, still lies there if this share of it still changed


@dataclass(frozen=True)
class Unread:
    """A change across the frame's own edge that read as no card: a card the frame cuts, if
    it still lies there when the next card lands on it (see LandingJudge._over_unread)."""
    mask: np.ndarray  # bool, the whole working frame
    likely: tuple[tuple[str, float], ...]  # what it might have been (Reading.likely)
    frame: int  # when it was read, its hand gone
    since: float  # the stillness it was read in (its start): a card on it lands in a later one
    image: View  # the frame it was read on


def new_there(since: np.ndarray, card: np.ndarray) -> bool:
    """Whether the card filling the mask `card` is new there: NEW_SHARE of it is in `since`,
    what changed of itself since an earlier view (pile_change.own_change)."""
    return cv2.countNonZero(cv2.bitwise_and(since, card)) >= NEW_SHARE * cv2.countNonZero(card)


def unread_lies(unread: Unread, roi: Roi, edge: np.ndarray) -> bool:
    """Whether the change `unread` still lies where it did: most of it is in `edge`, what
    reaches the frame's edge now (pixels of `roi`)."""
    lain = unread.mask[roi]
    return np.count_nonzero(edge & lain) >= UNREAD_STILL * np.count_nonzero(lain)


@dataclass(frozen=True)
class PutOff:
    """A landing put off while a hand seemed to hold its card, or read unsurely while the
    hand left: the pile then, the change (pixels of `roi`) and what it read as."""
    image: View
    roi: Roi
    interior: np.ndarray
    reading: Reading


class LandingJudge:
    def __init__(self, config: WatcherConfig, book: PileBook, region: PileRegion, sizes: ChangeSizes,
                 scale: float) -> None:
        self.config = config
        self.book = book
        self.region = region  # shared with the watcher and the book
        self.sizes = sizes
        self.scale = scale  # working-size pixels per frame pixel
        self.disturbed = False  # something moved (or a waiting landing must be judged again) since the last judgement
        self.quiet_frames = 0
        self.t_motion = 0.0
        self.t_stir = 0.0  # the last motion that was more than faint
        self.t_grow = 0.0
        self.edge: tuple[np.ndarray, float] | None = None  # a change at the region's edge, since when
        # a landing put off while a hand may still be there: (first put off, last put off)
        self.deferred: tuple[float, float] | None = None
        self.put_off: PutOff | None = None  # ... and the card read then, if it was read
        self.report_now = False  # ... and nothing has moved since: report it at once
        # the card last reported so, and when: a hand may have held it still after all
        self.held: tuple[float, Reading] | None = None
        self.leaving = LeavingHand(config.motion, sizes.part_px)  # a card clear of a hand still leaving
        self.early: Reading | None = None  # ... reported while the hand was still leaving
        self.looking: Look | None = None  # a landing read unsurely, looked at again on the next frames
        # the stillness (its start) in which a change at the frame's edge was read, and how often
        self.cut_tried: tuple[float, int] = (-1.0, 0)
        self.move_tried = -1.0  # ... in which the settled change was fitted as the camera moving
        self.unmoved: tuple[float, bool] | None = None  # ... and a fit that found no move in it (thorough?)
        self.notice: str | None = None  # what the user should know now (see aim_notice), else None
        self.unread: Unread | None = None  # a change across the frame's own edge read as no card

    # -- per frame ------------------------------------------------------------------------
    def step(self, frame_index: int, t: float, n: View, roi: Roi, motion: Motion, read: Read) -> list[Event]:
        """The events of the frame `n`, the region being `roi` and `motion` what moved in it."""
        if motion.hand_left and self.deferred is not None:
            self.disturbed = True  # the hand was seen leaving: judge the waiting landing again
        if self.looking is not None:
            if motion.still:
                return self.look_again(frame_index, t, n, read)
            looked = [self.looked(t, frame_index)]  # something moves: report what was read
            return looked + self._moving(frame_index, t, n, roi, motion, read)
        if not motion.still:
            return self._moving(frame_index, t, n, roi, motion, read)
        self.quiet_frames += 1
        if self._defer_lapsed(t):
            # nothing moved since: no hand holds or hovers there after all (what lies beside
            # the card is a nudged card, or the hand went unseen)
            self.report_now = True
            self.disturbed = True
        if not self._due(t, self.disturbed, self.quiet_frames):
            return []
        return self._settled(frame_index, t, n, motion, read)

    def due_next(self, t: float) -> bool:
        """Whether a still frame at `t`, the next, will be judged as settled (see step): the
        watcher then makes that judgement's reads ahead, on this frame (PileWatcher.feed)."""
        return self.looking is None and self._due(t, self.disturbed or self._defer_lapsed(t), self.quiet_frames + 1)

    def judged_ahead(self, ahead: "LandingJudge") -> None:
        """`ahead`, a copy of this judge, has judged this frame as the next (see due_next).
        Where it fitted no camera move in this stillness, the same fit on the next frame,
        still too, would not either: it (5-35 ms) is not made again."""
        if ahead.unmoved is not None and ahead.unmoved[0] == self._stillness:
            self.unmoved = ahead.unmoved

    def _defer_lapsed(self, t: float) -> bool:
        return self.deferred is not None and not self.disturbed and lasted(self.deferred[1], t, self.config.defer_still_s)

    def _due(self, t: float, disturbed: bool, quiet_frames: int) -> bool:
        return (disturbed and quiet_frames >= self.config.min_settle_frames
                and lasted(self.t_motion, t, self.config.settle_s))

    def _moving(self, frame_index: int, t: float, n: View, roi: Roi, motion: Motion, read: Read) -> list[Event]:
        """A frame in which something moves in the region (or the exposure does)."""
        self.disturbed = True
        self.quiet_frames = 0
        self.t_motion = t
        if not motion.faint:
            self.t_stir = t
        return [] if motion.exposure_moving else self._clear_of_hand(frame_index, t, n, roi, motion, read)

    # -- an unsure reading, looked at again ---------------------------------------------------
    def look_again(self, frame_index: int, t: float, n: View, read: Read) -> list[Event]:
        """Read the unsurely read card again on this still frame; report it once the
        readings together are sure, or after `look_frames` reads or `look_s`. (The watcher
        also calls it on the settled frame itself when the first reading was made on the
        frame before: see PileWatcher.feed.)"""
        look = self.looking
        assert look is not None
        # the card has settled: its first reading's outlines are read again, not searched for
        look.readings.append(read(n, look.roi, look.interior, look.readings[0].outlines))
        cfg = self.config
        if look.enough(cfg.look_frames, cfg.look_s, t, cfg.look_sure, cfg.look_conflict):
            return [self.looked(t, frame_index)]
        return []

    def looked(self, t: float, frame_index: int) -> Event:
        """The landing looked at on several frames, reported as they read it together."""
        look, self.looking = self.looking, None
        assert look is not None
        return self._land(look.image, look.interior, look.origin, combine(look.readings, self.config.look_conflict),
                          t, frame_index)

    # -- a card clear of a hand still leaving -----------------------------------------------
    def _clear_of_hand(self, frame_index: int, t: float, n: View, roi: Roi, motion: Motion,
                       read: Read) -> list[Event]:
        """While a hand is still leaving, the card it left lying clear of it (leaving_hand.py),
        when the hand was last seen leaving and no landing is pending: report it at once if
        it reads surely. Anything else (a take-back, a card just like the one below, an
        unsure reading) waits for all to be still; an unsure reading of a card is kept, as a
        landing put off, for when the next card comes first."""
        if (not motion.left_by_edge or motion.came_in or self.deferred is not None or self.early is not None
                or self.leaving.tried is self.book.image
                or self.region.card_size == 0 and not self.region.is_whole_frame()):
            self.leaving.forget()
            return []
        found = self.leaving.card(n, roi, motion.seen, self.book.image, self._least(),
                                  lambda area, interior: self._as_before(n, roi, area, interior), read)
        if found is None:
            return []
        interior, reading = found
        if reading.confidence < self.config.early_confidence or self._beside_card(interior, reading, origin(roi)):
            if reading.card is not None:
                # judge it once all is still, unless the next card comes onto it first (a hand
                # leaving as the next one comes): see _still_there. The pile then is the last
                # one with this card in it; the hand still shows elsewhere.
                card = cv2.dilate(interior, np.ones((3, 3), np.uint8)) > 0
                self.put_off = PutOff(self.book.patched(n, roi, card), roi, interior, reading)
            return []
        # Report it now; the pile image takes it in once all is still (part of the card may
        # still lie near the hand, and the rest of the pile image is as old as the last state).
        self.early = reading
        return [landed(reading, t, frame_index)]

    # -- all still: judge the change ----------------------------------------------------------
    def _settled(self, frame_index: int, t: float, n: View, motion: Motion, read: Read) -> list[Event]:
        cfg = self.config
        box = self.region.box()
        x0, y0 = box[:2]
        roi = roi_of(box)
        ref = self.book.image
        raw = raw_change(n, ref, roi, cfg.motion)
        borne = self._borne(n, ref, roi)
        # still for a while: what touches only the frame's edge may be a card's halo there (a
        # faint motion does not count: a compressed video's blocks blinked every 7 frames on a
        # striped cloth, other_clips seed 951 --jpeg 40, and a card by the edge stayed "an arm")
        still_since = self._stillness
        halo_ok = lasted(max(self.t_stir, self.t_grow), t, cfg.halo_after_s)
        edge = self._at_edge(borne, n, ref, roi, halo_ok)
        # small specks are noise, and so are lines along the table's edges that the change
        # within reach does not bear out; what remains of the fine-scale change is the new pile state
        interior = pieces(clean(raw), self.sizes.part_px, borne)
        log.debug("frame %d settled: touching=%s changed=%d (min %d) region=%s", frame_index, edge.any(),
                  cv2.countNonZero(interior), self.sizes.change_px, box)
        if edge.any() and self._camera_moved(n, thorough=True):
            return self._settled(frame_index, t, n, motion, read)  # judged again against the moved pile image
        if self.unread is not None and not unread_lies(self.unread, roi, edge):
            # it has gone: a hand held still across the frame's edge, not a card (vision/synth
            # seed 2200, 1280x720: kept, it was "the card under" the next hand held where it had
            # been, 3 s and a landing later; that hand went into the pile image, and the rest
            # of the clip read as an arm at the edge)
            self.unread = None
        cut = edge.any() and halo_ok and self._cut_by_frame(frame_index, t, n, roi, interior, edge, read)
        if isinstance(cut, Event):
            # the unread card under the one read, reported first (_over_unread): what came
            # since is judged against the pile with it, the edge read again
            self.cut_tried = (-1.0, 0)
            return [cut] + self._settled(frame_index, t, n, motion, read)
        if cut:
            edge = np.zeros_like(edge)  # a card lying across the frame's edge, not an arm: a landing as any other
        if edge.any():
            wider = self.region.grown_box()
            wide = roi_of(wider)
            if wider != box and not self._at_edge(self._borne(n, ref, wide), n, ref, wide, halo_ok).any():
                # what reaches the edge ends within half a card beyond it: a card landed near
                # the pile's edge, not an arm, so widen the region now and look again
                self.region.grow()
                self.t_grow = t
                return self._settled(frame_index, t, n, motion, read)
            self._arm_at_edge(t, n, roi, edge, still_since)
            if lasted(still_since, t, cfg.aim_notice_s):
                self.notice = aim_notice(roi, edge, (self.region.width, self.region.height))
            return []
        self.edge = None
        self.notice = None
        area = cv2.countNonZero(interior)
        # After a big exposure step, clipped highlights bend the ratios a little along bright
        # edges; ask for more evidence then (a card landing changes far more than that).
        step = exposure_step(n.small[roi], ref.small[roi])
        if area < self._least(step):
            self.book.accept(n)  # a hand passed, light or shadows changed: same pile
            self.disturbed = False
            self._end_deferral()
            self.early = None
            return []
        if self._camera_moved(n):
            # the pile's edges moved with the camera: no card, or one found against the moved image
            return self._settled(frame_index, t, n, motion, read)
        if self._as_before(n, roi, area):
            self.disturbed = False
            image = self.book.merge(n)
            self._end_deferral()
            return [self.book.take_back(image, t, frame_index)]
        if self.early is not None:
            return self._seen_again(frame_index, t, n, roi, interior, read)
        first = t if self.deferred is None else self.deferred[0]
        waiting = not self.report_now and not lasted(first, t, cfg.defer_max_s)
        if waiting and not motion.left_by_edge and motion.came_in:
            # what moved last has not been seen leaving, and what came in is all still there:
            # a hand hovering over the pile or holding its card still, its arm unseen. Look
            # again once something has moved. (Where part of it has gone, the last motion
            # was the card coming to rest after its hand left: at 15 fps a hand can leave
            # the region between two frames, and the card slide on after it.)
            return self._defer(first, t)
        reading = read(n, roi, interior)
        if self._set_down(reading, t):
            # the card reported once nothing had moved for a while, its hand holding it still
            # after all, now set down a little off where it was held: the same card
            self.book.accept(n)
            self._end_deferral()
            return []
        put_off = self.put_off
        if put_off is not None and self._still_there(put_off, n, reading):
            # The card put off lay at rest after all (what lay beside it was no hand), and the
            # next card came onto it before anything showed that: report it as it lay then,
            # and look again at what has come since.
            event = self._land(self.book.merge(put_off.image), put_off.interior, origin(put_off.roi),
                               put_off.reading, t, frame_index)
            return [event] + self._settled(frame_index, t, n, motion, read)
        if waiting and ((reading.card is None and motion.came_in) or self._beside_card(interior, reading, (x0, y0))):
            # A hand holding the card still above the pile, its sleeve the table's colour (so
            # nothing reaches the edge); or no card at all, and the last motion took none of
            # the change away: an empty hand at rest whose arm hardly shows. Look again once
            # something has moved. (An unread card that a hand left is reported at once.)
            return self._defer(first, t, PutOff(n, roi, interior, reading))
        self.disturbed = False
        if not is_sure(reading, cfg.look_sure) and cfg.look_frames > 1:
            # unsure: look again on the next still frames before reporting (see look_again)
            self.looking = Look(self.book.merge(n), roi, interior, (x0, y0), [reading], t)
            return []
        return [self._land(self.book.merge(n), interior, (x0, y0), reading, t, frame_index)]

    def _camera_moved(self, n: View, thorough: bool = False) -> bool:
        """Whether the camera (or the table) moved as a whole since the pile image was taken
        (camera_shift.py): then the pile's images and place are moved along. Fitted once per
        stillness: an arm at the edge fits no move, and asking again would not change that.
        `thorough`: the change reaches the region's edge, and the watcher would wait on it as
        an arm (a card landed as the camera moved, its arm still there): the costlier fits
        too (before every landing is read, they would add about 20 ms to each)."""
        since = self._stillness
        if self.move_tried >= since:
            return False
        self.move_tried = since
        if self.unmoved == (since, thorough):
            return False  # so fitted on the still frame before, judged ahead (see judged_ahead)
        m = camera_move(self.book.image, n, self.config.motion, thorough)
        self.unmoved = (since, thorough) if m is None else None
        if m is None:
            return False
        log.info("the camera moved (%.1f, %.1f working px): following the pile", m[0, 2], m[1, 2])
        self.book.carry(m, n)
        self._end_deferral()  # a card put off is in the change against the moved image: judged anew
        # an image moved by a fraction of a pixel is a little blurred: against it, every sharp
        # edge of the pile shows specks of change. Where less than a card is left, the move
        # was all: the pile image is taken as the camera shows it now. Else a card came in
        # the same moment (or one reported while its hand left, not yet in the pile image):
        # what of the specks reaches the region's edge (long lines of a grained table) is
        # taken in, and so is everything in the frame but what is thick in the change
        # (pile_change.off_the_change), so that they are not waited on as an arm; an arm
        # still there (its colour changed), and the card it brought, are not
        whole = roi_of((0, 0, self.region.width, self.region.height))
        raw_all = raw_change(n, self.book.image, whole, self.config.motion)  # (pixel by pixel: sliced below)
        roi = roi_of(self.region.box())
        raw = raw_all[roi]
        if cv2.countNonZero(pieces(clean(raw), self.sizes.part_px)) < self._least():
            self.book.accept(n)
        else:
            taken = off_the_change(raw_all)
            taken[roi] |= edge_specks(raw, n, self.book.image, roi, self.sizes, self.config.motion)
            self.book.absorb(n, whole, taken)
        return True

    def _cut_by_frame(self, frame_index: int, t: float, n: View, roi: Roi, interior: np.ndarray, edge: np.ndarray,
                      read: Read) -> bool | Event:
        """Whether what reaches the edge is a card that the frame's edge cuts, not an arm: it
        reaches only sides of the region that are the frame's own edges, the change reads as
        a whole card (the reader fits its outline beyond the frame), and that card explains
        the change (pile_outline.explains_cut), or the pile looks as it did before the
        last landing (that card taken back). The reading need not be sure: an unsure one is
        looked at again and, still unsure, asked about, never lost. Read on the first
        `look_frames` still frames of a stillness, not on every one: reading is the slow part,
        and the first still frame may show the card not quite at rest (other_clips clip 913,
        15 fps: a red 9 read there was no card, and it waited 1.2 s for the region to grow).
        An Event: the unread card under the one read, landed first (_over_unread)."""
        since = self._stillness
        tried, tries = self.cut_tried
        if tried >= since and tries >= self.config.look_frames:
            return False
        self.cut_tried = (since, tries + 1 if tried >= since else 1)
        reached = frame_sides_reached(roi, edge, (self.region.width, self.region.height))
        if reached is None:
            return False
        if self._as_before(n, roi, cv2.countNonZero(interior)):
            return True  # the top card, cut by the edge, taken back: the pile as before it
        reading = read(n, roi, interior)
        if reading.card is None:
            self.unread = Unread(self._whole(roi, edge), reading.likely, frame_index, since, n)
        if reading.quad is None or reading.card is None:
            return False
        own = without_halo(n, self.book.image, roi, interior, self.config.motion)
        halo = 2 * self.config.motion.halo_px + 5
        quads = [small_quad(quad, self.scale, origin(roi)) for quad in cut_outlines(reading, self.book.card_side())]
        if any(explains_cut(quad, own, edge, reached, halo, CUT_SPILL) for quad in quads):
            return True
        return self._over_unread(frame_index, t, n, roi, own, edge, quads, halo) or False

    def _over_unread(self, frame_index: int, t: float, n: View, roi: Roi, own: np.ndarray, edge: np.ndarray,
                     quads: list[np.ndarray], halo: int) -> Event | None:
        """The landing of a card the frame cut and that read as no card, if it still lies as it
        did and the card just read explains the rest of the change: then that card landed on
        it, and the one under it is reported first, unread (the table is asked). Before, the unread card stayed
        "an arm" and every card after it spilled beside the next card's outline: other_clips
        seed 904 (photo faces) lost 9 of 12 cards after a red 7 cut by the frame's bottom edge.
        An arm does not lie still while another hand plays a card on the pile."""
        unread = self.unread
        if unread is None or unread.since >= self._stillness:
            return None  # (read again in the stillness it was read in: the same change, no card on it)
        if not unread_lies(unread, roi, edge):
            return None
        lain = unread.mask[roi]
        near = cv2.dilate(lain.astype(np.uint8), np.ones((halo, halo), np.uint8)) > 0
        rest, rest_edge = np.where(near, 0, own).astype(own.dtype), edge & ~near
        reached = frame_sides_reached(roi, rest_edge, (self.region.width, self.region.height))
        if reached is None:
            return None
        # a side met by a few pixels only is met by the halo of the card under (or its own)
        reached = tuple(r and np.count_nonzero(rest_edge[side]) >= self.sizes.part_px
                        for r, side in zip(reached, SIDE_SLICES))
        since = own_change(n, unread.image, roi, self.config.motion)
        for quad in quads:
            card = fill(quad, lain.shape)
            if not new_there(since, card):
                # the card was there already, held by what read as no card: its hand, held
                # still across the frame's edge and drifting (vision/synth seed 2206 at
                # 1280x720: the hand landed as a card, and its card 0.8 s early)
                continue
            if explains_cut(quad, rest, rest_edge, reached, halo, CUT_SPILL):
                under = lain & ~(card > 0)
                image = self.book.patched(n, roi, under)  # the pile with the unread card, not the new one
                event = self.book.land(image, under.astype(np.uint8) * 255, origin(roi),
                                       Reading(None, 0.0, None, unread.likely), t, frame_index)
                self.unread = None
                return replace(event, brought=unread.frame)  # its own hand, not the new card's
        return None

    def _whole(self, roi: Roi, mask: np.ndarray) -> np.ndarray:
        """`mask` (of `roi`) in a mask of the whole working frame."""
        out = np.zeros((self.region.height, self.region.width), bool)
        out[roi] = mask > 0
        return out

    def _arm_at_edge(self, t: float, n: View, roi: Roi, edge: np.ndarray, still_since: float) -> None:
        """An arm (or something new at the edge) lies across the region and keeps still."""
        cfg = self.config
        if lasted(still_since, t, cfg.regrow_after_s) and self.region.grow():
            self.t_grow = t
            return
        # Something left at the edge, or a stale part of the pile image: take just those
        # pieces into the pile image once nothing has moved for a while, or once the same
        # piece has stayed put for long while hands came and went (a lingering hand moves,
        # so it is not taken in).
        if self.edge is None or self.edge[0].shape != edge.shape or (
                np.count_nonzero(edge & self.edge[0]) < SAME_EDGE * np.count_nonzero(edge | self.edge[0])):
            self.edge = (edge, t)
        if lasted(self.t_motion, t, cfg.absorb_after_s) or lasted(self.edge[1], t, cfg.absorb_stale_s):
            self.book.absorb(n, roi, edge)
            self.edge = None

    def _seen_again(self, frame_index: int, t: float, n: View, roi: Roi, interior: np.ndarray,
                    read: Read) -> list[Event]:
        """All still after a card was reported while the hand was leaving: take it into the
        pile image, or report what lies on it now if that is surely another whole card (one
        came in quick succession; an unsure reading of the whole change, or one on an
        outline of part of a card, is the same card misread)."""
        early, self.early = self.early, None
        assert early is not None
        reading = read(n, roi, interior)
        self.disturbed = False
        # before the first card lands the pile has shown no card size: the early outline does
        side = short_long(small_quad(early.quad, self.scale))[0] if early.quad is not None else 0.0
        seen_again = (reading.card in (None, early.card) or reading.confidence < self.config.early_confidence
                      or reading.quad is None
                      or whole_card(small_quad(reading.quad, self.scale), self.region.card_size, side) is None
                      or same_place(reading.quad, early.quad))
        event = self._land(self.book.merge(n), interior, origin(roi), early if seen_again else reading, t, frame_index)
        return [] if seen_again else [event]

    # -- helpers --------------------------------------------------------------------------------
    @property
    def _stillness(self) -> float:
        """When the present stillness began: the last motion, or the region's last growth."""
        return max(self.t_motion, self.t_grow)

    def _land(self, image: View, interior: np.ndarray, at: tuple[int, int], reading: Reading,
              t: float, frame_index: int) -> Event:
        self.held = (t, reading) if self.report_now else None
        self._end_deferral()
        return self.book.land(image, interior, at, reading, t, frame_index)

    def _least(self, exposure_step: float = 0.0) -> float:
        """The fewest changed pixels that make a new pile state. Less than a share of a
        card's area is no new card either: fingertips left over the pile, a light's glint."""
        cfg = self.config
        return max(self.sizes.change_px * (1 + cfg.exposure_caution * exposure_step),
                   cfg.least_card_share * ASPECT * self.region.card_size ** 2)

    def _as_before(self, n: View, roi: Roi, area: int, within: np.ndarray | None = None) -> bool:
        return self.book.as_before(n, roi, area, self.sizes.change_px, self.config.removal_ratio, self.config.motion,
                                   within)

    def _borne(self, n: View, ref: View, roi: Roi) -> np.ndarray:
        """The raw change of `roi` within reach (MotionConfig.settled_reach)."""
        return raw_change(n, ref, roi, self.config.motion, self.config.motion.settled_reach)

    def _at_edge(self, borne: np.ndarray, n: View, ref: View, roi: Roi, halo_ok: bool) -> np.ndarray:
        """What of the change reaches the edge of `roi` (pile_change.at_edge). `borne`: the
        change within reach (_borne): compared plainly, along a checked cloth's lines a still
        video's jitter joined a new card to the frame's edge as if it were an arm
        (other_clips seed 926: 9 of its 14 cards lost)."""
        return at_edge(borne, n, ref, roi, (self.region.width, self.region.height), self.sizes, self.config.motion,
                       halo_ok)

    def _set_down(self, reading: Reading, t: float) -> bool:
        """Whether `reading` is the card last reported on a wait run out (report_now), read
        again in the same place (outlines mostly overlapping) within `defer_max_s`: a hand
        held it still for longer than `defer_still_s` and has now set it down (a second card
        of the same code dropped onto it so squarely is far rarer)."""
        held, self.held = self.held, None
        return (held is not None and not lasted(held[0], t, self.config.defer_max_s)
                and reading.card is not None and reading.card == held[1].card and same_place(reading.quad, held[1].quad))

    def _end_deferral(self) -> None:
        self.deferred, self.put_off, self.report_now = None, None, False

    def _defer(self, first: float, t: float, put_off: PutOff | None = None) -> list[Event]:
        """Put the landing off until something moves (see step for when it is forced)."""
        self.deferred = (first, t)
        if put_off is not None:
            self.put_off = put_off
        self.disturbed = False
        return []

    def _beside_card(self, interior: np.ndarray, reading: Reading, at: tuple[int, int]) -> bool:
        """Whether much of the change lies well away from the card that was read: the hand
        that still holds it (see pile_outline.beside_card)."""
        if reading.quad is None:
            return False
        return beside_card(interior, small_quad(reading.quad, self.scale, at), self.region.card_size,
                           self.config.beside_reach, self.config.beside_share)

    def _still_there(self, put_off: PutOff, n: View, reading: Reading) -> bool:
        """Whether a new card, read as `reading`, came onto a landing put off while it lay at
        rest: the card's outline changed since (the card is new there), and what had changed
        when the landing was put off still looks as it did where the new card leaves it
        uncovered. A hand that held its card and dropped it has moved it, and has gone; a
        card held where it then lies has not changed since, so it is the same card."""
        if reading.quad is None:
            return False
        h, w = n.ratio.shape[:2]
        whole = (slice(0, h), slice(0, w))
        since = own_change(n, put_off.image, whole, self.config.motion)  # of itself: no halo around the new card
        card = fill(small_quad(reading.quad, self.scale), (h, w))
        if not new_there(since, card):
            return False
        was = np.zeros((h, w), np.uint8)
        was[put_off.roi] = put_off.interior
        # (outlines fit to a pixel or two)
        shows = cv2.bitwise_and(was, cv2.bitwise_not(cv2.dilate(card, np.ones((5, 5), np.uint8))))
        seen = cv2.countNonZero(shows)
        if seen < STILL_SHOWS * cv2.countNonZero(was):
            return False
        return cv2.countNonZero(cv2.bitwise_and(since, shows)) <= STILL_MOVED * seen


FRAME_SIDES = ("left", "top", "right", "bottom")


def frame_sides_reached(roi: Roi, edge: np.ndarray, region_size: tuple[int, int]) -> tuple[bool, ...] | None:
    """Which of the left, top, right and bottom sides of `roi` the pieces `edge` reach, if
    they reach only sides that are the frame's own edges (else None: something reaches into
    the region from the table around it, an arm)."""
    inner = inner_sides(roi, region_size)
    reached = (bool(edge[:, 0].any()), bool(edge[0].any()), bool(edge[:, -1].any()), bool(edge[-1].any()))
    return None if any(r and i for r, i in zip(reached, inner)) else reached


def aim_notice(roi: Roi, edge: np.ndarray, region_size: tuple[int, int]) -> str | None:
    """What to tell the user about a change that has lain still across the frame's own edge:
    a card the frame cuts through its middle reads as no card and cannot be told from an arm
    resting there, so it may be lost; the cure is to aim the camera (None: not the frame's edge)."""
    reached = frame_sides_reached(roi, edge, region_size)
    if reached is None or not any(reached):
        return None
    names = [name for name, r in zip(FRAME_SIDES, reached) if r]
    sides = " and ".join(names) + (" edges" if len(names) > 1 else " edge")
    return (f"something lies still across the camera's {sides}: a card there cannot be read. "
            "If the pile reaches there, aim the camera so that the whole pile is in view")


def cut_outlines(reading: Reading, known: float | None) -> list[np.ndarray]:
    """The outlines (frame pixels) that may be the card `reading` read, cut by the frame's
    edge: a card's proportions, and the size `known` of the cards read surely before
    (region.card_size is no measure here: it holds the change's halo). The reported one,
    and those the read looked at that lie within it: the reading reports the biggest
    outline that read the card about as surely, which for a card the frame cuts may reach
    far beyond it (other_clips seed 904 with photo faces: a red 7 on an outline 44% too big,
    one of the card's own size inside it). Not any outline fitted to the change: one round
    an arm's end and the card it holds there explains the change too."""
    assert reading.quad is not None
    quads = [reading.quad]
    if reading.outlines is not None:
        at = np.array(reading.outlines.box[:2], np.float32)
        quads += [q + at for q in reading.outlines.quads
                  if _share_within(q + at, reading.quad) >= CUT_WITHIN and not np.allclose(q + at, reading.quad)]
    kept = []
    for quad in quads:
        short, long = short_long(quad)
        if abs(long / max(short, 1.0) / ASPECT - 1) > CUT_SHAPE or (known and abs(short / known - 1) > CUT_SIZE):
            continue
        # grown to the cards' size: where the frame hides the card's own outline, the outline
        # read surest may be its printed field, a fifth smaller, which stops short of the edge
        # (one bigger than the cards is the card itself, seen nearer)
        kept.append(at_size(quad, known) if known and short < known else quad)
    return kept


def _share_within(quad: np.ndarray, outer: np.ndarray) -> float:
    """The share of the convex outline `quad` that lies within the convex outline `outer`."""
    area, _ = cv2.intersectConvexConvex(np.asarray(quad, np.float32), np.asarray(outer, np.float32))
    return float(area) / max(float(cv2.contourArea(np.asarray(quad, np.float32))), 1.0)
