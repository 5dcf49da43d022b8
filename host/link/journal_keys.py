"""How board presses are marked in the game journal, so a restarted host knows which it applied.

The app journals each referee event made from a press with `"src": source_tag(ev)`; on resume
`applied_pairs(events)` gives back the (boot_id, n) set for BoardLink.open(applied=...).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from tablelink.host import ButtonEvent

PREFIX = "board:"


def source_tag(ev: ButtonEvent) -> str:
    return f"{PREFIX}{ev.boot_id}:{ev.n}"


def parse_source_tag(tag: object) -> tuple[str, int] | None:
    if not isinstance(tag, str) or not tag.startswith(PREFIX):
        return None
    boot, _, n = tag[len(PREFIX):].partition(":")
    if len(boot) != 8 or not n.isdigit():
        return None
    return (boot, int(n))


def applied_pairs(events: Iterable[Mapping[str, Any]]) -> set[tuple[str, int]]:
    """(boot_id, n) of every journaled event that came from a board press."""
    out = set()
    for ev in events:
        key = parse_source_tag(ev.get("src"))
        if key is not None:
            out.add(key)
    return out
