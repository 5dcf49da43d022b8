"""Acceptance of the bearings on a few seeded clips written through a real video codec: the
seat named by each landing's bearing (the nearest seat bearing) is the one that played it,
for at least 98% of the landings found, with 8 players and with seats spaced unevenly.

The full figure, per player count at 640x360 and 1280x720, comes from
`tools/eval_pile.py --seats 2 3 4 5 6 8 --uneven` (slow: minutes)."""
from __future__ import annotations

import pathlib

import pytest

from tableref.vision.recognise import Recogniser
from tableref.vision.synth.clip_writer import write_clip
from tableref.vision.synth.scene import parse_spec
from tableref.vision.synth.score import Score, score_clip, watch_events

CLIPS = ("seed=2000,players=8,uneven=1", "seed=2001,players=5,uneven=1", "seed=2002,players=8",
         "seed=2003")


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Score:
    folder: pathlib.Path = tmp_path_factory.mktemp("seat_clips")
    recogniser = Recogniser(deck="uno")
    total = Score()
    for i, spec in enumerate(CLIPS):
        truth = write_clip(parse_spec(f"{spec},size=640x360,duration=10"), folder / f"clip_{i}.mp4")
        total = total.add(score_clip(truth, watch_events(str(folder / f"clip_{i}.mp4"), recogniser), spec))
    print("\nseat acceptance:", total.summary(), ";", total.seat_summary())
    return total


def test_the_bearing_names_the_seat_that_played(scored: Score) -> None:
    assert len(scored.seats) >= 8, "the clips should hold enough landings to tell"
    assert scored.seat_accuracy >= 0.98, "\n".join(scored.seat_errors)

