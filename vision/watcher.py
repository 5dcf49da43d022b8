"""The pile watcher: frames in, `landed` / `removed` events out.

Per frame it only shrinks and normalises the image (see motion.py) and measures motion in
the pile region. When the region has been still for `settle_s` after a disturbance, the
settled image is compared with the last accepted pile image:

* a change that reaches the edge of the region is an arm still lying across it: wait (the
  ratio view shows an arm's outline, its colour shows a flat hand on a plain table), unless
  it ends within half a card past the edge: a card landed at the pile's edge, so widen;
  where the region ends at the frame's edge, a change whose own pixels keep just clear of
  that edge is a card lying near it, reaching it only with the ratio view's halo;
* the whole picture moved (a bump to the camera or the table): the pile's images and place
  move with it, and what is still changed is judged as below (camera_shift.py);
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
at once (see landing.py, _clear_of_hand); the pile image takes it in when all is still. One read
unsurely waits for that, unless the next card comes onto it first: then it is reported
as a landing put off. A landing read unsurely once all is still is read again on the next
still frames (`look_frames`, within `look_s`) and reported as those readings read it
together (see look_again.py); anything moving ends the look and reports what was read,
and so does the end of the source (`finish`).

The read is the slow part (about 50 ms at 1280x720, more than a frame's time at 25 fps), and
the card has lain still a frame before the settled frame judges it: on that first still
frame a copy of the judge judges it as the next frame will, and the reads it makes serve
the next frame where their crop and change are the same and not a pixel of the crop has
changed since (`read_ahead`). The copy is thrown away: the next frame is judged as ever,
only sooner done.

The stages, each in its own module, the data flowing one way (this module only wires them):
frames -> motion.py (a small, lighting-normalised view) -> pile_motion.py (what moved, and
whether the hand left) -> landing.py (when all is still: what the settled change is; before
that, leaving_hand.py finds a card clear of a hand still leaving; pile_change.py gives the
change itself and pile_outline.py judges the outline read) -> pile_read.py and top_card.py
(where to read, and the read) with look_again.py (several frames' readings) -> pile_book.py
(the pile's record; the Event) -> bearing.py (where the hand came from). The tunables are
in one WatcherConfig (watch_config.py). The stages hold all the watcher's state but the
recogniser, which stays here (a checkpoint saves the rest).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from .bearing import BearingTrail
from .landing import LandingJudge
from .motion import Normaliser, View
from .pile_book import Event, PileBook
from .pile_change import ChangeSizes, Roi, roi_of, without_halo
from .pile_change import changed as changed_between
from .pile_motion import PileMotion
from .pile_outline import small_quad, whole_card
from .pile_read import Read, reading_window, small_box
from .pile_region import Box, PileRegion, RegionError
from .top_card import Outlines, Reading, read_outlines, read_top_card
from .watch_config import WatcherConfig

__all__ = ["Event", "PileWatcher", "WatcherConfig"]

@dataclass(frozen=True)
class DoneRead:
    """A read made on this frame or, `carried`, on the still frame before it (see feed)."""
    box: Box
    changed: np.ndarray
    side: float | None
    reading: Reading
    view: View  # the frame it was made on, at working size
    carried: bool = False

    def serves(self, box: Box, changed: np.ndarray, side: float | None) -> bool:
        """Whether it is the read of the crop `box` with the change `changed`: the same
        change, or, if it was made on the still frame before, one that a frame's noise may
        have made of it (CARRIED_IOU). The crop must be the same: a read depends on it."""
        if self.box != box or self.side != side:
            return False
        if not self.carried:
            return np.array_equal(self.changed, changed)
        return cv2.countNonZero(self.changed & changed) >= CARRIED_IOU * cv2.countNonZero(self.changed | changed)


CARRIED_IOU = 0.95  # a read of the still frame before serves a change this like it (see DoneRead)
NOTICE_QUIET_S = 10.0  # s: a notice gone this long is news again when it comes back (see fresh_notice)


class PileWatcher:
    def __init__(self, recogniser: Any = None, region: Box | None = None,
                 config: WatcherConfig = WatcherConfig()):
        """`region` is x, y, w, h in frame pixels; None finds the pile by itself."""
        self.recogniser = recogniser  # held here only: the stages are the state a checkpoint saves
        self.config = config
        self._region_arg = region
        self._norm: Normaliser | None = None
        self._trail: BearingTrail | None = None  # what moved lately, for where each card came from
        self._motion: PileMotion | None = None  # the stages, from the first frame on
        self._book: PileBook | None = None
        self._judge: LandingJudge | None = None
        self._last_event = -1  # frame of the last event reported: older motion belongs to earlier cards
        self._last_frame = (-1, 0.0)  # index and time of the last frame fed (the stream may end there)
        self._told: tuple[str, float] | None = None  # the notice fresh_notice last told, and when it last held
        self._ahead: list[DoneRead] = []  # the next frame's reads, made on this one (see feed)

    # -- set-up on the first frame --------------------------------------------------------
    def _start(self, frame: np.ndarray) -> None:
        h, w = frame.shape[:2]
        self._norm = Normaliser((w, h), self.config.motion)
        sw, sh = self._norm.small_size
        fixed = None
        if self._region_arg is not None:
            x, y, rw, rh = self._region_arg
            fixed = small_box((x, y, x + rw, y + rh), self._norm.scale, (sw, sh))
            if fixed[2] - fixed[0] < 4 or fixed[3] - fixed[1] < 4:
                raise RegionError(f"region {self._region_arg} is outside the {w}x{h} frame or too small")
        self.region = PileRegion(sw, sh, fixed)
        self._trail = BearingTrail((sw, sh), self.config.motion) if self.config.bearings else None

    def _begin(self, first: View) -> None:
        """The stages, from the first view: the pile as the watcher starts."""
        assert self._norm is not None
        cfg = self.config
        sw, sh = self._norm.small_size
        sizes = ChangeSizes.of(sw * sh, cfg.motion_frac, cfg.change_frac, cfg.part_frac)
        self._motion = PileMotion(first, cfg.motion, sizes.motion_px, cfg.exposure_rate)
        self._book = PileBook(first, self.region, self._norm.scale, cfg.history, cfg.side_confidence)
        self._judge = LandingJudge(cfg, self._book, self.region, sizes, self._norm.scale)

    @property
    def region_box(self) -> Box | None:
        """The watched region in frame pixels (x0, y0, x1, y1), once started."""
        if self._norm is None:
            return None
        s = self._norm.scale
        x0, y0, x1, y1 = self.region.box()
        return int(x0 / s), int(y0 / s), int(x1 / s), int(y1 / s)

    @property
    def notice(self) -> str | None:
        """What the user should know now about how the camera sees the pile (the pile cut by
        the frame's edge: see landing.aim_notice), else None."""
        return None if self._judge is None else self._judge.notice

    def fresh_notice(self) -> str | None:
        """The notice when it has come up since the last call, else None: for a screen or a
        log that says it once, not on every frame while it holds. The same notice is told
        again only after it has been gone for NOTICE_QUIET_S: the change behind it comes and
        goes with the hands (an arm reaching over the edge, a card cut by it), and `watch`
        printed the same line on frame after frame."""
        now, t = self.notice, self._last_frame[1]
        if now is None:
            return None
        fresh = self._told is None or now != self._told[0] or t - self._told[1] > NOTICE_QUIET_S
        self._told = (now, t)
        return now if fresh else None

    # -- per frame ------------------------------------------------------------------------
    def feed(self, frame_index: int, t: float, frame: np.ndarray) -> list[Event]:
        if self._norm is None:
            self._start(frame)
        assert self._norm is not None
        n = self._norm(frame)
        last_t = self._last_frame[1] if self._last_frame[0] >= 0 else t
        self._last_frame = (frame_index, t)
        if self._trail is not None:
            self._trail.feed(frame_index, n.small)
        if self._judge is None:
            self._begin(n)
            return []
        assert self._motion is not None and self._book is not None
        box = self.region.box()
        roi = roi_of(box)
        motion = self._motion.step(n, box, roi, self._book.image)
        # the reads worked out on the last frame for this one hold while nothing moves (see below)
        ahead, self._ahead = self._ahead, []
        done = [replace(r, carried=True) for r in ahead] if motion.still else []  # this frame's reads (see _read)

        def reader(judge: LandingJudge) -> Read:
            def read(view: View, at: Roi, interior: np.ndarray, outlines: Outlines | None = None) -> Reading:
                return self._read(frame, view, at, interior, done, judge.book, outlines)
            return read

        looking = self._judge.looking
        events = self._judge.step(frame_index, t, n, roi, motion, reader(self._judge))
        look = self._judge.looking
        if look is not None and look is not looking and any(r.carried and r.reading is look.readings[0] for r in done):
            # judged unsure on a reading made on the frame before: this frame is the next look
            events += self._judge.look_again(frame_index, t, n, reader(self._judge))
        dt = t - last_t
        if self.config.read_ahead and motion.still and dt > 0 and self._judge.due_next(t + dt):
            # The next frame, if still too, will be judged as settled: make its reads now, on
            # a copy of the judge judging this frame as that one, for otherwise a frame's time
            # passes idle before the read, the slow part, and the event waits on it after.
            shared = {id(self.config): self.config, id(self.config.motion): self.config.motion}
            judge = copy.deepcopy(self._judge, shared)
            judge.step(frame_index + 1, t + dt, n, roi, motion, reader(judge))
            self._ahead = [r for r in done if not r.carried]
            self._judge.judged_ahead(judge)
        return self._reported(events, frame_index)

    def finish(self) -> list[Event]:
        """The source has ended: the events still owed. A landing being read again on the
        next still frames (look_again.py) is reported as the frames so far read it, at the
        last frame fed; nothing else is held back (a landing put off while a hand seemed to
        hold its card has no reading to trust)."""
        if self._judge is None or self._judge.looking is None:
            return []
        frame_index, t = self._last_frame
        return self._reported([self._judge.looked(t, frame_index)], frame_index)

    def _reported(self, events: list[Event], frame_index: int) -> list[Event]:
        """The events as reported: each landing with the bearing of the hand that brought it."""
        out = []
        for e in events:
            out.append(self._with_bearing(e))
            self._last_event = e.hand_gone
        return out

    def _with_bearing(self, event: Event) -> Event:
        """A landing with the bearing of the hand that brought it (see bearing.py): around the
        card read, or the pile's box when no outline was read."""
        if event.event != "landed" or self._trail is None:
            return event
        assert self._norm is not None
        if event.quad is not None:
            quad = small_quad(event.quad, self._norm.scale)
        else:
            x0, y0, x1, y1 = self.region.pile or self.region.box()
            quad = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)
        found = self._trail.bearing(event.hand_gone, quad, self._last_event)
        if found is None:
            return event
        return replace(event, bearing=found.degrees, bearing_confidence=found.confidence)

    def _read(self, frame: np.ndarray, n: View, roi: Roi, interior: np.ndarray,
              done: list[DoneRead], book: PileBook,
              outlines: Outlines | None = None) -> Reading:
        """Read the top card where the pixels `interior` of `roi` changed: in a crop of the
        full-resolution frame, from the change without its halo (pile_read.py). `done` holds
        this frame's reads so far: the same crop and change read again on the same frame (a
        change at the frame's edge is read to judge it, then as a landing) is the same
        reading, and reading is the slow part. `book` is the pile's record of the judge that
        reads (a copy judging ahead has its own). `outlines` (an earlier frame's, of the same
        settled card) are read again on this frame, not searched for (top_card.read_outlines)."""
        assert self._norm is not None
        if outlines is not None:
            return read_outlines(self.recogniser, frame, outlines)
        core = without_halo(n, book.image, roi, interior, self.config.motion)
        fh, fw = frame.shape[:2]
        box, changed = reading_window(core, interior, roi, self._norm.scale, self._norm.small_size, (fw, fh))
        side = book.card_side()
        for was in done:
            if was.serves(box, changed, side) and (not was.carried or self._unchanged(was, n)):
                return was.reading
        reading = read_top_card(self.recogniser, frame, box, changed, side)
        done.append(DoneRead(box, changed, side, reading, n))
        return reading

    def _unchanged(self, was: DoneRead, n: View) -> bool:
        """Whether the crop `was` read shows as it did on the still frame it was read on,
        not a pixel changed beyond noise: the region as a whole keeping still may yet hide a
        hand that drifts over the card."""
        assert self._norm is not None
        at = roi_of(small_box(was.box, self._norm.scale, self._norm.small_size))
        return cv2.countNonZero(changed_between(n, was.view, at, self.config.motion)) == 0

    def _whole_card(self, quad: np.ndarray, early_side: float = 0.0) -> tuple[float, float] | None:
        """(short, long) sides of `quad` (working pixels) if it is a whole card's (pile_outline.whole_card)."""
        return whole_card(quad, self.region.card_size, early_side)
