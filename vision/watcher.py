"""The pile watcher: frames in, `landed` / `removed` events out.

Per frame it only shrinks and normalises the image (see motion.py) and measures motion in
the pile region. When the region has been still for `settle_s` after a disturbance, the
settled image is compared with the last accepted pile image:

* a change that reaches the edge of the region is an arm still lying across it: wait (the
  ratio view shows an arm's outline, its colour shows a flat hand on a plain table), unless
  it ends within half a card past the edge: a card landed at the pile's edge, so widen;
  where the region ends at the frame's edge, a change whose own pixels keep just clear of
  that edge is a card lying near it, reaching it only with the ratio view's halo;
* no change: a hand passed, a shadow moved, the light changed: nothing to report; nor for
  a change of less than a fifth of a card (fingertips left over the pile, a glint);
* the pile looks as it did before the last landing: the top card was taken back (`removed`);
* otherwise a card landed: the recogniser reads the new top card (`landed`, card None when
  it cannot tell), unless much of the change lies well beside the whole card read: a hand
  still holds it (its sleeve may match the table, so nothing reaches the edge), and the
  landing waits until something moves (or until nothing has for `defer_still_s`); if the
  next card then comes onto it while it still lies as it did, it was no hand after all, and
  both are reported. It waits the same way while the last thing that moved did so inside
  the region, neither crossing its edge nor going away from the pile: a hand that hovers
  over the pile, or still holds its card, and shows too little of itself for the other
  tests; and when the change reads as no card and the last motion took none of it away:
  an empty hand at rest whose arm hardly shows. A card identical to the one below still
  changes the pile image, since it lies at another angle or offset.

A card read surely that lies still and clear of a hand that is still leaving is reported
at once (see _clear_of_hand); the pile image takes it in when all is still. One read
unsurely waits for that, unless the next card comes onto it first: then it is reported
as a landing put off. A landing read unsurely once all is still is read again on the next
still frames (`look_frames`, within `look_s`) and reported as those readings read it
together (see look_again.py); anything moving ends the look and reports what was read.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from .bearing import BearingTrail
from .cardface import ASPECT
from .find_card import quad_iou
from .look_again import combine, is_sure
from .motion import (SATURATED, MotionConfig, Normaliser, View, brightness_change, change_mask, chroma_change, clean,
                     settled_change)
from .pile_region import Box, PileRegion, RegionError
from .top_card import Reading, read_top_card

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    event: str  # "landed" or "removed"
    card: str | None
    confidence: float
    t: float
    frame: int
    quad: tuple[tuple[float, float], ...] | None = None
    likely: tuple[tuple[str, float], ...] = ()  # the two likeliest codes (landed), read or declined
    bearing: float | None = None  # landed: where the hand came from (see bearing.py), None if unseen
    bearing_confidence: float = 0.0

    def as_json(self) -> dict[str, Any]:
        out = {"event": self.event, "card": self.card, "confidence": round(self.confidence, 3),
               "t": round(self.t, 3), "frame": self.frame}
        if self.event == "landed":
            out["likely"] = [list(t) for t in self.likely]
            out["bearing"] = None if self.bearing is None else round(self.bearing, 1)
            out["bearing_confidence"] = round(self.bearing_confidence, 3)
        return out


WITHDRAWN = 0.1  # what came in has gone (in part) once the change shrinks by this share of its most
AWAY_PX = 2.0  # a big motion whose middle moved this much further from the region's middle went away
EARLY_CONFIDENCE = 0.9  # a card read this surely is reported while the hand is still leaving
SIDE_CONFIDENCE = 0.6  # a reading this sure came from a whole card's outline: its short side is the cards' size
BESIDE_REACH = 0.3  # change further than this many card short sides from the card read lies beside it
OWN_SHARE = 0.5  # the least share of a change without its halo that is still the card (see _without_halo)
NEW_SHARE = 0.5  # a card read after a landing was put off is new if this share of it changed since
STILL_SHOWS = 0.25  # ... and the put-off change still lies as it did if this share of it shows
STILL_MOVED = 0.3  # ... and at most this share of what shows has changed since (see _still_there)


@dataclass(frozen=True)
class WatcherConfig:
    motion: MotionConfig = field(default_factory=MotionConfig)
    settle_s: float = 0.07  # stillness needed after the last motion before comparing
    min_settle_frames: int = 2
    motion_frac: float = 0.0004  # changed pixels between frames, as a fraction of the small frame
    change_frac: float = 0.0017  # changed pixels vs the pile image that make a new pile state
    part_frac: float = 0.0003  # smallest piece of change that counts (smaller ones are noise)
    exposure_rate: float = 0.02  # brightness change per frame above which the exposure is still moving
    exposure_caution: float = 5.0  # change needed grows by this times |log exposure ratio|
    least_card_share: float = 0.2  # a new card changes at least this share of a card's area
    removal_ratio: float = 0.35  # "same as before the last landing" if the difference is this much smaller
    regrow_after_s: float = 0.6  # a still change touching the region edge: widen the region
    halo_after_s: float = 0.2  # ... touching only the frame's edge: may be a card's halo (see _at_edge)
    absorb_after_s: float = 4.0  # ... and if all stays still, take it into the pile image as background
    absorb_stale_s: float = 6.0  # ... or if that piece stays put this long whatever moves around it
    history: int = 32
    beside_share: float = 0.2  # change beside the card read, this share of its area, is a hand,
    defer_still_s: float = 1.0  # ... unless nothing moves for this long,
    defer_max_s: float = 3.0  # ... and for at most this long after the landing was first put off
    bearings: bool = True  # follow what moves over the whole frame, to tell where each card came from
    look_frames: int = 2  # an unsure reading of a settled card is taken on up to this many still frames,
    look_s: float = 0.1  # ... for at most this long after the first (see look_again.py)


@dataclass(frozen=True)
class _PutOff:
    """A landing put off while a hand seemed to hold its card, or read unsurely while the
    hand left: the pile then, the change (pixels of `roi`) and what it read as."""
    image: View
    roi: tuple[slice, slice]
    interior: np.ndarray
    reading: Reading


@dataclass
class _Look:
    """A landing whose reading was unsure, read again on the next still frames: the pile
    image with the card, where it changed (`interior` of the region from `origin`, `roi`),
    the readings so far and when the first was taken."""
    image: View
    roi: tuple[slice, slice]
    interior: np.ndarray
    origin: tuple[int, int]
    readings: list[Reading]
    t: float


@dataclass
class _PileState:
    image: View  # the pile at working size
    top: Reading | None  # the card on top in this state (None: unknown / bare table)


class PileWatcher:
    def __init__(self, recogniser: Any = None, region: Box | None = None,
                 config: WatcherConfig = WatcherConfig()):
        """`region` is x, y, w, h in frame pixels; None finds the pile by itself."""
        self.recogniser = recogniser
        self.config = config
        self._region_arg = region
        self._norm: Normaliser | None = None
        self._prev: View | None = None
        self._pile: _PileState | None = None
        self._history: list[_PileState] = []
        self._disturbed = False
        self._quiet_frames = 0
        self._t_motion = 0.0
        self._t_grow = 0.0
        self._edge: tuple[np.ndarray, float] | None = None  # a change at the region's edge, since when
        # a landing put off while a hand may still be there: (first put off, last put off)
        self._deferred: tuple[float, float] | None = None
        self._put_off: _PutOff | None = None  # ... and the card read then, if it was read
        self._report_now = False  # ... and nothing has moved since: report it at once
        self._left_by_edge = True  # the last motion reached the region's edge or went away from the pile
        self._moved_at: np.ndarray | None = None  # where it was (working-size pixels)
        # the most region pixels (1 in 4) that differed from a pile image (the one named) as things moved
        self._covered: tuple[int, View | None] = (0, None)
        self._came_in = False  # ... and whether about as many still did at the last motion
        self._sides: list[float] = []  # short sides (frame pixels) of the cards read surely
        self._clear: int | None = None  # changed pixels lying clear of the last motion (see _clear_of_hand)
        self._early: Reading | None = None  # a card reported while the hand was still leaving
        self._tried: View | None = None  # the pile image when that was last tried
        self._trail: BearingTrail | None = None  # what moved lately, for where each card came from
        self._last_event = -1  # frame of the last event reported: older motion belongs to earlier cards
        self._looking: _Look | None = None  # a landing read unsurely, looked at again on the next frames

    # -- set-up on the first frame --------------------------------------------------------
    def _start(self, frame: np.ndarray) -> None:
        h, w = frame.shape[:2]
        self._norm = Normaliser((w, h), self.config.motion)
        sw, sh = self._norm.small_size
        fixed = None
        if self._region_arg is not None:
            x, y, rw, rh = self._region_arg
            s = self._norm.scale
            fixed = (max(0, int(x * s)), max(0, int(y * s)), min(sw, int((x + rw) * s + 1)), min(sh, int((y + rh) * s + 1)))
            if fixed[2] - fixed[0] < 4 or fixed[3] - fixed[1] < 4:
                raise RegionError(f"region {self._region_arg} is outside the {w}x{h} frame or too small")
        self.region = PileRegion(sw, sh, fixed)
        self._trail = BearingTrail((sw, sh), self.config.motion) if self.config.bearings else None
        area = sw * sh
        self._motion_px = max(4, int(self.config.motion_frac * area))
        self._change_px = max(12, int(self.config.change_frac * area))
        self._part_px = max(3, int(self.config.part_frac * area))

    @property
    def region_box(self) -> Box | None:
        """The watched region in frame pixels (x0, y0, x1, y1), once started."""
        if self._norm is None:
            return None
        s = self._norm.scale
        x0, y0, x1, y1 = self.region.box()
        return int(x0 / s), int(y0 / s), int(x1 / s), int(y1 / s)

    # -- per frame ------------------------------------------------------------------------
    def feed(self, frame_index: int, t: float, frame: np.ndarray) -> list[Event]:
        if self._norm is None:
            self._start(frame)
        assert self._norm is not None
        n = self._norm(frame)
        if self._trail is not None:
            self._trail.feed(frame_index, n.small)
        events = self._watch(frame_index, t, frame, n)
        if events:
            events = [self._with_bearing(e) for e in events]
            self._last_event = frame_index
        return events

    def _with_bearing(self, event: Event) -> Event:
        """A landing with the bearing of the hand that brought it (see bearing.py): around the
        card read, or the pile's box when no outline was read."""
        if event.event != "landed" or self._trail is None:
            return event
        if event.quad is not None:
            quad = self._small_quad(event.quad)
        else:
            x0, y0, x1, y1 = self.region.pile or self.region.box()
            quad = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)
        found = self._trail.bearing(event.frame, quad, self._last_event)
        if found is None:
            return event
        return replace(event, bearing=found.degrees, bearing_confidence=found.confidence)

    def _watch(self, frame_index: int, t: float, frame: np.ndarray, n: View) -> list[Event]:
        assert self._norm is not None
        if self._prev is None:
            self._prev = n
            self._pile = _PileState(n, None)
            return []
        box = self.region.box()
        roi = _roi(box)
        motion = clean(change_mask(n.ratio[roi], self._prev.ratio[roi], self.config.motion.diff_threshold), 3)
        moving = cv2.countNonZero(motion)
        # auto-exposure still catching up with a light switch counts as motion: compare once
        # the exposure is steady (clipped highlights would otherwise look like a change)
        exposure_moving = _exposure_step(n.small[::3, ::3], self._prev.small[::3, ::3]) > self.config.exposure_rate
        seen = self._follow_hand(motion, n, self._prev, roi, box, exposure_moving)
        self._prev = n
        still = not (moving > self._motion_px or exposure_moving)
        if self._looking is not None:
            if still:
                return self._look_again(frame_index, t, frame, n)
            looked = [self._looked(t, frame_index)]  # something moves: report what was read
            return looked + self._watch_moving(frame_index, t, frame, n, roi, seen, exposure_moving)
        if not still:
            return self._watch_moving(frame_index, t, frame, n, roi, seen, exposure_moving)
        self._quiet_frames += 1
        if self._deferred is not None and not self._disturbed and t - self._deferred[1] >= self.config.defer_still_s:
            # nothing moved since: no hand holds or hovers there after all (what lies beside
            # the card is a nudged card, or the hand went unseen)
            self._report_now = True
            self._disturbed = True
        if (not self._disturbed or self._quiet_frames < self.config.min_settle_frames
                or t - self._t_motion < self.config.settle_s):
            return []
        return self._settled(frame_index, t, frame, n)

    def _watch_moving(self, frame_index: int, t: float, frame: np.ndarray, n: View, roi: tuple[slice, slice],
                      seen: np.ndarray, exposure_moving: bool) -> list[Event]:
        """A frame in which something moves in the region (or the exposure does)."""
        self._disturbed = True
        self._quiet_frames = 0
        self._t_motion = t
        return [] if exposure_moving else self._clear_of_hand(frame_index, t, frame, n, roi, seen)

    def _look_again(self, frame_index: int, t: float, frame: np.ndarray, n: View) -> list[Event]:
        """Read the unsurely read card again on this still frame; report it once the
        readings together are sure, or after `look_frames` reads or `look_s`."""
        look = self._looking
        assert look is not None
        look.readings.append(self._read(frame, n, look.roi, look.interior))
        cfg = self.config
        if (is_sure(combine(look.readings)) or len(look.readings) >= cfg.look_frames
                or t - look.t >= cfg.look_s):
            return [self._looked(t, frame_index)]
        return []

    def _looked(self, t: float, frame_index: int) -> Event:
        """The landing looked at on several frames, reported as they read it together."""
        look, self._looking = self._looking, None
        assert look is not None
        return self._land(look.image, look.interior, look.origin, combine(look.readings), t, frame_index)

    def _follow_hand(self, motion: np.ndarray, n: View, prev: View, roi: tuple[slice, slice],
                     box: Box, exposure_moving: bool) -> np.ndarray:
        """Note whether the last thing that moved (in the region `box`) crossed its edge or
        went away from the pile. A hand that leaves does as it last moves; one that stops
        inside the region (hovering, or still holding its card) last moved inwards.
        Brightness and colour see hands that the ratio view barely does, so they also tell
        when such a hand leaves a landing waiting; while the exposure moves they change all
        over, and the ratio view, which it leaves alone, follows the hand by itself (a hand
        that leaves as a lamp comes on must not leave its card waiting as if still there).
        It also notes whether what came in since the pile image was taken is all still there
        (see _settled: a change read as no card). Returns what moved (region pixels)."""
        mc = self.config.motion
        seen = motion
        if not exposure_moving:  # while the exposure moves, only the ratio view sees hands
            cur, before = n.small[roi], prev.small[roi]
            seen = cv2.bitwise_or(seen, clean(cv2.bitwise_or(
                brightness_change(cur, before, mc.brightness_threshold, mc.dark_offset),
                chroma_change(cur, before, mc.chroma_threshold)), 3))
        count = cv2.countNonZero(seen)
        if count <= self._motion_px:
            return seen
        left = _on_border(seen)
        if count > 4 * self._motion_px:
            # Moving away from the pile counts too: a hand whose colour and brightness match
            # the table shows only where it passes over cards, not where it leaves. Smaller
            # motions (a hovering hand's drift) say nothing either way.
            m = cv2.moments(seen, binaryImage=True)
            at = np.array([box[0] + m["m10"] / m["m00"], box[1] + m["m01"] / m["m00"]])
            centre = np.array([box[0] + box[2], box[1] + box[3]], np.float64) / 2
            if self._moved_at is not None:
                left |= np.linalg.norm(at - centre) > np.linalg.norm(self._moved_at - centre) + AWAY_PX
            self._moved_at = at
        elif not left:
            return seen
        # Whether as much of the region differs from the pile image as at any time since it
        # was taken: what came in has not gone (an arm at rest; or a card's print that a hand
        # uncovered as it left, so this only tells about changes read as no card).
        assert self._pile is not None
        ref = self._pile.image
        covered = cv2.countNonZero(change_mask(n.ratio[roi][::2, ::2], ref.ratio[roi][::2, ::2], mc.diff_threshold))
        self._covered = max(covered, self._covered[0] if self._covered[1] is ref else 0), ref
        self._came_in = covered >= (1 - WITHDRAWN) * self._covered[0]
        if left and not self._left_by_edge and self._deferred is not None:
            self._disturbed = True  # the hand was seen leaving: judge the waiting landing again
        self._left_by_edge = left
        return seen

    def _clear_of_hand(self, frame_index: int, t: float, frame: np.ndarray, n: View,
                       roi: tuple[slice, slice], seen: np.ndarray) -> list[Event]:
        """While a hand is still leaving: a still change of a card's size that lies clear of
        all motion, and away from the region's edge, for two frames running, is the card the
        hand left. Report it at once if it reads surely: an arm leaves the region long after
        it has cleared the pile when cards are big (the region then spans the frame), and
        the whole frame is watched until a card lands. Anything else (a take-back, a card
        just like the one below, an unsure reading) waits for all to be still; an unsure
        reading of a card is kept, as a landing put off, for when the next card comes first."""
        assert self._pile is not None and self._norm is not None
        if (not self._left_by_edge or self._came_in or self._deferred is not None or self._early is not None
                or self._tried is self._pile.image or self.region.card_size == 0 and not self.region.is_whole_frame()):
            self._clear = None
            return []
        mc = self.config.motion
        changed = self._changed(n, self._pile.image, roi)
        # what lies within the ratio view's halo of the motion is not clear of it
        reach = 2 * mc.halo_px + 1
        near = cv2.dilate(seen, np.ones((reach, reach), np.uint8))
        # a card changes along its outline and in its print, not across its plain parts:
        # what an outline encloses goes with it, so that a card lies clear of the hand whole
        outlines, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(changed)
        cv2.drawContours(filled, outlines, -1, 255, -1)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(filled, connectivity=8)
        keep = stats[:, 4] >= self._part_px
        keep[0] = False
        keep[np.unique(labels[near > 0])] = False
        keep[np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))] = False
        still = keep[labels]
        area = int(np.count_nonzero(still & (changed > 0)))
        previous, self._clear = self._clear, None
        if area < self._least():
            return []
        if previous is None or abs(area - previous) > 0.05 * area:
            self._clear = area  # look again at the next frame: it must lie still
            return []
        interior = cv2.bitwise_and(changed, still.astype(np.uint8) * 255)
        if self._as_before(n, roi, area, interior):
            return []  # a take-back, or a card just like the one below: judge it once all is still
        x0, y0 = _origin(roi)
        self._tried = self._pile.image  # one read per pile state: reads are slow, hands quick
        reading = self._read(frame, n, roi, interior)
        if reading.confidence < EARLY_CONFIDENCE or self._beside_card(interior, reading, (x0, y0)):
            if reading.card is not None:
                # judge it once all is still, unless the next card comes onto it first (a hand
                # leaving as the next one comes): see _still_there. The pile then is the last
                # one with this card in it; the hand still shows elsewhere.
                card = cv2.dilate(interior, np.ones((3, 3), np.uint8)) > 0
                self._put_off = _PutOff(self._patched(n, roi, card), roi, interior, reading)
            return []
        # Report it now; the pile image takes it in once all is still (part of the card may
        # still lie near the hand, and the rest of the pile image is as old as the last state).
        self._early = reading
        return [Event("landed", reading.card, reading.confidence, t, frame_index, _quad_tuple(reading.quad),
                      reading.likely)]

    def _raw_change(self, a: View, b: View, roi: tuple[slice, slice]) -> np.ndarray:
        return settled_change(a.ratio[roi], b.ratio[roi], a.small[roi], b.small[roi], self.config.motion.diff_threshold)

    def _changed(self, a: View, b: View, roi: tuple[slice, slice]) -> np.ndarray:
        return clean(self._raw_change(a, b, roi))

    def _settled(self, frame_index: int, t: float, frame: np.ndarray, n: View) -> list[Event]:
        assert self._pile is not None and self._norm is not None
        cfg = self.config
        box = self.region.box()
        x0, y0 = box[:2]
        roi = _roi(box)
        ref = self._pile.image
        raw = self._raw_change(n, ref, roi)
        changed = clean(raw)
        # still for a while: what touches only the frame's edge may be a card's halo there
        waited = t - max(self._t_motion, self._t_grow)
        halo_ok = waited >= cfg.halo_after_s
        edge = self._at_edge(raw, n, ref, roi, halo_ok)
        touching = bool(edge.any())
        # small specks are noise; what remains of the fine-scale change is the new pile state
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        keep = np.zeros(count, np.uint8)
        keep[1:] = (stats[1:, 4] >= self._part_px) * 255
        interior = keep[labels]
        log.debug("frame %d settled: touching=%s changed=%d (min %d) region=%s", frame_index, touching,
                  cv2.countNonZero(interior), self._change_px, box)
        if touching:
            wider = self.region.grown_box()
            wide = _roi(wider)
            if wider != box and not self._at_edge(self._raw_change(n, ref, wide), n, ref, wide, halo_ok).any():
                # what reaches the edge ends within half a card beyond it: a card landed near
                # the pile's edge, not an arm, so widen the region now and look again
                self.region.grow()
                self._t_grow = t
                return self._settled(frame_index, t, frame, n)
            # an arm (or something new at the edge) lies across the region and keeps still
            if waited >= cfg.regrow_after_s and self.region.grow():
                self._t_grow = t
            else:
                # Something left at the edge, or a stale part of the pile image: take just those
                # pieces into the pile image once nothing has moved for a while, or once the same
                # piece has stayed put for long while hands came and went (a lingering hand moves,
                # so it is not taken in).
                if self._edge is None or self._edge[0].shape != edge.shape or (
                        np.count_nonzero(edge & self._edge[0]) < 0.6 * np.count_nonzero(edge | self._edge[0])):
                    self._edge = (edge, t)
                if t - self._t_motion >= cfg.absorb_after_s or t - self._edge[1] >= cfg.absorb_stale_s:
                    self._absorb(n, roi, edge)
                    self._edge = None
            return []
        self._edge = None
        area = cv2.countNonZero(interior)
        # After a big exposure step, clipped highlights bend the ratios a little along bright
        # edges; ask for more evidence then (a card landing changes far more than that).
        step = _exposure_step(n.small[roi], ref.small[roi])
        if area < self._least(step):
            self._accept_background(n)  # a hand passed, light or shadows changed: same pile
            self._end_deferral()
            self._early = None
            return []
        if self._as_before(n, roi, area):
            self._disturbed = False
            return [self._take_back(self._merge(n), t, frame_index)]
        if self._early is not None:
            # the card reported while the hand was leaving: take it into the pile image, or
            # report what lies on it now if that is surely another whole card (one came in
            # quick succession; an unsure reading of the whole change, or one on an outline of
            # part of a card, is the same card misread)
            early, self._early = self._early, None
            reading = self._read(frame, n, roi, interior)
            self._disturbed = False
            # before the first card lands the pile has shown no card size: the early outline does
            side = _short_long(self._small_quad(early.quad))[0] if early.quad is not None else 0.0
            seen_again = (reading.card in (None, early.card) or reading.confidence < EARLY_CONFIDENCE
                          or reading.quad is None or self._whole_card(self._small_quad(reading.quad), side) is None
                          or _same_place(reading.quad, early.quad))
            event = self._land(self._merge(n), interior, (x0, y0), early if seen_again else reading, t, frame_index)
            return [] if seen_again else [event]
        first = t if self._deferred is None else self._deferred[0]
        waiting = not self._report_now and t - first < cfg.defer_max_s
        if waiting and not self._left_by_edge:
            # what moved last has not been seen leaving: a hand hovering over the pile or
            # holding its card still, its arm unseen. Look again once something has moved.
            return self._defer(first, t)
        reading = self._read(frame, n, roi, interior)
        put_off = self._put_off
        if put_off is not None and self._still_there(put_off, n, reading):
            # The card put off lay at rest after all (what lay beside it was no hand), and the
            # next card came onto it before anything showed that: report it as it lay then,
            # and look again at what has come since.
            event = self._land(self._merge(put_off.image), put_off.interior, _origin(put_off.roi), put_off.reading,
                               t, frame_index)
            return [event] + self._settled(frame_index, t, frame, n)
        if waiting and ((reading.card is None and self._came_in) or self._beside_card(interior, reading, (x0, y0))):
            # A hand holding the card still above the pile, its sleeve the table's colour (so
            # nothing reaches the edge); or no card at all, and the last motion took none of
            # the change away: an empty hand at rest whose arm hardly shows. Look again once
            # something has moved. (An unread card that a hand left is reported at once.)
            return self._defer(first, t, _PutOff(n, roi, interior, reading))
        self._disturbed = False
        if not is_sure(reading) and cfg.look_frames > 1:
            # unsure: look again on the next still frames before reporting (see _look_again)
            self._looking = _Look(self._merge(n), roi, interior, (x0, y0), [reading], t)
            return []
        return [self._land(self._merge(n), interior, (x0, y0), reading, t, frame_index)]

    def _as_before(self, n: View, roi: tuple[slice, slice], area: int, within: np.ndarray | None = None) -> bool:
        """Whether `n` looks as the pile did before the last landing (in `within`, if given),
        for a change of `area` pixels: the top card was taken back."""
        if not self._history:
            return False
        back = self._changed(n, self._history[-1].image, roi)
        count = cv2.countNonZero(back if within is None else cv2.bitwise_and(back, within))
        log.debug("%d pixels differ from the pile before the last landing", count)
        return count < max(self._change_px, self.config.removal_ratio * area)

    def _take_back(self, image: View, t: float, frame_index: int) -> Event:
        """The top card was taken back: the pile before it, as `image` now shows it."""
        assert self._pile is not None
        removed, before = self._pile.top, self._history.pop()
        self._pile = _PileState(image, before.top)
        self._end_deferral()
        return Event("removed", removed.card if removed else None, removed.confidence if removed else 0.0,
                     t, frame_index, _quad_tuple(removed.quad) if removed else None)

    def _land(self, image: View, interior: np.ndarray, origin: tuple[int, int], reading: Reading,
              t: float, frame_index: int) -> Event:
        """A card landed where `interior` (region pixels from `origin`) changed: `image` is the new pile."""
        assert self._norm is not None
        self._end_deferral()
        self._history.append(self._pile)
        del self._history[:-self.config.history]
        self._pile = _PileState(image, reading)
        pts = cv2.findNonZero(interior)
        bx, by, bw, bh = cv2.boundingRect(pts)
        # The card's size: the changed area, or the outline read when that is bigger (the
        # change misses what looks alike before and after, such as a light switched on
        # just brightening the print of the top card).
        area = cv2.contourArea(cv2.convexHull(pts))
        if reading.quad is not None:
            outline = self._small_quad(reading.quad)
            area = max(area, cv2.contourArea(outline))
        x0, y0 = origin
        self.region.add_card((x0 + bx, y0 + by, x0 + bx + bw, y0 + by + bh), area)
        if reading.quad is not None and reading.confidence >= SIDE_CONFIDENCE:
            self._sides = (self._sides + [_short_long(reading.quad)[0]])[-5:]
        return Event("landed", reading.card, reading.confidence, t, frame_index, _quad_tuple(reading.quad),
                     reading.likely)

    def _least(self, exposure_step: float = 0.0) -> float:
        """The fewest changed pixels that make a new pile state. Less than a share of a
        card's area is no new card either: fingertips left over the pile, a light's glint."""
        cfg = self.config
        return max(self._change_px * (1 + cfg.exposure_caution * exposure_step),
                   cfg.least_card_share * ASPECT * self.region.card_size ** 2)

    def _card_side(self) -> float | None:
        """The cards' short side (frame pixels) as the last sure readings outlined it: the
        reader tries outlines of that size too, for when the change is no card's size (a
        shadow that went with the hand) and the finder outlines nothing."""
        return float(np.median(self._sides)) if self._sides else None

    def _small_quad(self, quad: Any, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
        """An outline in frame pixels -> working-size pixels from `origin`."""
        assert self._norm is not None
        return np.asarray(quad, np.float32).reshape(-1, 2) * self._norm.scale - np.array(origin, np.float32)

    def _end_deferral(self) -> None:
        self._deferred, self._put_off, self._report_now = None, None, False

    def _defer(self, first: float, t: float, put_off: _PutOff | None = None) -> list[Event]:
        """Put the landing off until something moves (see feed for when it is forced)."""
        self._deferred = (first, t)
        if put_off is not None:
            self._put_off = put_off
        self._disturbed = False
        return []

    def _still_there(self, put_off: _PutOff, n: View, reading: Reading) -> bool:
        """Whether a new card, read as `reading`, came onto a landing put off while it lay at
        rest: the card's outline changed since (the card is new there), and what had changed
        when the landing was put off still looks as it did where the new card leaves it
        uncovered. A hand that held its card and dropped it has moved it, and has gone; a
        card held where it then lies has not changed since, so it is the same card."""
        assert self._norm is not None
        if reading.quad is None:
            return False
        h, w = n.ratio.shape[:2]
        whole = (slice(0, h), slice(0, w))
        since = self._own_change(n, put_off.image, whole)  # of itself: no halo around the new card
        card = _fill(self._small_quad(reading.quad), (h, w))
        if cv2.countNonZero(cv2.bitwise_and(since, card)) < NEW_SHARE * cv2.countNonZero(card):
            return False
        was = np.zeros((h, w), np.uint8)
        was[put_off.roi] = put_off.interior
        # (outlines fit to a pixel or two)
        shows = cv2.bitwise_and(was, cv2.bitwise_not(cv2.dilate(card, np.ones((5, 5), np.uint8))))
        seen = cv2.countNonZero(shows)
        if seen < STILL_SHOWS * cv2.countNonZero(was):
            return False
        return cv2.countNonZero(cv2.bitwise_and(since, shows)) <= STILL_MOVED * seen

    def _at_edge(self, raw: np.ndarray, n: View, ref: View, roi: tuple[slice, slice], halo_ok: bool = False) -> np.ndarray:
        """Mask of the changed pieces that reach the edge of `roi`: an arm lying across it.
        `raw` is the uncleaned ratio-view change there (_raw_change).

        An arm is long and often close to the table's colour: in the ratio view its outline
        comes out dotted. Dilating the raw mask joins the dots, so the arm is one piece
        touching the edge; sensor noise is sparse, so a piece must hold enough raw pixels.
        On a plain table a flat-coloured hand shows only that dotted outline, and its colour
        shows the rest.

        Where the region ends at the frame's edge, growing it cannot tell a card from an arm,
        and a card lying near that edge reaches it with the ratio view's halo alone (the
        blur that cancels lighting spreads a new card's change about two blur widths around
        it). There a piece is that card when its own pixels (those that changed colour or
        brightness) lie near the stretch of edge it meets but keep clear of the edge itself;
        an arm crossing the edge changes right there, or it shows nothing of its own and
        stays an arm. A hand of the table's colour changes in speckles only, which may miss
        the edge for a frame: so this holds only once all has kept still for a while
        (`halo_ok`), which a hand that brought a card seldom does."""
        mc = self.config.motion
        cur, old = n.small[roi], ref.small[roi]
        hand = clean(chroma_change(cur, old, mc.chroma_threshold), 3)
        sw, sh = self.region.width, self.region.height
        inner = (roi[1].start > 0, roi[0].start > 0, roi[1].stop < sw, roi[0].stop < sh)
        own = self._own_change(n, ref, roi, hand) if halo_ok and not all(inner) else None
        return (_edge_pieces(cv2.dilate(raw, np.ones((5, 5), np.uint8)), raw, 2 * self._part_px, inner, own,
                             mc.halo_px + 2)
                | _edge_pieces(hand, hand, self._change_px))

    def _own_change(self, n: View, ref: View, roi: tuple[slice, slice],
                    colour: np.ndarray | None = None) -> np.ndarray:
        """The pixels of `roi` that changed colour or brightness themselves since `ref`
        (brought to the frame's exposure first): unlike the ratio view, no halo around what
        changed. `colour` is their colour change, when the caller has it already."""
        mc = self.config.motion
        cur, old = n.small[roi], ref.small[roi]
        if colour is None:
            colour = clean(chroma_change(cur, old, mc.chroma_threshold), 3)
        lit = cv2.convertScaleAbs(old, alpha=_exposure_gain(cur, old))
        return cv2.bitwise_or(colour, clean(brightness_change(cur, lit, mc.brightness_threshold, mc.dark_offset), 3))

    def _without_halo(self, n: View, roi: tuple[slice, slice], interior: np.ndarray) -> np.ndarray:
        """The change `interior` (of `roi`) without the ratio view's halo: its pixels that
        changed of themselves. The blur that cancels lighting spreads a change about two blur
        widths around a card (most of all a light card on a dark table): outlines fitted to
        that halo are too big, and they read as guesses that, several of them, outvoted a sure
        reading of the card itself. Only where the card is much like the table, so that little
        of it changes of itself, does the whole change stay."""
        assert self._pile is not None
        own = cv2.dilate(self._own_change(n, self._pile.image, roi), np.ones((3, 3), np.uint8))
        core = cv2.bitwise_and(interior, own)
        return core if cv2.countNonZero(core) >= OWN_SHARE * cv2.countNonZero(interior) else interior

    def _beside_card(self, interior: np.ndarray, reading: Reading, origin: tuple[int, int]) -> bool:
        """Whether much of the change lies well away from the card that was read: the hand
        that still holds it. Only a whole card's outline tells: an outline of one end's field
        or of the oval leaves the rest of the card beyond it. It judges the change halo and
        all: of a flat hand, the ratio view shows little more than its outline's halo."""
        if reading.quad is None:
            return False
        quad = self._small_quad(reading.quad, origin)
        sides = self._whole_card(quad)
        if sides is None:
            return False
        short, long = sides
        card = _fill(quad, interior.shape[:2])
        away = cv2.distanceTransform(cv2.bitwise_not(card), cv2.DIST_L2, 3) > BESIDE_REACH * short
        return np.count_nonzero((interior > 0) & away) >= self.config.beside_share * short * long

    def _whole_card(self, quad: np.ndarray, early_side: float = 0.0) -> tuple[float, float] | None:
        """(short, long) sides of the outline `quad` (working pixels) if it is a whole card's:
        most of a card of the size the pile's cards have shown; before any has, well over half
        a card of short side `early_side` (an outline read in a moving hand may take in blur)
        or, knowing no size, a card's proportions. None for an outline of part of a card."""
        short, long = _short_long(quad)
        if short <= 0:
            return None
        known = self.region.card_size
        if known:
            whole = short * long >= 0.8 * ASPECT * known ** 2
        elif early_side:
            whole = short * long >= 0.6 * ASPECT * early_side ** 2
        else:
            whole = abs(long / short / ASPECT - 1) <= 0.15
        return (short, long) if whole else None

    def _absorb(self, n: View, roi: tuple[slice, slice], mask: np.ndarray) -> None:
        assert self._pile is not None
        self._pile = _PileState(self._patched(n, roi, mask), self._pile.top)

    def _patched(self, n: View, roi: tuple[slice, slice], mask: np.ndarray) -> View:
        """The pile image with the pixels `mask` (boolean, of `roi`) as `n` shows them."""
        assert self._pile is not None
        ref = View(self._pile.image.small.copy(), self._pile.image.ratio.copy())
        ref.small[roi][mask] = n.small[roi][mask]
        ref.ratio[roi][mask] = n.ratio[roi][mask]
        return ref

    def _accept_background(self, n: View) -> None:
        assert self._pile is not None
        self._pile = _PileState(self._merge(n), self._pile.top)
        self._disturbed = False

    def _merge(self, n: View) -> View:
        """The pile image after accepting `n`: new inside the watched region, kept outside it
        (hands and things beside the pile must not linger in the pile image)."""
        assert self._pile is not None
        if self.region.is_whole_frame():
            return n
        x0, y0, x1, y1 = self.region.box()
        ref = View(self._pile.image.small.copy(), self._pile.image.ratio.copy())
        ref.small[y0:y1, x0:x1] = n.small[y0:y1, x0:x1]
        ref.ratio[y0:y1, x0:x1] = n.ratio[y0:y1, x0:x1]
        return ref

    def _read(self, frame: np.ndarray, n: View, roi: tuple[slice, slice], interior: np.ndarray) -> Reading:
        """Crop around the changed pixels `interior` of `roi` (plus a margin) at full
        resolution and read the top card there, from the change without its halo."""
        assert self._norm is not None
        s = self._norm.scale
        origin = _origin(roi)
        pts = cv2.findNonZero(interior)
        bx, by, bw, bh = cv2.boundingRect(pts)
        pad = int(0.25 * max(bw, bh)) + 2
        sh, sw = self._norm.small_size[1], self._norm.small_size[0]
        sx0, sy0 = max(0, origin[0] + bx - pad), max(0, origin[1] + by - pad)
        sx1, sy1 = min(sw, origin[0] + bx + bw + pad), min(sh, origin[1] + by + bh + pad)
        fh, fw = frame.shape[:2]
        box = (int(sx0 / s), int(sy0 / s), min(fw, int(sx1 / s)), min(fh, int(sy1 / s)))
        small = np.zeros((sh, sw), np.uint8)
        small[roi] = self._without_halo(n, roi, interior)
        crop = small[sy0:sy1, sx0:sx1]
        changed = cv2.resize(cv2.dilate(crop, np.ones((3, 3), np.uint8)), (box[2] - box[0], box[3] - box[1]),
                             interpolation=cv2.INTER_NEAREST)
        return read_top_card(self.recogniser, frame, box, changed, self._card_side())


def _short_long(quad: Any) -> tuple[float, float]:
    """(short, long) sides of the smallest rectangle around an outline."""
    (_, _), sides, _ = cv2.minAreaRect(np.asarray(quad, np.float32).reshape(-1, 2))
    return float(min(sides)), float(max(sides))


def _quad_tuple(quad: np.ndarray | None) -> tuple[tuple[float, float], ...] | None:
    if quad is None:
        return None
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(-1, 2))


