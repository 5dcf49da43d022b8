"""The watcher reports exactly the golden event stream on the safety net's clips
(event_stream.py): every field `tableref watch --json` prints, the bearing among them, and
each landing's outline. The golden was taken before the watcher was split into its stages;
a change in what the watcher reports must show here, and be taken anew on purpose.

Numbers agree to one step of the golden's coarsest rounding (0.01): OpenCV's thread count
changes the last bits of the learned reader's sums (cv2.setNumThreads, which other tests
set), and a value on a rounding edge (a runner-up's 0.0265) then prints either way."""
from __future__ import annotations

import json

import pytest

from event_stream import CLIPS, GOLDEN, as_golden, watch


@pytest.fixture(scope="module")
def recognisers() -> dict:
    return {}


@pytest.mark.parametrize("deck,spec", CLIPS)
def test_the_watcher_reports_the_golden_events(deck: str, spec: str, recognisers: dict) -> None:
    golden = json.loads(GOLDEN.read_text())[f"{deck} {spec}"]
    assert golden, "every clip of the safety net has events to compare"
    got = [as_golden(e) for e in watch(deck, spec, recognisers)]
    assert same(got, golden), json.dumps(got)


STEP = 0.011  # one step of the golden's coarsest rounding, and a little for the float


def same(a: object, b: object) -> bool:
    """Equal, numbers within STEP (not booleans, strings, codes or the count of events)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
            and not isinstance(b, bool) and abs(a - b) <= STEP
    return a == b


def test_numbers_agree_to_one_step_and_nothing_else_is_loosened() -> None:
    card = {"event": "landed", "card": "red-6", "frame": 12, "confidence": 0.027, "likely": [["red-6", 0.9]]}
    assert same(card, {**card, "confidence": 0.026})
    assert not same(card, {**card, "confidence": 0.05})
    assert not same(card, {**card, "card": "red-9"})
    assert not same(card, {**card, "frame": 13})
    assert not same([card], [card, card])
