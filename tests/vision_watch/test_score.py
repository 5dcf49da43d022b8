"""score_clip: how watcher reports are matched to the ground truth (the acceptance yardstick)."""
from __future__ import annotations

from tableref.vision.synth.score import score_clip

TRUTH = {"fps": 25.0, "events": [{"type": "landed", "card": "red-6", "frame": 50},
                                 {"type": "landed", "card": "blue-2", "frame": 100},
                                 {"type": "removed", "card": "blue-2", "frame": 150}]}


def report(event: str, card: str | None, frame: int) -> dict:
    return {"event": event, "card": card, "frame": frame}


def test_each_true_event_takes_one_report_in_its_window() -> None:
    s = score_clip(TRUTH, [report("landed", "red-6", 54), report("landed", "red-6", 56),
                           report("landed", None, 103), report("removed", "blue-2", 180)])
    assert (s.truth, s.found, s.extra) == (3, 3, 1)            # the second red-6 is a double report
    assert s.reads == [("red-6", True), ("blue-2", False), ("blue-2", True)]
    assert (s.read_correct, s.read_accuracy) == (2, 2 / 3)
    assert s.latencies == [4 / 25, 3 / 25, 30 / 25]
    assert s.misreads == [": frame 100 landed blue-2 read as None"]


def test_a_report_too_early_too_late_or_of_the_other_kind_is_no_match() -> None:
    s = score_clip(TRUTH, [report("landed", "red-6", 50 - 13), report("removed", "blue-2", 100),
                           report("removed", "blue-2", 150 + 38)])
    assert (s.found, s.extra, len(s.misses)) == (0, 3, 3)


def test_scores_add_up_over_clips() -> None:
    a = score_clip(TRUTH, [report("landed", "red-6", 50)])
    b = score_clip(TRUTH, [report("landed", "blue-2", 100), report("landed", "green-1", 120)])
    total = a.add(b)
    assert (total.truth, total.found, total.extra, total.read_correct) == (6, 2, 1, 2)
    assert len(total.misses) == 4


def test_a_missed_card_does_not_pass_its_window_on_to_the_next_cards_report() -> None:
    # landings 0.9 s apart: the second card's report falls in the first one's window too
    truth = {"fps": 25.0, "events": [{"type": "landed", "card": "yellow-3", "frame": 105},
                                     {"type": "landed", "card": "red-reverse", "frame": 128},
                                     {"type": "landed", "card": "yellow-7", "frame": 156}]}
    s = score_clip(truth, [report("landed", "red-reverse", 130), report("landed", "yellow-7", 159)])
    assert (s.found, s.extra, s.read_correct) == (2, 0, 2)
    assert s.misses == [": landed yellow-3 settled at frame 105"]
    assert s.latencies == [2 / 25, 3 / 25]


def test_a_misread_still_takes_the_report_in_its_window() -> None:
    s = score_clip(TRUTH, [report("landed", "red-6", 50), report("landed", "red-6", 101)])
    assert (s.found, s.extra, s.read_correct) == (2, 0, 1)
    assert s.misreads == [": frame 100 landed blue-2 read as red-6"]


def test_seats_count_the_unsure_and_the_sure_but_wrong_apart() -> None:
    truth = {"fps": 25.0, "seat_bearings": [90.0, 270.0], "events": [
        {"type": "landed", "card": "red-6", "frame": 50, "seat": 0, "bearing": 92.0},
        {"type": "landed", "card": "blue-2", "frame": 100, "seat": 1, "bearing": 268.0},
        {"type": "landed", "card": "green-1", "frame": 150, "seat": 1, "bearing": 271.0}]}
    reported = [dict(report("landed", "red-6", 50), bearing=95.0, bearing_confidence=0.9),  # sure, right
                dict(report("landed", "blue-2", 100), bearing=80.0, bearing_confidence=0.3),  # unsure, wrong
                dict(report("landed", "green-1", 150), bearing=100.0, bearing_confidence=0.95)]  # sure, wrong
    s = score_clip(truth, reported)
    assert s.seats == [True, False, False]
    assert s.seat_summary().endswith("below the referee's confidence 1, sure but wrong 1")
