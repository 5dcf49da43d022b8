"""board_view: referee state (spec 1.6 fields) -> Snapshot, per game."""
# pyright: reportOptionalMemberAccess=false, reportOptionalSubscript=false
from __future__ import annotations

import pytest

from tableref.board_view import board_snapshot
from tablelink.host import UNSTAMPED_EPOCH, UNSTAMPED_SEQ


def state(**kw) -> dict:
    """A state with every spec 1.6 field, as the engine reports it (unused ones None/[])."""
    base = {
        "total": 0, "current_seat": 1, "direction": "cw", "pending": None, "awaiting": [],
        "penalty_draws": {}, "eliminated": [], "tokens": [], "hand": 1, "last_hand_loser": None,
        "illegal": None, "top": None, "color": None, "hand_counts": [], "uno_vulnerable": None,
        "hand_over": False, "hand_winner": None, "scores": [], "game_over": False, "winner": None,
    }
    base.update(kw)
    return base


def fields(snap) -> tuple:
    return (snap.players, snap.turn, snap.direction, snap.elim, snap.total, snap.pend, snap.colour,
            snap.err, snap.winner, snap.mode)


def test_ono99_classic_double_play() -> None:
    s = state(total=57, current_seat=2, direction="ccw", pending={"kind": "play", "seat": 2, "count": 2},
              tokens=[3, 2, 3], color=None)
    snap = board_snapshot(s, "ono99_classic", 3)
    assert fields(snap) == (3, 2, "ccw", 0, 57, "p2", None, 0, None, "play")
    assert (snap.epoch, snap.seq) == (UNSTAMPED_EPOCH, UNSTAMPED_SEQ)  # the link stamps it
    with pytest.raises(ValueError):
        snap.encode()  # seq 0 never goes on the wire unstamped


def test_ono99_2022_elimination_and_negative_total_and_win() -> None:
    s = state(total=-4, current_seat=3, eliminated=[0, 2])
    assert fields(board_snapshot(s, "ono99_2022", 4))[3:5] == (0b0101, -4)
    over = state(total=98, current_seat=None, eliminated=[0, 1, 2], game_over=True, winner=3)
    assert fields(board_snapshot(over, "ono99_2022", 4)) == (4, None, "cw", 0b0111, 98, None, None, 0, 3, "over")


def test_illegal_play_uses_err_id_until_the_next_event() -> None:
    bust = state(total=95, current_seat=1, illegal={"seat": 1, "reason": "bust_should_declare_out"}, eliminated=[0])
    assert board_snapshot(bust, "ono99_2022", 3, err_id=7).err == 7
    assert board_snapshot(state(total=96), "ono99_2022", 3, err_id=7).err == 0
    with pytest.raises(ValueError):
        board_snapshot(bust, "ono99_2022", 3)  # an illegal play without an id would not cue


def test_uno_draw_pending_and_colour_no_total() -> None:
    s = state(total=None, current_seat=0, direction="ccw", pending={"kind": "draw", "seat": 0, "count": 4},
              top="wild_draw4", color="green", hand_counts=[7, 5, 6])
    assert fields(board_snapshot(s, "uno", 3)) == (3, 0, "ccw", 0, None, "d4", "green", 0, None, "play")


def test_uno_waiting_for_colour_shows_no_colour_and_does_not_ask_for_a_card() -> None:
    s = state(total=None, current_seat=1, awaiting=[{"kind": "color", "seat": 1}], top="wild", color=None)
    snap = board_snapshot(s, "uno", 2)
    assert (snap.mode, snap.colour) == ("play", None)


def test_an_unreadable_card_asks_the_table() -> None:
    s = state(total=42, current_seat=1)
    assert board_snapshot(s, "ono99_2022", 4, asking=True).mode == "ask"
    assert board_snapshot(s, "ono99_2022", 4).mode == "play"
    assert board_snapshot(dict(s, game_over=True, winner=1), "ono99_2022", 4, asking=True).mode == "over"


def test_uno_hand_over_waits_for_next_hand() -> None:
    s = state(total=None, current_seat=None, hand_over=True, hand_winner=1, color="red", scores=[0, 80])
    snap = board_snapshot(s, "uno", 2)
    assert (snap.turn, snap.mode, snap.winner) == (None, "play", None)


def test_no_mercy_roulette_and_huge_stack() -> None:
    roulette = state(total=None, current_seat=2, pending={"kind": "roulette", "seat": 2},
                     awaiting=[{"kind": "color", "seat": 2}], color="blue")
    assert (board_snapshot(roulette, "uno_no_mercy", 6).pend, board_snapshot(roulette, "uno_no_mercy", 6).mode) == ("r", "play")
    stack = state(total=None, current_seat=0, pending={"kind": "draw", "seat": 0, "count": 46}, color="red", eliminated=[5])
    snap = board_snapshot(stack, "uno_no_mercy", 6)
    assert (snap.pend, snap.elim) == ("d46", 0b100000)


def test_ena_overtake_state_and_win() -> None:
    s = state(total=None, current_seat=None, game_over=True, hand_over=True, winner=0, color="yellow")
    assert fields(board_snapshot(s, "ena", 5)) == (5, None, "cw", 0, None, None, "yellow", 0, 0, "over")


def test_snapshot_round_trips_through_the_wire() -> None:
    from tablelink.frame import FrameReader
    from tablelink.host import HostSession
    from tablelink.messages import parse

    snap = board_snapshot(state(total=90, current_seat=0, pending={"kind": "play", "seat": 0, "count": 1}), "ono99_classic", 2)
    sent = [parse(f) for f in FrameReader().feed(HostSession("00000001", 0).show(snap, 0))]
    assert len(sent) == 1 and sent[0].shows_same(snap)


def test_unknown_game_and_out_of_range_seat_raise() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        board_snapshot(state(), "poker", 2)
    with pytest.raises(ValueError):
        board_snapshot(state(current_seat=5), "uno", 3)


def test_the_camera_s_offer_goes_only_with_a_question() -> None:
    s = state(hand_counts=[7, 7, 7], top="red-5", color="red", total=None)
    asked = board_snapshot(s, "uno", 3, asking=True, offer=("red-6", "red-9", "red-8"))
    assert asked.mode == "ask" and asked.offer == ("red-6", "red-9")  # the wire carries two
    assert board_snapshot(s, "uno", 3, offer=("red-6",)).offer == ()  # not asking: nothing offered
    over = state(game_over=True, winner=1, total=None)
    assert board_snapshot(over, "uno", 3, asking=True, offer=("red-6",)).offer == ()
    with pytest.raises(ValueError, match="offer"):
        board_snapshot(s, "uno", 3, asking=True, offer=("Red 6",))
