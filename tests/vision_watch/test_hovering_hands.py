"""Empty hands from the scene generator that come over the pile, rest there for 0.4-0.6 s
and go, at 1280x720. Their arms hardly show against the table (skin or sleeve of its
colour and brightness), so nothing at rest reaches the watched region's edge; what does
show reads as no card, or is no more than fingertips. None of them is an event, and the
clips' cards are all found."""
from __future__ import annotations

import pytest

from tableref.vision.recognise import Recogniser
from tableref.vision.sources import open_source
from tableref.vision.synth.score import score_clip, watch_events


@pytest.fixture(scope="module")
def recogniser() -> Recogniser:
    return Recogniser(deck="uno")


@pytest.mark.parametrize("seed", [1225, 1317, 1326])
def test_an_empty_hand_at_rest_over_the_pile_is_no_event(seed: int, recogniser: Recogniser) -> None:
    spec = f"synth:seed={seed},size=1280x720,duration=10"
    source = open_source(spec)
    truth = source.ground_truth()  # type: ignore[attr-defined]
    source.close()
    assert any(a.kind == "pass" for a in source.scene.script.actions)  # type: ignore[attr-defined]
    score = score_clip(truth, watch_events(spec, recogniser), f"seed {seed}")
    assert score.extras == [] and score.misses == []
