"""A landing still being read again when the source ends is reported, with what was read:
the stream's end is no motion, so without finish() the look would never end."""
from __future__ import annotations

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import FPS
from test_look_again import ONCE, PLAIN, SteadyingReader, _frames


def _fed(watcher: PileWatcher, frames: list) -> list:
    return [e for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]


def test_a_card_read_once_unsurely_as_the_stream_ends_is_reported() -> None:
    frames = _frames()
    # where the first (unsure) read falls: a watcher that never looks again reports it there
    # (frame by frame as the look goes without the read ahead: see test_look_again.py)
    once = _fed(PileWatcher(SteadyingReader([("red-6", 0.6)]), config=ONCE), frames)
    assert [(e.event, e.card, e.confidence) for e in once] == [("landed", "red-6", 0.6)]
    ends = once[0].frame + 1  # the stream ends right after that read
    watcher = PileWatcher(SteadyingReader([("red-6", 0.6), ("red-6", 0.95)]), config=PLAIN)
    assert _fed(watcher, frames[:ends]) == []  # still looking: a second read would decide
    flushed = watcher.finish()
    assert [(e.event, e.card, e.confidence, e.frame) for e in flushed] == [("landed", "red-6", 0.6, once[0].frame)]
    assert flushed[0].likely == once[0].likely and flushed[0].quad == once[0].quad
    assert watcher.finish() == []  # reported once


def test_nothing_is_owed_when_no_card_is_being_looked_at() -> None:
    frames = _frames()
    watcher = PileWatcher(SteadyingReader([("red-6", 0.95)]))
    assert [(e.card, e.confidence) for e in _fed(watcher, frames)] == [("red-6", 0.95)]
    assert watcher.finish() == []
    assert PileWatcher().finish() == []  # nor before any frame