def _same_place(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    """Whether two outlines (frame pixels) mostly overlap: the same card, read twice."""
    if a is None or b is None:
        return False
    return quad_iou(np.asarray(a, np.float32).reshape(-1, 2), np.asarray(b, np.float32).reshape(-1, 2)) >= 0.5


def _fill(quad: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """A mask of `shape` inside the outline `quad` (in its pixels)."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 255)
    return mask


def _origin(roi: tuple[slice, slice]) -> tuple[int, int]:
    return roi[1].start, roi[0].start


def _roi(box: Box) -> tuple[slice, slice]:
    x0, y0, x1, y1 = box
    return slice(y0, y1), slice(x0, x1)


def _on_border(mask: np.ndarray) -> bool:
    return bool(mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any())


def _edge_pieces(mask: np.ndarray, evidence: np.ndarray, min_px: int,
                 inner: tuple[bool, bool, bool, bool] = (True, True, True, True),
                 own: np.ndarray | None = None, halo: int = 0) -> np.ndarray:
    """The connected pieces of `mask` that touch its border and hold at least `min_px`
    pixels of `evidence`, as a boolean mask.

    `inner` tells, for the left, top, right and bottom sides, whether that border lies
    inside the frame. Where it is the frame's edge and `own` is given, a piece that touches
    it is let off when `own` explains the touch as a halo: along the stretch of edge the
    piece meets, `own` has no pixel on the edge itself but some within `halo` of it."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    held = np.bincount(labels[evidence > 0], minlength=count)
    h, w = mask.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    touch = np.zeros(count, bool)
    sides = (x == 0, y == 0, x + bw == w, y + bh == h)
    spans = ((y, bh), (x, bw), (y, bh), (x, bw))  # where each piece lies along each side
    for k, (side, inside, (start, length)) in enumerate(zip(sides, inner, spans)):
        if inside or own is None:
            touch |= side
            continue
        # `own` within `halo` of this side of the frame, turned so that the edge row comes first
        band = (own[:, :halo].T, own[:halo], own[:, w - halo:].T[::-1], own[h - halo:][::-1])[k]
        on, near = band[0], band.any(axis=0)
        for i in np.flatnonzero(side & ~touch):
            at = slice(start[i], start[i] + length[i])
            touch[i] = bool(on[at].any()) or not near[at].any()
    touch &= held >= min_px
    touch[0] = False
    return touch[labels]


def _exposure_gain(cur: np.ndarray, ref: np.ndarray) -> float:
    """The typical brightness ratio cur / ref: the median over pixels clipped in neither
    (clipping hides how far a bright table moved; a hand covers a minority)."""
    a = cur.reshape(-1).astype(np.float32)
    b = ref.reshape(-1).astype(np.float32)
    ok = (a < SATURATED) & (b < SATURATED) & (a > 8) & (b > 8)
    if np.count_nonzero(ok) < 50:
        return 1.0  # nearly everything clipped or black: no measure
    return float(np.exp(np.median(np.log(a[ok] / b[ok]))))


def _exposure_step(cur: np.ndarray, ref: np.ndarray) -> float:
    """|log| of the typical brightness ratio between two views (see _exposure_gain)."""
    return abs(math.log(_exposure_gain(cur, ref)))
