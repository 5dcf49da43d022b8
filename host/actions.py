"""What a button or a key means in the current state. Pure: (action, state) -> event.

The board has four buttons (DRAW, PASS, UNDO, COLOUR); the keyboard stands in for them and
for everything else the camera cannot see. Both end up here, so a key and a board button
that mean the same thing give the same event.
"""
from __future__ import annotations

from typing import Any

from tablelink.messages import ANSWERS

from .rules import ruleset_class

COLOURS = ("red", "yellow", "green", "blue")

# key -> (action, what it needs after the key)
KEYS: dict[str, tuple[str, str | None]] = {
    "d": ("draw", None),
    "p": ("pass", None),
    "u": ("undo", None),
    "c": ("color", "colour"), "r": ("color", "colour"), "y": ("color", "colour"), "g": ("color", "colour"), "b": ("color", "colour"),
    "n": ("uno", None),
    "k": ("catch", "seat"),
    "h": ("challenge", None),
    "G": ("challenge_result", "guilty"),
    "I": ("challenge_result", "innocent"),
    "o": ("out", None),
    "t": ("target", "seat"),
    "e": ("end_turn", None),
    "w": ("new_hand", None),
    "v": ("reveal", "cards"),
    "x": ("card", "card"),
    "a": ("accept", None),      # the camera asked: its likeliest code is right
    "s": ("runner_up", None),   # ... no, its runner-up is
}

HELP = ("keys (act at once): p pass  o out  u undo  r/y/g/b colour  n UNO call  h challenge  G/I guilty/innocent  "
        "e end turn  a/s the camera's likeliest/runner-up card when it asks (board: PASS/COLOUR short)  q quit;  lines (end with Enter): d or d <n> draw  w or w <dealer> new hand  k <seat> catch  "
        "t <seat> target  v <cards> reveal  x <card> type a card  <seat> <key>: act for that seat")


class Undo:
    """Marker: the action is an undo, handled by the table session, not the referee."""

    def __repr__(self) -> str:
        return "Undo()"


UNDO = Undo()


def awaiting_seat(state: dict[str, Any], kind: str) -> int | None:
    for item in state.get("awaiting") or []:
        if item.get("kind") == kind:
            return item.get("seat")
    return None


def _draw_seat(state: dict[str, Any]) -> int | None:
    pending = state.get("pending") or {}
    if pending.get("kind") in ("draw", "roulette"):
        return pending.get("seat")
    return state.get("current_seat")


def _last_player(state: dict[str, Any], events: list[dict[str, Any]]) -> int | None:
    for ev in reversed(events):
        if ev.get("type") == "card" and ev.get("seat") is not None:
            return ev["seat"]
    return None


def action_event(action: str, state: dict[str, Any], *, seat: int | None = None, arg: Any = None,
                 events: list[dict[str, Any]] | None = None) -> dict[str, Any] | Undo | None:
    """The event for an action, or UNDO, or None when the action makes no sense now.

    `seat` is who pressed (a seat digit typed first); without it the seat the referee expects
    is used: the one owing a draw, naming a colour, or on turn.
    """
    events = events or []
    if action == "undo":
        return UNDO
    if action == "draw":
        ev = {"type": "draw", "seat": seat if seat is not None else _draw_seat(state)}
        if isinstance(arg, int) and arg > 0:
            ev["count"] = arg
        return ev
    if action == "card":
        # a card typed at the keyboard: one the camera could not read, or did not see land
        if not isinstance(arg, str) or not arg:
            return None
        return {"type": _card_type(state), "seat": seat, "card": arg}
    if action == "reveal":
        if not isinstance(arg, list):
            return None
        return {"type": "reveal", "seat": seat if seat is not None else state.get("hand_winner"), "cards": arg}
    if action in ("pass", "out", "end_turn"):
        return {"type": action, "seat": seat if seat is not None else state.get("current_seat")}
    if action == "color":
        if arg not in COLOURS:
            return None
        who = seat if seat is not None else awaiting_seat(state, "color")
        if who is None:
            pending = state.get("pending") or {}
            who = pending.get("seat") if pending.get("kind") == "roulette" else state.get("current_seat")
        return {"type": "color", "seat": who, "color": arg}
    if action == "uno":
        # The call usually comes from the seat that just played down to one card.
        who = seat if seat is not None else state.get("uno_vulnerable")
        if who is None:
            who = _last_player(state, events)
        return {"type": "uno", "seat": who}
    if action == "catch":
        if arg is None:
            arg = state.get("uno_vulnerable")
        if arg is None:
            return None
        return {"type": "catch", "seat": seat if seat is not None else state.get("current_seat"), "target": arg}
    if action == "target":
        if arg is None:
            return None
        who = seat if seat is not None else awaiting_seat(state, "target")
        return {"type": "target", "seat": who, "target": arg}
    if action == "challenge":
        pending = state.get("pending") or {}
        return {"type": "challenge", "seat": seat if seat is not None else pending.get("seat", state.get("current_seat"))}
    if action == "challenge_result":
        return {"type": "challenge_result", "guilty": arg == "guilty"}
    if action == "new_hand":
        players = len(state.get("hand_counts") or []) or None
        last_dealer = next((ev.get("dealer") for ev in reversed(events) if ev.get("type") == "new_hand"), 0) or 0
        dealer = (last_dealer + 1) % players if players else 0
        return {"type": "new_hand", "dealer": dealer if seat is None else seat}
    return None


