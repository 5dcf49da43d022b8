"""What a screen away from the table is told: a TableUpdate -> one JSON-ready dict.

Pure. The same dict is the live page's server-sent event, the MQTT state message and a
scoreboard's row for the table, so the words a person reads (whose turn, what is owed, why a
play was illegal) are made once, here, from the terminal view's own phrases.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..feed import TableUpdate
from ..rules import ruleset_class
from ..terminal_view import describe_illegal, describe_pending

# the referee's state fields a page shows (the rest is the referee's own bookkeeping)
SHOWN = ("total", "top", "color", "current_seat", "direction", "pending", "eliminated", "scores",
         "hand_counts", "tokens", "hand", "hand_over", "hand_winner", "game_over", "winner", "illegal")


def table_view(game: str, names: Sequence[str], state: Mapping[str, Any], asking: bool = False,
               recent: Sequence[str] = (), index: int = 0, game_id: str = "",
               offer: Sequence[str] = ()) -> dict[str, Any]:
    """The page's view of one table in one state. `offer`: while asking, the camera's
    likeliest code and its runner-up, so that a viewer sees what the table is asked about."""
    awaiting = [f"{item['kind'].replace('_', ' ')} from "
                f"{names[item['seat']] if item.get('seat') is not None else '?'}"
                for item in state.get("awaiting") or []]
    owed = [f"{names[int(s)]} draws {c}" for s, c in (state.get("penalty_draws") or {}).items()]
    return {
        "game": game, "title": ruleset_class(game).title, "game_id": game_id, "index": index,
        "names": list(names), "state": {k: state.get(k) for k in SHOWN},
        "big": str(state.get("total")) if ruleset_class(game).family == "ninety_nine" else (state.get("top") or "-"),
        "pending": describe_pending(state.get("pending"), names),
        "awaiting": awaiting + owed,
        "illegal": describe_illegal(state.get("illegal"), names),
        "asking": asking, "offer": list(offer) if asking else [], "recent": list(recent)[-6:],
    }


def update_view(u: TableUpdate) -> dict[str, Any]:
    return table_view(u.game, u.names, u.state, u.asking, u.recent, u.index, u.game_id, u.offer)
