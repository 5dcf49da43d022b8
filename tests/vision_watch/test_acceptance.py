"""Acceptance of the pile watcher on seeded synthetic clips written through a real video codec.

30 clips of about 10 s at 640x360 are rendered, encoded as mp4v, read back through
`open_source` and watched; the score module matches reports to the ground truth.

Each clip is read with a recogniser for its own deck, as the app passes the game's deck: with
deck="auto" every UNO colour code competes with the colourless O'NO 99 codes, which measures
the recogniser's deck mixing rather than the watcher.
"""
from __future__ import annotations

import pathlib

import pytest

from tableref.vision.recognise import Recogniser
from tableref.vision.synth.clip_writer import write_clip
from tableref.vision.synth.scene import SceneParams
from tableref.vision.synth.score import Score, score_clip, watch_events

CLIPS = 30  # about 100 events, so that one error is 1%


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Score:
    folder: pathlib.Path = tmp_path_factory.mktemp("clips")
    recognisers: dict[str, Recogniser] = {}
    total = Score()
    for seed in range(1000, 1000 + CLIPS):
        deck = "ono99" if seed % 4 == 3 else "uno"
        truth = write_clip(SceneParams(seed=seed, deck=deck, size=(640, 360), duration=10.0),
                           folder / f"clip_{seed}.mp4")
        recogniser = recognisers.setdefault(deck, Recogniser(deck=deck))
        reported = watch_events(str(folder / f"clip_{seed}.mp4"), recogniser)
        total = total.add(score_clip(truth, reported, f"seed {seed} ({deck})"))
    print("\nwatcher acceptance:", total.summary())
    return total


def test_finds_landings_and_removals(scored: Score) -> None:
    assert scored.truth >= 60, "the clips should hold enough events to measure 99%"
    assert scored.recall >= 0.99, "\n".join(scored.misses)


def test_no_extra_or_double_reports(scored: Score) -> None:
    assert scored.extra_rate <= 0.01, "\n".join(scored.extras)


def test_reports_soon_after_the_card_settles(scored: Score) -> None:
    assert scored.latency_p95 <= 0.3
    assert min(scored.latencies) >= -0.2, "reported before the hand had left the pile"


# The target is 97% (issue 3). The watcher read 74.7% of these cards with deck="auto" when the
# recogniser's finder alone found the card; with outlines fitted to the change (card_fit.py)
# and each clip's deck it reads 99.0% (98/99; deck="auto" adds O'NO 99 cards read as UNO colour
# codes). With the printed-style numerals and outlines voting (top_card.py) it reads 98.0%
# (97/99). This floor guards that against regressions.
READ_FLOOR = 0.96


def test_reads_the_cards_it_finds(scored: Score) -> None:
    assert scored.read_accuracy >= READ_FLOOR, "\n".join(scored.misreads)
