"""The evening's standings by player name across every game of every table. Pure.

`Standings` keeps each game's share and the totals, so a record that changes one game costs
one game's worth of work, however many games the evening had; `standings()` is the same
sum over a list of games at once (the tests' reference from the journals)."""
from __future__ import annotations

from typing import Any, Hashable, Iterable, Mapping, Sequence

FIELDS = ("games", "wins", "eliminations", "score")
Share = tuple[tuple[str, int, int, int, int], ...]   # (name, games, wins, eliminations, score) per seat


def share(names: Sequence[str], state: Mapping[str, Any]) -> Share:
    """What one game adds to each of its players' rows."""
    eliminated = set(state.get("eliminated") or [])
    scores = list(state.get("scores") or [])
    over = bool(state.get("game_over"))
    return tuple((name, 1, int(over and state.get("winner") == seat), int(seat in eliminated),
                  int(scores[seat]) if seat < len(scores) else 0) for seat, name in enumerate(names))


class Standings:
    def __init__(self) -> None:
        self._shares: dict[Hashable, Share] = {}
        self._rows: dict[str, list[int]] = {}

    def set(self, game: Hashable, names: Sequence[str], state: Mapping[str, Any]) -> bool:
        """The game's latest state; True when the standings changed."""
        new = share(names, state)
        old = self._shares.get(game, ())
        if new == old:
            return False
        for sign, rows in ((-1, old), (1, new)):
            for name, *values in rows:
                row = self._rows.setdefault(name, [0] * len(FIELDS))
                for i, v in enumerate(values):
                    row[i] += sign * v
        self._shares[game] = new
        return True

    def rows(self) -> list[dict[str, Any]]:
        """One row per name, best first: most wins, then highest score, then fewest eliminations."""
        out = [{"name": name, **dict(zip(FIELDS, row))} for name, row in self._rows.items() if row[0] > 0]
        return sorted(out, key=lambda r: (-r["wins"], -r["score"], r["eliminations"], r["name"]))


def standings(games: Iterable[tuple[Sequence[str], Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """(seat names, state) of each game -> the rows of Standings.rows()."""
    table = Standings()
    for n, (names, state) in enumerate(games):
        table.set(n, names, state)
    return table.rows()
