"""What the referee waits for from the people at the table, and the key that gives it.

Pure: a Referee in (its state's `awaiting` and `pending` fields, and trial checks of the
events a key would send), a list of `Awaited` out. The run loop pauses a recorded video on
it, the screen shows each item with its key, and a refused key says what would make sense
instead. The camera's own inputs (a card, a first card turned again) are not listed: the
pile gives them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from .rules import ruleset_class

COLOUR_KEYS = "r/y/g/b (board: hold COLOUR)"


@dataclass(frozen=True)
class Awaited:
    kind: str          # "color" | "target" | "challenge_result" | "draw" | "roulette" | "play_or_pass"
                       # | "penalty" | "reveal" | "new_hand"
    seat: int | None   # who gives it (None: the table)
    what: str          # in words, for "waiting for: ..."
    keys: str          # the key(s) that answer it
    blocks: bool = True  # True: no card may come first (a recording pauses until it comes);
                         # False: a card may come instead (Enter lets the video go on)


# Where a game lets cards come out of turn (UNO's jump-in, Ena's overtaking), any seat may lay a
# card while these are awaited, and the camera must see it: a jump-in to credit, or a card out of
# turn to flag. A colour, a target, a challenge's outcome or the end of a hand no card answers.
OUT_OF_TURN_OPTIONS = ("jump_in", "overtake")
PRE_EMPTABLE = frozenset({"draw", "play_or_pass", "penalty"})


def _legal(referee: Any, event: dict[str, Any]) -> bool:
    try:
        return referee.check(event).illegal is None
    except ValueError:  # an event this game cannot read (EventError)
        return False


def awaited(referee: Any) -> list[Awaited]:
    """Every input the referee is waiting for from a person now, the most urgent first.

    They block (a recording waits for them) when no card the seat on turn could lay would be
    legal: a target, a challenge's outcome, a draw that cannot be stacked, the end of a hand,
    a colour unless the next card may name it (infer_color_from_next_card); except a draw, a
    drawn card or a penalty in a game that lets cards come out of turn (PRE_EMPTABLE)."""
    items = _inputs(referee)
    if items and referee.legal_cards():
        return [replace(item, blocks=False) for item in items]
    if any(referee.options.get(name) for name in OUT_OF_TURN_OPTIONS):
        return [replace(item, blocks=False) if item.kind in PRE_EMPTABLE else item for item in items]
    return items


def _inputs(referee: Any) -> list[Awaited]:
    state = referee.state
    if state.get("game_over"):
        return []
    out: list[Awaited] = []
    kinds = {item["kind"]: item["seat"] for item in state.get("awaiting") or []}
    if "color" in kinds:
        out.append(Awaited("color", kinds["color"], "a colour for the wild", COLOUR_KEYS))
    if "target" in kinds:
        out.append(Awaited("target", kinds["target"], "the seat to swap hands with", "t <seat>"))
    if "challenge_result" in kinds:
        out.append(Awaited("challenge_result", kinds["challenge_result"],
                           "the challenge's outcome (the hand is shown to the challenger)",
                           "G guilty / I innocent"))
    pending = state.get("pending") or {}
    if pending.get("kind") == "draw" and "challenge_result" not in kinds:
        seat = pending["seat"]
        keys = "d (board: DRAW)"
        if _legal(referee, {"type": "challenge", "seat": seat}):
            keys += ", or h to challenge the Wild Draw Four"
        out.append(Awaited("draw", seat, f"a draw of {pending.get('count')}", keys))
    elif pending.get("kind") == "roulette" and "color" not in kinds:
        out.append(Awaited("roulette", pending["seat"], "the cards turned until the colour showed",
                           "d <n>"))
    if "play_or_pass" in kinds:
        out.append(Awaited("play_or_pass", kinds["play_or_pass"], "the drawn card played, or a pass",
                           "p (board: PASS), or the card on the pile"))
    for seat, count in sorted((int(s), c) for s, c in (state.get("penalty_draws") or {}).items()):
        out.append(Awaited("penalty", seat, f"{count} penalty card{'s' if count != 1 else ''} drawn",
                           f"{seat} d"))
    if state.get("hand_over"):
        for seat in range(referee.players):
            if _legal(referee, {"type": "reveal", "seat": seat, "cards": []}):
                out.append(Awaited("reveal", seat, "the cards left in the hand, for the score",
                                   f"{seat} v <card> <card> ..."))
        if _legal(referee, {"type": "new_hand"}):
            out.append(Awaited("new_hand", None, "the next hand", "w [dealer seat]"))
    return out


def ordinary_turn(state: dict[str, Any], game: str, names: Sequence[str]) -> str:
    """What the seat on turn may do when nothing else is awaited."""
    seat = state.get("current_seat")
    if state.get("game_over"):
        return "the game is over (q to quit)"
    if seat is None:
        if "hand_counts" in state and state.get("top") is None:
            return "the first card turned onto the pile"
        return "the next card on the pile"
    who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    if ruleset_class(game).give_up == "out":
        return f"{who}'s card on the pile, or o if {who} cannot play (board: PASS)"
    return f"{who}'s card on the pile, or d if {who} draws (board: DRAW)"


def describe(item: Awaited, names: Sequence[str]) -> str:
    """`a colour for the wild from Bo: r/y/g/b (board: hold COLOUR)`."""
    who = ""
    if item.seat is not None:
        who = " from " + (names[item.seat] if 0 <= item.seat < len(names) else f"seat {item.seat}")
    return f"{item.what}{who}: {item.keys}"


def what_now(referee: Any, names: Sequence[str]) -> str:
    """One line: what the table may do now (the awaited inputs, else the ordinary turn)."""
    items = awaited(referee)
    if items:
        return "; ".join(describe(item, names) for item in items)
    return ordinary_turn(referee.state, referee.game, names)
