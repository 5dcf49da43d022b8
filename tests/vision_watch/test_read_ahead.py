"""PileWatcher reads a settling card one frame ahead: on the first still frame it makes the
reads that the next frame, if still too, will be judged with, so that the event does not
wait on the read after the card has settled. The next frame uses such a read only where
its crop shows as it did; anything moving throws the work away."""
from __future__ import annotations

import numpy as np

from tableref.vision.watcher import PileWatcher, WatcherConfig

from test_hand_still_holding import CARD, FPS, BrightCardReader, paint_card, table, with_arm

FIRST_STILL = 13  # the first frame after the arm left (12) that shows no motion (see _frames)


class FrameReader(BrightCardReader):
    """Reads the bright card as red-6 on frames up to `turn`, as red-9 after: which frame a
    reading was made on shows in what it says. `frame` is set by the test as it feeds."""

    def __init__(self, turn: int) -> None:
        super().__init__()
        self.turn, self.frame, self.frames_read = turn, -1, []

    def classify_card(self, warped: np.ndarray) -> tuple[str | None, float]:
        if warped.mean() <= self.mean:
            return None, 0.0
        self.frames_read.append(self.frame)
        return ("red-6", 0.95) if self.frame <= self.turn else ("red-9", 0.95)


def _card(speck: bool = False) -> np.ndarray:
    img = table()
    paint_card(img, CARD)
    if speck:  # a fingertip's shadow, too little to count as motion in the region
        img[100:105, 150:155] = 30
    return np.clip(img, 0, 255).astype(np.uint8)


def _frames(after: list[np.ndarray]) -> list[np.ndarray]:
    bare = np.clip(table(), 0, 255).astype(np.uint8)
    return [bare] * 10 + [with_arm(_card())] * 2 + after


def _watch(frames: list[np.ndarray], reader: FrameReader, read_ahead: bool = True) -> list[tuple[str | None, int]]:
    watcher = PileWatcher(reader, config=WatcherConfig(read_ahead=read_ahead))
    out = []
    for i, img in enumerate(frames):
        reader.frame = i
        out += [(e.card, e.frame) for e in watcher.feed(i, i / FPS, img) if e.event == "landed"]
    return out


def test_the_settled_frame_is_judged_with_the_read_made_on_the_frame_before() -> None:
    frames = _frames([_card()] * 20)
    ahead, plain = FrameReader(turn=FIRST_STILL), FrameReader(turn=FIRST_STILL)
    # reported on the same frame either way; read ahead, it is the first still frame's reading
    assert _watch(frames, ahead) == [("red-6", FIRST_STILL + 1)]
    assert _watch(frames, plain, read_ahead=False) == [("red-9", FIRST_STILL + 1)]
    assert FIRST_STILL + 1 not in ahead.frames_read and FIRST_STILL in ahead.frames_read
    assert set(plain.frames_read) == {FIRST_STILL + 1}


def test_a_crop_that_changed_since_is_read_again() -> None:
    # the region keeps still, but a speck came onto the card: the read made ahead is not used
    reader = FrameReader(turn=FIRST_STILL)
    assert _watch(_frames([_card()] * 2 + [_card(speck=True)] * 20), reader) == [("red-9", FIRST_STILL + 1)]
    assert FIRST_STILL + 1 in reader.frames_read


def test_a_frame_that_moves_throws_the_work_ahead_away() -> None:
    # the arm comes back on the frame after the first still one, and leaves again
    after = [_card()] * 2 + [with_arm(_card())] * 3 + [_card()] * 20
    reader = FrameReader(turn=FIRST_STILL)
    got = _watch(_frames(after), reader)
    settled = FIRST_STILL + 3 + 3  # the arm gone again (17), then two still frames
    assert got == _watch(_frames(after), FrameReader(turn=FIRST_STILL), read_ahead=False) == [("red-9", settled)]


class UnsureReader(FrameReader):
    """Reads the bright card as red-6, unsurely on the frames up to `turn`, surely after."""

    def classify_card(self, warped: np.ndarray) -> tuple[str | None, float]:
        code, _ = super().classify_card(warped)
        return ("red-6", 0.6 if self.frame <= self.turn else 0.95) if code else (None, 0.0)


def test_an_unsure_reading_made_ahead_is_looked_at_again_on_the_settled_frame() -> None:
    # read unsurely on the first still frame, ahead: the settled frame is the next look, so
    # the card is reported on it, a frame sooner than the look without the read ahead
    frames = _frames([_card()] * 20)
    ahead, plain = UnsureReader(turn=FIRST_STILL), UnsureReader(turn=FIRST_STILL + 1)
    got, before = _watch(frames, ahead), _watch(frames, plain, read_ahead=False)
    assert [card for card, _ in got] == [card for card, _ in before] == ["red-6"]
    assert got[0][1] == FIRST_STILL + 1 and before[0][1] == FIRST_STILL + 2
    assert sorted(set(ahead.frames_read)) == [FIRST_STILL, FIRST_STILL + 1]
