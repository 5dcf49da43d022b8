"""What a button or a key means in the current state. Pure: (action, state) -> event.

The board has four buttons (DRAW, PASS, UNDO, COLOUR); the keyboard stands in for them and
for everything else the camera cannot see. Both end up here, so a key and a board button
that mean the same thing give the same event.
"""
from __future__ import annotations

from typing import Any

COLOURS = ("red", "yellow", "green", "blue")

# key -> (action, what it needs after the key)
KEYS: dict[str, tuple[str, str | None]] = {
    "d": ("draw", None),
    "p": ("pass", None),
    "u": ("undo", None),
    "r": ("color", "colour"), "y": ("color", "colour"), "g": ("color", "colour"), "b": ("color", "colour"),
    "n": ("uno", None),
    "k": ("catch", "seat"),
    "h": ("challenge", None),
    "G": ("challenge_result", "guilty"),
    "I": ("challenge_result", "innocent"),
    "o": ("out", None),
    "t": ("target", "seat"),
    "e": ("end_turn", None),
    "w": ("new_hand", None),
}

HELP = ("keys: d draw  p pass  u undo  r/y/g/b colour  n UNO call  k<seat> catch  h challenge  "
        "G/I guilty/innocent  o out  t<seat> target  e end turn  w new hand  "
        "<seat digit> then a key: act for that seat  x type a card  q quit")


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
        return {"type": "draw", "seat": seat if seat is not None else _draw_seat(state)}
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


def button_event(game: str, button: str, press: str, arg: str, state: dict[str, Any],
                 events: list[dict[str, Any]] | None = None) -> dict[str, Any] | Undo | None:
    """A board button (tablelink BTN) as an action."""
    if button == "DRAW":
        return action_event("draw", state, events=events)
    if button == "PASS":
        # 99 games have no voluntary draw, so PASS there is "I cannot play": out.
        return action_event("out" if game.startswith("ono99") else "pass", state, events=events)
    if button == "UNDO":
        return UNDO
    if button == "COLOUR" and press == "long":
        return action_event("color", state, arg=arg, events=events)
    return None
