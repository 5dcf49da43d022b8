"""Debouncer (short/long presses from raw levels) and the tone sequencer."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

import config
from tableboard.debounce import Debouncer
from tableboard.tones import TONES, ToneSequencer
from tablelink.show import CUES

STEP = 10


def run(levels: list[tuple[int, bool]]) -> list[tuple[int, str]]:
    """Sample a piecewise-constant level (list of (duration ms, pressed)) every STEP ms."""
    d = Debouncer(config.DEBOUNCE_MS, config.LONG_PRESS_MS)
    events, t = [], 0
    for dur, level in levels:
        for _ in range(dur // STEP):
            ev = d.update(level, t)
            if ev:
                events.append((t, ev))
            t += STEP
    return events


def test_short_and_long_presses() -> None:
    assert [e for _, e in run([(100, False), (200, True), (200, False)])] == ["short"]
    long_ = run([(100, False), (config.LONG_PRESS_MS + 300, True), (200, False)])
    assert [e for _, e in long_] == ["long"]
    # long fires while still held, LONG_PRESS_MS after the press was first seen
    assert long_[0][0] == 100 + config.LONG_PRESS_MS


def test_bounces_shorter_than_the_debounce_time_are_ignored() -> None:
    chatter = [(STEP, True), (STEP, False)] * 5
    assert run([(100, False)] + chatter + [(200, False)]) == []
    # a bouncy press and release is still exactly one press
    assert [e for _, e in run([(100, False)] + chatter + [(300, True)] + chatter
                              + [(200, False)])] == ["short"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 120).map(lambda k: k * STEP), st.booleans()),
                max_size=30))
def test_at_most_one_event_per_debounced_press(levels: list) -> None:
    events = run(levels + [(200, False)])
    merged: list[list] = []  # adjacent segments at the same level are one segment
    for dur, lv in levels:
        if merged and merged[-1][1] == lv:
            merged[-1][0] += dur
        else:
            merged.append([dur, lv])
    presses = sum(1 for dur, lv in merged if lv and dur >= config.DEBOUNCE_MS)
    assert len(events) <= presses


def test_every_cue_has_a_tone_and_the_sequencer_plays_it_then_stops() -> None:
    assert set(CUES) <= set(TONES)
    seq = ToneSequencer()
    assert seq.freq(0) == 0
    seq.start("illegal", 1000)
    steps = TONES["illegal"]
    t = 1000
    for f, ms in steps:
        assert seq.freq(t) == f and seq.freq(t + ms - 1) == f
        t += ms
    assert seq.freq(t) == 0 and seq.freq(t + 5000) == 0
    seq.start("turn", 20_000)
    assert seq.freq(20_000) == TONES["turn"][0][0]
