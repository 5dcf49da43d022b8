"""tablelink.show: ring colours, 7-segment text and cues for snapshots."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from strategies import snapshots
from tableboard.segments import known
from tablelink import show
from tablelink.messages import Snapshot

E = "0a1b2c3d"


def snap(**kw) -> Snapshot:
    base = dict(epoch=E, seq=1, players=4, turn=1, direction="cw", elim=0, total=42)
    base.update(kw)
    return Snapshot(**base)


def chase_positions(s: Snapshot, pixels: int) -> list[int]:
    out = []
    for k in range(6):
        ring = show.ring(s, k * show.CHASE_STEP_MS, pixels)
        out.append([i for i, c in enumerate(ring) if c == show.CHASE])
    return [p[0] for p in out if p]


def test_seats_spread_evenly_and_distinctly() -> None:
    for pixels in (12, 16, 24):
        for players in range(2, 11):
            px = [show.seat_pixel(s, players, pixels) for s in range(players)]
            assert px[0] == 0 and px == sorted(set(px)) and px[-1] < pixels
            gaps = [b - a for a, b in zip(px, px[1:] + [pixels])]
            assert max(gaps) - min(gaps) <= 1


def test_current_seat_bright_others_dim_eliminated_red() -> None:
    s = snap(players=4, turn=1, elim=0b0100)
    ring = show.ring(s, 0, 12)
    assert ring[3] == show.WHITE
    assert ring[6] == show.SEAT_ELIM
    assert ring[9] == show.SEAT_IDLE
    assert len(ring) == 12


def test_direction_is_a_chase_moving_with_time() -> None:
    cw = chase_positions(snap(players=2, turn=0, direction="cw"), 24)
    ccw = chase_positions(snap(players=2, turn=0, direction="ccw"), 24)
    assert len(cw) >= 4 and len(ccw) >= 4
    assert all((b - a) % 24 == 1 for a, b in zip(cw, cw[1:]))
    assert all((a - b) % 24 == 1 for a, b in zip(ccw, ccw[1:]))


def test_active_colour_and_pending_blink() -> None:
    s = snap(total=None, colour="green", pend="d4")
    on = show.ring(s, 0, 12)
    off = show.ring(s, show.BLINK_MS, 12)
    assert on[3] == show.COLOUR_RGB["green"] and off[3] != on[3]
    free = [c for i, c in enumerate(on) if i not in (0, 3, 6, 9) and c != show.CHASE]
    assert free and all(c[1] > 0 and c[0] == 0 and c[2] == 0 for c in free)
    steady = snap(total=None, colour="green")
    assert show.ring(steady, 0, 12)[3] == show.ring(steady, show.BLINK_MS, 12)[3]


def test_game_over_blinks_the_winner_and_stops_the_chase() -> None:
    s = snap(mode="over", winner=2, turn=None)
    a, b = show.ring(s, 0, 12), show.ring(s, show.BLINK_MS, 12)
    assert a[6] == show.WIN and b[6] == show.OFF
    assert show.CHASE not in a + b


def test_waiting_ring_before_the_first_snapshot_and_when_lost() -> None:
    for ring in (show.ring(None, 0, 12), show.ring(snap(), 0, 12, lost=True)):
        assert ring.count(show.WAIT_DOT) == 1 and ring.count(show.WAIT_DIM) == 11
    a = show.ring(None, 0, 12).index(show.WAIT_DOT)
    b = show.ring(None, show.WAIT_STEP_MS, 12).index(show.WAIT_DOT)
    assert b == (a + 1) % 12


def test_picking_a_colour_fills_the_ring() -> None:
    ring = show.ring(snap(colour="red"), 0, 12, picking="blue")
    assert ring[3] == show.COLOUR_RGB["blue"]
    assert all(c != (0, 0, 0) and c[2] > c[0] for c in ring)


@pytest.mark.parametrize("kw,text", [
    (dict(total=42), "  42"), (dict(total=-4), "  -4"), (dict(total=99), "  99"),
    (dict(total=123456), "9999"), (dict(total=-5000), "-999"),
    (dict(total=None, pend="d4"), "  +4"), (dict(total=None, pend="d12"), " +12"),
    (dict(total=None, pend="r"), "rOUL"), (dict(total=None), "    "),
    (dict(total=42, err=3), "ErrC"), (dict(total=None, mode="over", winner=1), "End "),
    (dict(total=95, mode="over", winner=1), "  95"),
])
def test_digits(kw: dict, text: str) -> None:
    assert show.digits(snap(**kw), 0) == text


def test_digits_alternate_for_play_k_ask_and_lost() -> None:
    t = show.ALTERNATE_MS
    p2 = snap(total=80, pend="p2")
    assert [show.digits(p2, k * t) for k in range(3)] == ["  80", "PL 2", "  80"]
    ask = snap(total=12, mode="ask")
    assert [show.digits(ask, k * t) for k in range(2)] == ["  12", "CArd"]
    s = snap(total=-4)
    assert [show.digits(s, k * t, lost=True) for k in range(3)] == ["LOSt", "  -4", "LOSt"]
    assert show.digits(None, 0) == "----"


@settings(max_examples=200, deadline=None)
@given(snapshots(), st.integers(0, 10**7), st.booleans(), st.sampled_from([12, 16, 24]))
def test_every_view_is_displayable(s: Snapshot, now: int, lost: bool, pixels: int) -> None:
    text = show.digits(s, now, lost)
    assert len(text) == 4 and all(known(ch) for ch in text)
    ring = show.ring(s, now, pixels, lost)
    assert len(ring) == pixels
    assert all(len(c) == 3 and all(0 <= v <= 255 for v in c) for c in ring)


def test_cues_from_changes_most_important_first() -> None:
    a = snap(turn=0, total=80)
    assert show.cues(None, a) == []
    assert show.cues(a, snap(turn=0, total=80, seq=2)) == []  # heartbeat-like: nothing new
    assert show.cues(a, snap(turn=1, total=85)) == ["turn"]
    assert show.cues(a, snap(turn=1, total=92)) == ["danger", "turn"]
    assert show.cues(snap(total=92), snap(total=95)) == []  # already in danger
    assert show.cues(a, snap(turn=0, total=80, err=7)) == ["illegal"]
    assert show.cues(snap(err=7), snap(err=7)) == [] and show.cue(snap(err=7), snap(err=8)) == "illegal"
    assert show.cues(a, snap(turn=2, total=80, elim=0b01)) == ["bust", "turn"]
    assert show.cue(a, snap(turn=None, total=101, elim=0b11, winner=2, mode="over")) == "win"
    assert show.cue(a, a) is None


def test_brightness_cap_applies_to_every_channel() -> None:
    capped = show.apply_cap([(255, 255, 255), (128, 0, 64), (0, 0, 0)], 64)
    assert capped == [(64, 64, 64), (32, 0, 16), (0, 0, 0)]


def test_credited_seat_flashes_over_what_it_shows() -> None:
    s = snap(players=4, turn=1, credit=3)
    px = show.seat_pixel(3, 4, 12)
    on, off = show.ring(s, 0, 12), show.ring(s, show.FLASH_MS, 12)
    assert on[px] == show.CREDIT and off[px] == show.SEAT_IDLE
    plain = show.ring(snap(players=4, turn=1), 0, 12)
    assert [c for i, c in enumerate(on) if i != px] == [c for i, c in enumerate(plain) if i != px]


def _decks() -> dict[str, frozenset[str]]:
    from tableref.rules import RULESETS
    return {cls.game: frozenset(cls.codes) for cls in RULESETS}


def test_every_code_of_every_deck_is_four_drawable_distinct_characters() -> None:
    from tableboard.segments import encode
    everywhere: dict[bytes, str] = {}
    for game, codes in _decks().items():
        patterns: dict[bytes, str] = {}
        for code in sorted(codes):
            text = show.card_text(code)
            assert text is not None and len(text) == 4, (game, code, text)
            assert all(known(ch) for ch in text), (game, code, text)
            # compared as lit segments, not letters: "S" and "5", "O" and "0" look the same
            pattern = encode(text)
            assert pattern not in patterns, f"{game}: {code} and {patterns.get(pattern)} look alike ({text!r})"
            patterns[pattern] = code
            assert everywhere.setdefault(pattern, code) == code, (code, everywhere[pattern])
    assert len(everywhere) >= 90  # every game's deck was there to check


@pytest.mark.parametrize("code,text", [
    ("red-7", "r  7"), ("yellow-0", "y  0"), ("green-skip", "G SP"), ("blue-reverse", "b rE"),
    ("red-draw2", "r +2"), ("blue-draw4", "b +4"), ("green-skip_all", "G SA"), ("yellow-discard_all", "y dA"),
    ("wild", "UILd"), ("wild_draw4", "U +4"), ("wild_draw10", "U+10"), ("wild_reverse_draw4", "Ur+4"),
    ("num-7", "   7"), ("num-10", "  10"), ("minus10", " -10"), ("ono99", "On99"), ("reverse", "  rE"),
])
def test_card_text_reads_as_the_readme_table_says(code: str, text: str) -> None:
    assert show.card_text(code) == text


@pytest.mark.parametrize("code", ["pink-5", "red-10", "red-jump", "num-100", "num-x", "joker", "red"])
def test_a_code_no_deck_has_gets_no_text(code: str) -> None:
    assert show.card_text(code) is None


def test_asking_shows_the_likeliest_card_and_the_total_only_when_none_is_offered() -> None:
    t = show.ALTERNATE_MS
    offered = snap(total=None, mode="ask", offer=("green-skip", "green-reverse"))
    assert [show.digits(offered, k * t) for k in range(4)] == ["G SP", "CArd", "G SP", "CArd"]
    # an offer the display cannot spell: the total and CArd, as before (the screen names it)
    odd = snap(total=12, mode="ask", offer=("mystery_card",))
    assert [show.digits(odd, k * t) for k in range(2)] == ["  12", "CArd"]
    # an illegal play outstanding still wins; a lost link still alternates LOSt
    assert show.digits(snap(mode="ask", offer=("red-6",), err=3), 0) == "ErrC"
    assert [show.digits(offered, k * t, lost=True) for k in range(2)] == ["LOSt", "G SP"]


def test_the_card_a_button_took_shows_steadily() -> None:
    offered = snap(total=None, mode="ask", offer=("green-skip", "green-reverse"))
    assert {show.digits(offered, k * 250, taken="green-reverse") for k in range(8)} == {"G rE"}
    assert show.digits(offered, show.ALTERNATE_MS, taken="mystery_card") == "CArd"


def test_presses_answer_only_while_asking_and_only_with_what_is_offered() -> None:
    asking = snap(mode="ask", offer=("red-6", "red-9"))
    assert asking.answer("PASS", "short") == "red-6" and asking.answer("COLOUR", "short") == "red-9"
    for button, press in [("PASS", "long"), ("COLOUR", "long"), ("DRAW", "short"), ("UNDO", "short")]:
        assert asking.answer(button, press) is None  # these keep their ordinary meaning
    assert snap(mode="ask", offer=("red-6",)).answer("COLOUR", "short") is None
    assert snap(mode="ask").answer("PASS", "short") is None
    assert snap(mode="play").answer("PASS", "short") is None
