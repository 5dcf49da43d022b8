"""The evening's standings by player name across every game of every table. Pure."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence


def standings(games: Iterable[tuple[Sequence[str], Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """(seat names, state) of each game -> one row per name: games, wins (games won), eliminations
    (games the name was eliminated from), score (summed), best first."""
    rows: dict[str, dict[str, Any]] = {}
    for names, state in games:
        eliminated = set(state.get("eliminated") or [])
        scores = list(state.get("scores") or [])
        for seat, name in enumerate(names):
            row = rows.setdefault(name, {"name": name, "games": 0, "wins": 0, "eliminations": 0, "score": 0})
            row["games"] += 1
            row["wins"] += int(bool(state.get("game_over")) and state.get("winner") == seat)
            row["eliminations"] += int(seat in eliminated)
            row["score"] += int(scores[seat]) if seat < len(scores) else 0
    return sorted(rows.values(), key=lambda r: (-r["wins"], -r["score"], r["eliminations"], r["name"]))
