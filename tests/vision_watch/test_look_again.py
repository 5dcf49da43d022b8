"""An unsurely read card is read again on the next still frames before it is reported
(look_again.py combines the readings; PileWatcher takes them)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tableref.vision.look_again import combine, is_sure
from tableref.vision.top_card import Reading
from tableref.vision.watcher import PileWatcher, WatcherConfig

from test_hand_still_holding import CARD, FPS, BrightCardReader, paint_card, table, with_arm

QUAD = np.array([[0, 0], [10, 0], [10, 15], [0, 15]], np.float32)


def _r(card: str | None, confidence: float, likely: tuple[tuple[str, float], ...] = ()) -> Reading:
    return Reading(card, confidence, QUAD, likely or (((card, confidence),) if card else ()))


def test_the_surest_reading_of_the_code_read_stands() -> None:
    got = combine([_r(None, 0.0, (("red-6", 0.4), ("red-9", 0.3))), _r("red-6", 0.7), _r("red-6", 0.95)])
    assert (got.card, got.confidence) == ("red-6", 0.95)
    assert is_sure(got) and not is_sure(_r("red-6", 0.7)) and not is_sure(_r(None, 0.0))


def test_frames_that_read_two_codes_decline_and_offer_both() -> None:
    got = combine([_r("red-6", 0.7), _r("red-9", 0.8), _r("red-9", 0.8)])
    assert got.card is None
    assert [code for code, _ in got.likely] == ["red-9", "red-6"]
    assert got.likely[0][1] > got.likely[1][1]
    # a code read only faintly beside a clear one is no disagreement
    assert combine([_r("red-6", 0.8), _r("red-9", 0.3)]).card == "red-6"


def test_frames_that_all_decline_sum_their_likely_codes() -> None:
    got = combine([_r(None, 0.0, (("red-6", 0.4), ("red-9", 0.3))), _r(None, 0.0, (("red-9", 0.5), ("red-6", 0.1)))])
    assert got.card is None and [code for code, _ in got.likely] == ["red-9", "red-6"]
    with pytest.raises(ValueError):
        combine([])


class SteadyingReader(BrightCardReader):
    """Reads the bright card as `answers[k]` on the k-th frame it is read on (`frame` is set
    by the test as it feeds them): a first frame spoilt by glare, clearer ones after."""

    def __init__(self, answers: list[tuple[str | None, float]]) -> None:
        super().__init__()
        self.answers, self.frame, self.frames_read, self.searches = answers, -1, [], 0

    def find_cards(self, crop: np.ndarray) -> list[np.ndarray]:
        self.searches += 1
        return super().find_cards(crop)

    @property
    def reads(self) -> int:
        return len(self.frames_read)

    def classify_card(self, warped: np.ndarray) -> tuple[str | None, float]:
        if warped.mean() <= self.mean:
            return None, 0.0
        if self.frame not in self.frames_read:
            self.frames_read.append(self.frame)
        return self.answers[min(self.reads, len(self.answers)) - 1]


def _frames(then: list[np.ndarray] | None = None) -> list[np.ndarray]:
    bare = np.clip(table(), 0, 255).astype(np.uint8)
    card = table()
    paint_card(card, CARD)
    card = np.clip(card, 0, 255).astype(np.uint8)
    return [bare] * 10 + [with_arm(card)] * 2 + (then if then is not None else [card] * 20)


# frame by frame as the look goes without the read ahead (test_read_ahead.py has it with)
PLAIN = WatcherConfig(read_ahead=False)
ONCE = dataclasses.replace(PLAIN, look_frames=1)  # a watcher that never looks again


def _landings(reader: SteadyingReader, frames: list[np.ndarray], config: WatcherConfig = PLAIN) -> list:
    watcher = PileWatcher(reader, config=config)
    landed = []
    for i, img in enumerate(frames):
        reader.frame = i
        landed += [e for e in watcher.feed(i, i / FPS, img) if e.event == "landed"]
    return landed


def test_an_unsure_card_is_read_again_and_reported_as_the_frames_read_it() -> None:
    once = _landings(SteadyingReader([("red-6", 0.6), ("red-6", 0.95)]), _frames(), ONCE)
    reader = SteadyingReader([("red-6", 0.6), ("red-6", 0.95)])
    again = _landings(reader, _frames())
    assert [(e.card, e.confidence) for e in once] == [("red-6", 0.6)]
    assert [(e.card, e.confidence) for e in again] == [("red-6", 0.95)]
    assert again[0].frame == once[0].frame + 1   # one frame later: the second read was sure
    # the settled card was read on two frames, on the outlines the first one's search found
    assert (reader.reads, reader.searches) == (2, 1)
    assert np.array_equal(again[0].quad, once[0].quad)


def test_frames_that_disagree_are_declined_within_the_look() -> None:
    reader = SteadyingReader([("red-6", 0.7), ("red-9", 0.8)])
    got = _landings(reader, _frames())
    assert len(got) == 1 and got[0].card is None
    assert {code for code, _ in got[0].likely} == {"red-6", "red-9"}
    assert reader.reads == WatcherConfig().look_frames   # looked no further than the bar allows
    first = _landings(SteadyingReader([("red-6", 0.7)]), _frames(), ONCE)[0]
    assert got[0].t - first.t <= WatcherConfig().look_s + 1e-9


def test_motion_while_looking_reports_what_was_read() -> None:
    card = table()
    paint_card(card, CARD)
    card = np.clip(card, 0, 255).astype(np.uint8)
    # the arm comes back on the frame after the card settled and was read unsurely
    settled = _landings(SteadyingReader([("red-6", 0.6)]), _frames(), ONCE)[0].frame
    then = [card] * (settled - 12 + 1) + [with_arm(card)] * 3 + [card] * 20
    got = _landings(SteadyingReader([("red-6", 0.6)] * 2), _frames(then))
    assert [(e.card, e.confidence) for e in got][:1] == [("red-6", 0.6)]
    assert got[0].frame == settled + 1   # reported as the arm came, not lost
