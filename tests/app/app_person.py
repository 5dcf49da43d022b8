"""The person at the keyboard in the end-to-end tests: what to type now, worked out from the
game's truth and the journal so far, as someone watching the table would."""
from __future__ import annotations

from typing import Any

from app_run_driver import _plain as plain, game_events  # noqa: F401 (the journal's game, for the tests)
from tableref.game_script import _typed


def is_card(ev: dict[str, Any]) -> bool:
    return ev["type"] in ("card", "flip")


def correction(expected: list[dict[str, Any]], done: list[dict[str, Any]]) -> list[str]:
    """`u` then `x <card>` when the camera's last card is not the game's (a misread)."""
    n = len(done)
    if n and done[:n - 1] == expected[:n - 1] and done[-1] != expected[n - 1] and is_card(expected[n - 1]) \
            and is_card(done[-1]):
        return ["u", f"x {expected[n - 1]['card']}"]
    return []


def due_lines(expected: list[dict[str, Any]], done: list[dict[str, Any]]) -> list[str]:
    """Lines for the inputs the camera cannot give that come next in the game (none when the
    next thing to happen is a card on the pile)."""
    out = []
    for ev in expected[len(done):]:
        if is_card(ev):
            break
        out.append(_typed(ev))
    return out
