"""The watcher reports exactly the golden event stream on the safety net's clips
(event_stream.py): every field `tableref watch --json` prints, the bearing among them, and
each landing's outline. The golden was taken before the watcher was split into its stages;
a change in what the watcher reports must show here, and be taken anew on purpose."""
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
    assert [as_golden(e) for e in watch(deck, spec, recognisers)] == golden
