"""The synthetic scenes' seat truth: each seat's bearing, each event's seat and reach."""
from __future__ import annotations

import pytest

from tableref.errors import UserError
from tableref.seats import angle_gap, nearest_seat
from tableref.vision.synth.scene import SynthScene, parse_spec
from tableref.vision.synth.script import CARD_ASPECT, EDGE_ROOM


def _gaps(bearings: list[float]) -> list[float]:
    ring = sorted(bearings)
    return [(b - a) % 360 for a, b in zip(ring, ring[1:] + ring[:1])]


@pytest.mark.parametrize("spec", ["seed=3,duration=12", "seed=4,duration=12,players=8",
                                  "seed=5,duration=12,players=8,uneven=1", "seed=6,duration=12,players=5,uneven=1"])
def test_every_reach_comes_from_nearest_its_own_seat(spec: str) -> None:
    truth = SynthScene(parse_spec(f"{spec},size=320x180")).ground_truth()
    seats = truth["seat_bearings"]
    assert len(seats) == truth["players"]
    assert sum(_gaps(seats)) == pytest.approx(360, abs=0.5)
    assert truth["events"]
    for ev in truth["events"]:
        assert 0 <= ev["bearing"] < 360
        assert nearest_seat(ev["bearing"], seats) == ev["seat"]
        # with room to spare: a reach strays less than half the gap to the next seat
        assert angle_gap(ev["bearing"], seats[ev["seat"]]) < 0.5 * min(_gaps(seats))


def test_players_and_uneven_spacing_as_asked() -> None:
    even = SynthScene(parse_spec("seed=7,size=320x180,duration=4,players=8")).ground_truth()
    assert even["players"] == 8
    assert max(_gaps(even["seat_bearings"])) - min(_gaps(even["seat_bearings"])) < 0.5
    uneven = SynthScene(parse_spec("seed=7,size=320x180,duration=4,players=8,uneven=1")).ground_truth()
    assert max(_gaps(uneven["seat_bearings"])) - min(_gaps(uneven["seat_bearings"])) > 10


@pytest.mark.parametrize("spec", ["players=1", "players=9", "players=x", "uneven=2"])
def test_bad_seat_options_are_one_clear_error(spec: str) -> None:
    with pytest.raises(UserError, match="players|uneven"):
        parse_spec(f"seed=1,{spec}")


def test_the_edge_switch_moves_the_pile_and_leaves_old_seeds_alone() -> None:
    plain = SynthScene(parse_spec("seed=7,duration=8,players=5,uneven=1,size=320x180")).ground_truth()
    off = SynthScene(parse_spec("seed=7,duration=8,players=5,uneven=1,size=320x180,edge=0")).ground_truth()
    assert off == plain
    for seed in range(6):
        truth = SynthScene(parse_spec(f"seed={seed},duration=8,players=5,edge=1,size=320x180")).ground_truth()
        x, y = truth["pile_centre"]
        room = EDGE_ROOM * truth["card_short_side"] * CARD_ASPECT  # the least that keeps the cards in view
        assert min(x, 320 - x) <= room + 32 + 1 or min(y, 180 - y) <= room + 18 + 1, truth["pile_centre"]
        assert truth["events"] and all(nearest_seat(ev["bearing"], truth["seat_bearings"]) == ev["seat"]
                                       for ev in truth["events"])
