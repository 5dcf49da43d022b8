"""PileWatcher reads a crop and its change once per frame: a card the frame's edge cuts is
read to judge whether it is a card and not an arm, then as the landing, on the same frame;
the second read is the first one's reading (reading is the slow part). Real recogniser, on
the second clip generator's clip whose pile lies at the frame's bottom edge."""
from __future__ import annotations

import pathlib
import sys

from tableref.vision import watcher as watcher_module
from tableref.vision.recognise import Recogniser
from tableref.vision.synth.score import score_clip, watch_events
from tableref.vision.watcher import PileWatcher

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))

from other_clips import OtherScene  # noqa: E402


def test_cards_cut_by_the_frame_s_edge_are_read_once_per_frame(tmp_path: pathlib.Path, monkeypatch) -> None:
    scene = OtherScene(7, (640, 360), players=3, pile_at=(0.5, 0.86), plays=6)
    path = tmp_path / "edge.mp4"
    scene.write(path)
    real_read, real_feed = watcher_module.read_top_card, PileWatcher.feed
    now = [-1]  # the frame being fed
    reads: list[int] = []  # the frame of each read

    def feed(self, frame_index, *args, **kwargs):
        now[0] = frame_index
        return real_feed(self, frame_index, *args, **kwargs)

    def spied(*args, **kwargs):
        reads.append(now[0])
        return real_read(*args, **kwargs)

    monkeypatch.setattr(PileWatcher, "feed", feed)
    monkeypatch.setattr(watcher_module, "read_top_card", spied)
    score = score_clip(scene.truth(), watch_events(str(path), Recogniser(deck="uno")), "edge")
    assert score.found == score.truth and score.read_correct == score.found, score.misses + score.misreads
    assert len(reads) >= score.found, "every card was read"
    assert len(reads) == len(set(reads)), f"a frame was read twice: {reads}"
