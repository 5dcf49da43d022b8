"""Message classes: round trips, equality and rejection of malformed fields."""
from __future__ import annotations

import pytest
from hypothesis import given, settings

from strategies import messages
from tablelink.messages import Ack, Back, Btn, Hi, Snapshot, Who, parse

GOOD = ["SNAP", "0a1b2c3d", "7", "4", "1", "cw", "1", "42", "p2", "-", "0", "-", "play"]


@settings(max_examples=300, deadline=None)
@given(messages)
def test_every_message_round_trips(msg) -> None:
    fields = msg.to_fields()
    back = parse(fields)
    assert back == msg and not (back != msg)
    assert back.to_fields() == fields
    assert hash(back) == hash(msg)


def test_snapshot_fields_and_equality() -> None:
    s = Snapshot.from_fields(GOOD)
    assert (s.players, s.turn, s.direction, s.elim, s.total, s.pend, s.colour, s.err,
            s.winner, s.mode) == (4, 1, "cw", 1, 42, "p2", None, 0, None, "play")
    assert s.pend_kind() == "p" and s.pend_count() == 2
    later = Snapshot.from_fields(GOOD[:2] + ["8"] + GOOD[3:])
    assert later != s and later.shows_same(s)
    other = Snapshot.from_fields(GOOD[:7] + ["43"] + GOOD[8:])
    assert other != s and not other.shows_same(s)
    assert s != Ack("0a1b2c3d", 7)


@pytest.mark.parametrize("index,value", [
    (1, "0a1b2c3"), (1, "0a1b2c3g"), (2, "0"), (2, "+7"), (2, "1_0"), (3, "1"), (3, "11"),
    (4, "4"), (4, "x"), (5, "left"), (6, "10"), (6, "zz"), (6, ""), (7, "+5"), (7, "4.5"),
    (7, "--1"), (8, "p0"), (8, "x3"), (8, "p"), (8, "d-1"), (9, "pink"), (10, "-1"),
    (11, "4"), (12, "done"),
])
def test_malformed_snapshot_fields_are_refused(index: int, value: str) -> None:
    fields = list(GOOD)
    fields[index] = value
    with pytest.raises(ValueError):
        Snapshot.from_fields(fields)


@pytest.mark.parametrize("fields", [
    ["SNAP"] + GOOD[1:-1], GOOD + ["extra"], ["WHO", "x"], ["ACK", "0a1b2c3d"],
    ["BTN", "0a1b2c3d", "1", "JUMP", "short", "-"], ["BTN", "0a1b2c3d", "1", "DRAW", "tap", "-"],
    ["BTN", "0a1b2c3d", "0", "DRAW", "short", "-"], ["BTN", "0a1b2c3d", "1", "COLOUR", "long", "pink"],
    ["BACK", "0a1b2c3d", "x"], ["HI", "1", "0a1b2c3d", "rp2", "0", "fw"],
])
def test_malformed_messages_are_refused(fields: list[str]) -> None:
    with pytest.raises(ValueError):
        parse(fields)


def test_unknown_type_is_ignored_and_hi_keeps_other_protocols_for_the_host_to_refuse() -> None:
    assert parse(["NEWS", "1"]) is None
    hi = parse(["HI", "2", "0a1b2c3d", "rp2", "12", "9.9"])
    assert isinstance(hi, Hi) and hi.proto == 2


def test_building_an_invalid_snapshot_fails_before_sending() -> None:
    with pytest.raises(ValueError):
        Snapshot("0a1b2c3d", 1, 3, turn=3).encode()
    with pytest.raises(ValueError):
        Snapshot("0a1b2c3d", 1, 3, elim=0b1000).encode()
    assert Who().encode() == b"$WHO*2A8C\n"
    assert Back("0a1b2c3d", 3).to_fields() == ["BACK", "0a1b2c3d", "3"]
    assert Btn("0a1b2c3d", 3, "COLOUR", "long", "blue").to_fields()[-1] == "blue"


def test_credit_is_a_14th_field_sent_only_when_set() -> None:
    plain = Snapshot.from_fields(GOOD)
    assert plain.credit is None and plain.to_fields() == GOOD  # what a 13-field board reads
    credited = Snapshot.from_fields(GOOD + ["3"])
    assert credited.credit == 3 and credited.to_fields() == GOOD + ["3"]
    assert not credited.shows_same(plain)
    for bad in ("4", "x", "-1"):
        with pytest.raises(ValueError):
            Snapshot.from_fields(GOOD + [bad])


ASK = GOOD[:12] + ["ask"]


def test_offer_is_a_15th_field_sent_only_while_asking() -> None:
    plain = Snapshot.from_fields(ASK)
    assert plain.offer == () and plain.to_fields() == ASK  # what a 13-field board reads
    offered = Snapshot.from_fields(ASK + ["-", "red-6/red-9"])
    assert offered.offer == ("red-6", "red-9") and offered.credit is None
    assert offered.to_fields() == ASK + ["-", "red-6/red-9"] and not offered.shows_same(plain)
    one = Snapshot.from_fields(ASK + ["2", "wild_draw4"])
    assert (one.credit, one.offer) == (2, ("wild_draw4",)) and one.to_fields() == ASK + ["2", "wild_draw4"]
    # a snapshot an older host sent (13 or 14 fields) reads as one without an offer
    assert Snapshot.from_fields(ASK + ["1"]).offer == ()


@pytest.mark.parametrize("offer", ["", "-", "Red-6", "6-red", "red-6/red-9/red-8", "red-6//red-9",
                                   "red 6", "x" * 25, "red-6/", "red.6"])
def test_malformed_offers_are_refused(offer: str) -> None:
    with pytest.raises(ValueError, match="offer"):
        Snapshot.from_fields(ASK + ["-", offer])


def test_an_offer_outside_asking_is_refused_both_ways() -> None:
    with pytest.raises(ValueError, match="offer"):
        Snapshot.from_fields(GOOD + ["-", "red-6"])  # GOOD is mode "play"
    with pytest.raises(ValueError, match="offer"):
        Snapshot("0a1b2c3d", 1, 3, offer=("red-6",)).encode()
    with pytest.raises(ValueError, match="offer"):
        Snapshot("0a1b2c3d", 1, 3, mode="ask", offer=("red-6", "red-7", "red-8")).encode()
    with pytest.raises(ValueError, match="offer"):
        Snapshot("0a1b2c3d", 1, 3, mode="ask", offer=("red,6",)).encode()


def test_a_button_answering_a_question_carries_the_card_it_took() -> None:
    btn = parse(["BTN", "0a1b2c3d", "4", "PASS", "short", "red-6"])
    assert isinstance(btn, Btn) and btn.arg == "red-6"
    for fields in (["BTN", "0a1b2c3d", "4", "PASS", "short", "Red 6"],
                   ["BTN", "0a1b2c3d", "4", "COLOUR", "long", "red-6"]):  # COLOUR long names a colour
        with pytest.raises(ValueError):
            parse(fields)
