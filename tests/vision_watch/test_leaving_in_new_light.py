"""PileWatcher and a hand that leaves while the camera's exposure is still moving: the ratio
view sees the hand go whatever the exposure does, so the card is reported when all is still,
not a second later as a landing that waited for a hand it had not seen leave."""
from __future__ import annotations

import numpy as np

from tableref.vision.watcher import PileWatcher

from test_hand_still_holding import FPS, BrightCardReader, _frame, _hand_moving


def _dimmed(frames: list[np.ndarray], gains: list[float]) -> list[np.ndarray]:
    return [np.clip(f * g, 0, 255).astype(np.uint8) for f, g in zip(frames, gains)]


def test_a_hand_leaving_while_the_exposure_moves_is_seen_leaving() -> None:
    # the hand brings the card in from the frame's edge, reaches over it and draws back a
    # little as it lets go, all clear of the edge (its sleeve is the table's colour); it rests
    # 0.8 s, and as it leaves, the camera turns its exposure down 3 % a frame (a lamp came on)
    arrive, leave = _hand_moving((70, 40, 8, -8)), _hand_moving((10, 30, 60, 80))
    gains = [0.97, 0.94, 0.91, 0.88]
    frames = ([_frame(False, False)] * 10 + arrive + [_frame(True, True)] * 20 + _dimmed(leave, gains)
              + _dimmed([_frame(True, False)] * 40, [gains[-1]] * 40))
    watcher = PileWatcher(BrightCardReader(white=180, mean=160))  # dimmed by up to an eighth
    events = [e.as_json() for i, img in enumerate(frames) for e in watcher.feed(i, i / FPS, img)]
    assert [(e["event"], e["card"]) for e in events] == [("landed", "red-6")]
    gone = 10 + len(arrive) + 20 + len(leave)
    assert events[0]["frame"] <= gone + 0.3 * FPS