def _card_type(state: dict[str, Any]) -> str:
    """A card on the pile is a `flip` when a UNO-family hand waits for its first card."""
    if any(item.get("kind") == "reflip" for item in state.get("awaiting") or []):
        return "flip"
    if ("hand_counts" in state and state.get("hand_counts") and state.get("top") is None
            and not state.get("game_over")):
        return "flip"
    return "card"


# reasons that mean "nothing to do with this now": a key that gets one of these and changes
# nothing else is a slip at the keyboard (or on the board), not a play to journal
SLIP_REASONS = ("wrong_seat", "pass_not_allowed", "invalid_catch")


def refusal(referee: Any, event: dict[str, Any]) -> str | None:
    """The reason to refuse a key's (or button's) event, or None to journal it.

    Refused: an event the referee would flag with a slip reason while changing nothing else
    (a colour when no wild waits, a draw before the first card, a pass before a draw). One
    that changes the game (a false catch that costs a penalty) is a play and is journaled.
    """
    verdict = referee.check(event)
    if verdict.illegal is None or verdict.illegal.get("reason") not in SLIP_REASONS:
        return None
    before = {k: v for k, v in referee.state.items() if k != "illegal"}
    referee.push(event)
    after = {k: v for k, v in referee.state.items() if k != "illegal"}
    referee.pop()
    return verdict.illegal["reason"] if after == before else None


def landed_event(state: dict[str, Any], card: str) -> dict[str, Any]:
    """The event for a card the camera saw land: seat null = the seat the referee expects."""
    kind = _card_type(state)
    return {"type": kind, "card": card} if kind == "flip" else {"type": "card", "seat": None, "card": card}


# the key and the board press that answer the camera's question, by the offered code they take
ANSWER_ACTIONS = ("accept", "runner_up")


def answer_action(button: str, press: str) -> str | None:
    """The action (the `a`/`s` keys') a board press stands for while the camera asks, or None:
    PASS short takes the likeliest, COLOUR short the runner-up (tablelink.messages.ANSWERS)."""
    return ANSWER_ACTIONS[ANSWERS.index((button, press))] if (button, press) in ANSWERS else None


def offer_text(likely: tuple[str, ...], board: bool = False) -> str:
    """The camera's offer with the keys (and, with a board, the presses) that take it:
    "a = red-6, s = red-9, " or "a = red-6 (board: PASS), s = red-9 (board: COLOUR), "."""
    return "".join(f"{key} = {code}" + (f" (board: {btn})" if board else "") + ", "
                   for key, code, (btn, _press) in zip("as", likely, ANSWERS))


def button_event(game: str, button: str, press: str, arg: str, state: dict[str, Any],
                 events: list[dict[str, Any]] | None = None) -> dict[str, Any] | Undo | None:
    """A board button (tablelink BTN) as an action."""
    if button == "DRAW":
        return action_event("draw", state, events=events)
    if button == "PASS":  # "I cannot play": `out` in the 99 games, which have no voluntary draw
        return action_event(ruleset_class(game).give_up, state, events=events)
    if button == "UNDO":
        return UNDO
    if button == "COLOUR" and press == "long":
        return action_event("color", state, arg=arg, events=events)
    return None
