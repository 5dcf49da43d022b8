"""PileWatcher where the watched region ends at the frame's edge.

A change reaching the region's edge may be an arm; where that edge is the frame's, growing
the region cannot tell. A card lying near the frame's edge reaches it only with the ratio
view's halo, its own pixels short of the edge; an arm crossing it changes right at the edge."""
from __future__ import annotations

import cv2
import numpy as np

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import _GRAIN, FPS, BrightCardReader, paint_card, table, with_arm

NEAR_TOP = (130, 8, 190, 98)   # a card 8 pixels below the frame's top edge


def _frame(cards: list[tuple[int, int, int, int]], arm_at_top: bool = False) -> np.ndarray:
    img = table()
    for box in cards:
        paint_card(img, box)
    if arm_at_top:
        # a grey sleeve reaching down from the frame's top edge to the card's far end: its
        # brightness, not its colour, tells it from the table
        img[0:30, 140:180] = 150 + 2 * _GRAIN[0:30, 140:180]
    return np.clip(img, 0, 255).astype(np.uint8)


def _watch(frames: list[np.ndarray]) -> list[dict]:
    watcher = PileWatcher(BrightCardReader())
    return [e.as_json() for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]


def test_a_card_landing_near_the_frame_s_edge_is_reported() -> None:
    # before, its halo at the edge read as an arm that never left: the card was never reported
    frames = [_frame([])] * 10 + [with_arm(_frame([NEAR_TOP]))] * 2 + [_frame([NEAR_TOP])] * 30
    events = _watch(frames)
    assert [e["event"] for e in events] == ["landed"]
    assert events[0]["frame"] <= 12 + 10   # settling, then 0.2 s of stillness


def test_an_arm_across_the_frame_s_edge_holding_the_card_still_is_waited_for() -> None:
    # the hand holds the card on the pile for a second, its arm across the frame's top edge
    held = _frame([NEAR_TOP], arm_at_top=True)
    frames = [_frame([])] * 10 + [held] * 25 + [_frame([NEAR_TOP])] * 20
    events = _watch(frames)
    assert [e["event"] for e in events] == ["landed"]
    assert events[0]["frame"] >= 35   # once the arm has gone


def test_a_card_near_the_frame_s_edge_is_reported_through_a_compressed_video_s_blips() -> None:
    # A compressed video of a striped cloth: a few pixels blink every 5 frames (0.2 s), too
    # many to count as still, far too few for a hand. Before, the halo rule waited for 0.2 s
    # of stillness that never came, and the card was never reported (other_clips seed 951,
    # --jpeg 40: it was, 2 s late, only where 6 frames at 30 fps came out 0.2 s).
    settled = _frame([NEAR_TOP])
    blink = settled.copy()
    blink[200:206, 30:36] = 200
    frames = [_frame([])] * 10 + [with_arm(_frame([NEAR_TOP]))] * 2
    frames += [blink if i % 5 == 0 else settled for i in range(40)]
    events = _watch(frames)
    assert [e["event"] for e in events] == ["landed"]
    assert events[0]["frame"] <= 12 + 10



CUT_TOP = (130, -30, 190, 60)   # a card whose far third lies beyond the frame's top edge
SETTLED = 17  # the frame on which the watcher first reads it at rest (the halo rule's 0.2 s after its arm)


class CutCardReader(BrightCardReader):
    """Outlines the bright card and, where the frame's top edge cuts it, fits its whole outline
    beyond the edge (as the real finder does); reads no card until the frame after the first
    still one, as where that frame shows the card not quite at rest (other_clips clip 913 at
    15 fps, a red 9 cut by the frame's top edge)."""

    def __init__(self) -> None:
        super().__init__()
        self.frame = 0   # the frame being watched (the test sets it)

    def find_cards(self, crop: np.ndarray) -> list[np.ndarray]:
        pts = cv2.findNonZero((crop.min(axis=2) >= self.white).astype(np.uint8))
        if pts is None:
            return []
        x, y, w, h = cv2.boundingRect(pts)
        top = y + h - 90 if y == 0 else y   # the card is 90 pixels long
        return [np.array([[x, top], [x + w, top], [x + w, y + h], [x, y + h]], np.float32)]

    def classify_card(self, warped: np.ndarray) -> tuple[str | None, float]:
        return (None, 0.0) if self.frame <= SETTLED else ("red-6", 0.9)


def _cut_frame(card: bool) -> np.ndarray:
    img = table()
    if card:
        canvas = np.zeros((img.shape[0] + 40, img.shape[1], 3), np.int32)
        canvas[40:] = img
        x0, y0, x1, y1 = CUT_TOP
        paint_card(canvas, (x0, y0 + 40, x1, y1 + 40))
        img = canvas[40:]
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_card_the_frame_cuts_unread_on_its_first_still_frame_is_read_on_the_next() -> None:
    # the change across the frame's edge is read on the first still frames, not only the
    # first: before, it waited as an arm until the region grew (1.2 s in that clip)
    frames = [_cut_frame(False)] * 10 + [with_arm(_cut_frame(True))] * 2 + [_cut_frame(True)] * 40
    reader = CutCardReader()
    watcher = PileWatcher(reader)
    events = []
    for i, img in enumerate(frames):
        reader.frame = i
        events += [e.as_json() for e in watcher.feed(i, i / FPS, img)]
    assert [(e["event"], e["card"]) for e in events] == [("landed", "red-6")]
    assert events[0]["frame"] <= SETTLED + 2
