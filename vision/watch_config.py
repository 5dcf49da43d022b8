"""The pile watcher's tunables, in one object a sweep or an evaluation tool can set
(`PileWatcher(config=WatcherConfig(look_frames=3))`). Times are seconds of video; fractions
are of the working-size frame (motion.py) unless said otherwise.

The confidence levels are here because they follow the reader: a reader calibrated anew
(or another one) moves them. Constants that describe geometry rather than trade a miss
against a false report stay beside the code that uses them, each with its reason: how a
card covers the change it made (landing.py, pile_outline.py), the floors of the pixel
counts for tiny frames (pile_change.py), how far a hand's middle moves (pile_motion.py)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .motion import MotionConfig

TICK = 1e-3  # seconds: a video's times are frame counts over its rate, so 6 frames at 30 fps come out 0.19999...


def lasted(since: float, t: float, s: float) -> bool:
    """Whether `s` seconds have passed from `since` to `t`, counting a whole number of
    frames as the time it is (frames 607 to 613 at 30 fps are 0.2 s, though their times
    differ by 0.19999...: with a compressed video's motion blips every 7 frames, the
    halo rule missed its one chance in 0.23 s, and a card by the frame's edge was lost)."""
    return t - since >= s - TICK


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
    # ... touching only the frame's edge, with no more than a faint motion for this long: may be
    # a card's halo (see pile_change.at_edge)
    halo_after_s: float = 0.2
    absorb_after_s: float = 4.0  # ... and if all stays still, take it into the pile image as background
    absorb_stale_s: float = 6.0  # ... or if that piece stays put this long whatever moves around it
    aim_notice_s: float = 2.0  # ... and a still change across the frame's own edge this long: tell the user (landing.aim_notice)
    history: int = 32
    beside_share: float = 0.2  # change beside the card read, this share of its area, is a hand,
    defer_still_s: float = 1.0  # ... unless nothing moves for this long,
    defer_max_s: float = 3.0  # ... and for at most this long after the landing was first put off
    bearings: bool = True  # follow what moves over the whole frame, to tell where each card came from
    look_frames: int = 2  # an unsure reading of a settled card is taken on up to this many still frames,
    look_s: float = 0.1  # ... for at most this long after the first (see look_again.py),
    look_sure: float = 0.9  # ... unless the readings together are this sure,
    look_conflict: float = 0.5  # ... where a second code read this surely makes them disagree (declined)
    early_confidence: float = 0.9  # a card read this surely is reported while the hand is still leaving
    side_confidence: float = 0.6  # a reading this sure came from a whole card's outline: its size is the cards'
    # work out on the first still frame what the next will be judged to show, if it keeps
    # still (watcher.feed): the read then costs no time after the card has settled
    read_ahead: bool = True
    beside_reach: float = 0.3  # change further than this many card short sides from the card read lies beside it
