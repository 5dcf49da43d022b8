"""What the referee waits for from a person, with its key (tableref.awaited)."""
from __future__ import annotations

from tableref.awaited import awaited, describe, what_now
from tableref.referee import Referee


def kinds(ref: Referee) -> list[tuple[str, int | None, bool]]:
    return [(a.kind, a.seat, a.blocks) for a in awaited(ref)]


def test_a_wild_draw_four_awaits_a_colour_then_a_draw_or_a_challenge() -> None:
    ref = Referee("uno", 3, setup={"top": "red-5"})
    ref.push({"type": "card", "seat": 1, "card": "wild_draw4"})
    assert kinds(ref) == [("color", 1, True), ("draw", 2, True)]
    ref.push({"type": "color", "seat": 1, "color": "green"})
    (draw,) = awaited(ref)
    assert describe(draw, ["Ana", "Bo", "Cy"]) == "a draw of 4 from Cy: d (board: DRAW), or h to challenge the Wild Draw Four"
    ref.push({"type": "challenge", "seat": 2})
    assert kinds(ref) == [("challenge_result", 1, True)]
    ref.push({"type": "challenge_result", "guilty": True})
    assert kinds(ref) == [("penalty", 1, False)]


def test_a_draw_that_may_be_stacked_lets_the_pile_answer() -> None:
    ref = Referee("uno", 3, {"stacking": "same_type"}, setup={"top": "red-5"})
    ref.push({"type": "card", "seat": 1, "card": "red-draw2"})
    assert kinds(ref) == [("draw", 2, False)]


def test_a_drawn_card_may_be_played_or_passed_and_an_ordinary_turn_awaits_nothing() -> None:
    ref = Referee("uno", 3, setup={"top": "red-5"})
    assert awaited(ref) == [] and what_now(ref, ["Ana", "Bo", "Cy"]) == "Bo's card on the pile, or d if Bo draws (board: DRAW)"
    ref.push({"type": "draw", "seat": 1})
    assert kinds(ref) == [("play_or_pass", 1, False)]


def test_the_end_of_a_hand_awaits_each_loser_s_cards_then_the_next_hand() -> None:
    ref = Referee("uno", 3, {"target_score": 500}, setup={"top": "red-5", "hand_counts": [7, 1, 7]})
    ref.push({"type": "card", "seat": 1, "card": "red-6"})
    assert kinds(ref) == [("reveal", 0, True), ("reveal", 2, True), ("new_hand", None, True)]
    ref.push({"type": "reveal", "seat": 0, "cards": ["red-1"]})
    assert [a.kind for a in awaited(ref)] == ["reveal", "new_hand"]


def test_ninety_nine_games_await_nothing_from_the_keyboard() -> None:
    ref = Referee("ono99_2022", 3)
    ref.push({"type": "card", "seat": 1, "card": "play2"})
    assert awaited(ref) == []  # the two plays come from the pile
    assert "o if" in what_now(ref, ["Ana", "Bo", "Cy"])


def test_a_colour_blocks_unless_the_next_card_may_name_it() -> None:
    for infer in (True, False):
        ref = Referee("uno", 3, {"infer_color_from_next_card": infer}, setup={"top": "red-5"})
        ref.push({"type": "card", "seat": 1, "card": "wild"})
        assert kinds(ref) == [("color", 1, not infer)]



def test_a_draw_no_seat_may_stack_lets_a_card_come_where_cards_may_come_out_of_turn() -> None:
    # no stacking: the seat on turn has no legal card; only a jump-in / overtake lets one come
    for game, options, blocks in (("uno", {"jump_in": True}, False), ("uno", {"jump_in": False}, True),
                                  ("ena", {"stack_in_turn": "none"}, False),
                                  ("ena", {"stack_in_turn": "none", "overtake": False}, True)):
        ref = Referee(game, 4, options, setup={"top": "red-5"})
        ref.push({"type": "card", "seat": 1, "card": "wild_draw4"})
        assert kinds(ref)[0] == ("color", 1, True), (game, options)  # no card names the colour
        ref.push({"type": "color", "seat": 1, "color": "green"})
        assert kinds(ref) == [("draw", 2, blocks)], (game, options)
