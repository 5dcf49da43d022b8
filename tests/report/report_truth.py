"""What the simulator's truth (written from the spec, independently of the referee) says each
player did: the yardstick for the report's per-player figures."""
from __future__ import annotations

from collections import Counter
from typing import Any


def truth_seat(events: list[dict[str, Any]], truth: list[dict[str, Any]], i: int) -> int:
    if truth[i]["illegal"]:
        return truth[i]["illegal"]["seat"]
    ev = events[i]
    return ev["seat"] if ev.get("seat") is not None else truth[i - 1]["current_seat"]


def truth_counts(events: list[dict[str, Any]], truth: list[dict[str, Any]]) -> dict[str, Counter]:
    """figure -> Counter by seat (illegal: by (seat, reason))."""
    out = {k: Counter() for k in ("cards_played", "illegal", "drawn", "calls", "catches")}
    for i, ev in enumerate(events):
        bad = truth[i]["illegal"]
        if bad:
            out["illegal"][(bad["seat"], bad["reason"])] += 1
            continue
        seat = truth_seat(events, truth, i)
        if ev["type"] == "card":
            out["cards_played"][seat] += 1
        elif ev["type"] == "draw" and seat in truth[i]["eliminated"] and seat not in truth[i - 1]["eliminated"]:
            out["drawn"][seat] += ev["count"]  # the mercy rule: the hand went back to the draw pile
        elif ev["type"] == "draw":
            out["drawn"][seat] += truth[i]["hand_counts"][seat] - truth[i - 1]["hand_counts"][seat]
        elif ev["type"] in ("uno", "catch"):
            out["calls" if ev["type"] == "uno" else "catches"][seat] += 1
    return out


def assert_players_match(players: list[Any], counts: dict[str, Counter]) -> None:
    for seat, p in enumerate(players):
        assert p.cards_played == counts["cards_played"][seat]
        assert dict(p.illegal) == {r: n for (s, r), n in counts["illegal"].items() if s == seat}
        assert (p.drawn, p.calls, p.catches) == (counts["drawn"][seat], counts["calls"][seat], counts["catches"][seat])
