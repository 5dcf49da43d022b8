"""Short human-readable text for events and states: what a person at the table should see.

Used by `tableref replay`, `tableref demo` and anything else that prints a game as it goes.
Pure functions over the plain dicts of the referee (events of spec 1.5, states of spec 1.6).
"""
from __future__ import annotations

from typing import Any, Mapping

from . import ruleset_class


def describe_event(ev: Mapping[str, Any]) -> str:
    etype = ev.get("type", "?")
    seat = ev.get("seat")
    who = f"seat {seat} " if seat is not None else ""
    if etype in ("card", "flip"):
        return f"{who}{etype} {ev.get('card')}"
    if etype == "draw":
        return f"{who}draw {ev.get('count', '')}".rstrip()
    if etype == "color":
        return f"{who}names {ev.get('color')}"
    if etype in ("target", "catch"):
        return f"{who}{etype} seat {ev.get('target')}"
    if etype == "challenge_result":
        return "challenge: " + ("guilty" if ev.get("guilty") else "innocent")
    if etype == "reveal":
        return f"{who}reveals {len(ev.get('cards') or [])} cards"
    if etype == "new_hand":
        return f"new hand, dealer {ev.get('dealer')}"
    return f"{who}{etype}"


def plays(count: Any) -> str:
    return f"{count} play" if count == 1 else f"{count} plays"


def describe_state(state: Mapping[str, Any], game: str) -> str:
    """One short line: total / turn / direction / obligations / verdict / result."""
    parts: list[str] = []
    ninety_nine = ruleset_class(game).family == "ninety_nine"
    if ninety_nine:
        parts.append(f"total {state['total']:>3}")
    else:
        top = state.get("top") or "-"
        parts.append(f"top {top} ({state.get('color') or '-'})")
    turn = state.get("current_seat")
    parts.append(f"turn {'-' if turn is None else turn}")
    parts.append("cw " if state.get("direction") == "cw" else "ccw")
    pend = state.get("pending")
    if pend:
        if pend["kind"] == "play":
            parts.append(f"seat {pend['seat']} owes {plays(pend['count'])}")
        elif pend["kind"] == "draw":
            parts.append(f"seat {pend['seat']} draws {pend['count']}")
        else:
            parts.append(f"seat {pend['seat']} spins the roulette")
    for wait in state.get("awaiting") or []:
        parts.append(f"waiting: {wait['kind']} from seat {wait['seat']}")
    if ninety_nine and state.get("tokens"):  # only O'NO 99 classic plays for tokens
        parts.append("tokens " + "/".join(str(t) for t in state["tokens"]))
        parts.append(f"hand {state.get('hand')}")
    elif not ninety_nine:
        parts.append("cards " + "/".join(str(c) for c in state.get("hand_counts") or []))
    if state.get("penalty_draws"):
        owed = ", ".join(f"seat {s} {c}" for s, c in state["penalty_draws"].items())
        parts.append(f"penalty: {owed}")
    if state.get("uno_vulnerable") is not None:
        parts.append(f"seat {state['uno_vulnerable']} has not called")
    if state.get("eliminated"):
        parts.append("out: " + ",".join(str(s) for s in state["eliminated"]))
    illegal = state.get("illegal")
    if illegal:
        parts.append(f"ILLEGAL seat {illegal['seat']}: {illegal['reason']}")
    if state.get("hand_over") and not ninety_nine and not state.get("game_over"):
        parts.append(f"hand won by seat {state.get('hand_winner')}")
    if not ninety_nine and any(state.get("scores") or []):
        parts.append("scores " + "/".join(str(s) for s in state["scores"]))
    if state.get("game_over"):
        parts.append(f"GAME OVER, winner seat {state.get('winner')}")
    return " | ".join(parts)
