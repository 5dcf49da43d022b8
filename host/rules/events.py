"""Validation of observable events (spec 1.5). A malformed event is an EventError, never an
illegal play: the referee cannot judge what it cannot read."""
from __future__ import annotations

from typing import Any, Mapping

from ..cards import COLOURS
from ..errors import UserError

EVENT_TYPES: frozenset[str] = frozenset({
    "flip", "card", "draw", "pass", "color", "target", "uno", "catch", "challenge",
    "challenge_result", "out", "end_turn", "reveal", "new_hand",
})


class EventError(UserError):
    """An event the referee cannot read: unknown type or card code, missing/ill-typed field."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat_field(ev: Mapping[str, Any], key: str, players: int, required: bool) -> None:
    value = ev.get(key)
    if value is None:
        if required:
            raise EventError(f"{ev.get('type')} event needs '{key}'")
        return
    if not _is_int(value) or not 0 <= value < players:
        raise EventError(f"bad {key} {value!r} in {ev.get('type')} event "
                         f"(seats are 0..{players - 1})")


def _card_field(value: Any, codes: frozenset[str], game: str) -> None:
    if not isinstance(value, str) or value not in codes:
        raise EventError(f"unknown card code {value!r} for {game}")


def validate_event(ev: Any, players: int, codes: frozenset[str], game: str) -> dict[str, Any]:
    """Return a plain-dict copy of a well-formed event, else raise EventError."""
    if not isinstance(ev, Mapping):
        raise EventError(f"an event must be an object, not {type(ev).__name__}")
    etype = ev.get("type")
    if not isinstance(etype, str) or etype not in EVENT_TYPES:
        raise EventError(f"unknown event type {etype!r}")
    _seat_field(ev, "seat", players, required=False)
    if etype in ("flip", "card"):
        _card_field(ev.get("card"), codes, game)
    elif etype == "draw":
        count = ev.get("count")
        if count is not None and (not _is_int(count) or count < 1):
            raise EventError(f"bad draw count {count!r} (a positive integer)")
    elif etype == "color":
        if ev.get("color") not in COLOURS:
            raise EventError(f"bad colour {ev.get('color')!r} (one of {', '.join(COLOURS)})")
    elif etype in ("target", "catch"):
        _seat_field(ev, "target", players, required=True)
    elif etype == "challenge_result":
        if not isinstance(ev.get("guilty"), bool):
            raise EventError("challenge_result event needs 'guilty' (true or false)")
    elif etype == "reveal":
        cards = ev.get("cards")
        if not isinstance(cards, list):
            raise EventError("reveal event needs 'cards' (a list of card codes)")
        for code in cards:
            _card_field(code, codes, game)
        _seat_field(ev, "seat", players, required=True)
    elif etype == "new_hand":
        _seat_field(ev, "dealer", players, required=False)
    return dict(ev)
