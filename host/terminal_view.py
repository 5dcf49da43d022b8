"""What the terminal shows during a game: seats around a table, the total, the direction,
pending obligations, the last events and illegal plays. Pure: a state dict in, text out.

The state is the referee's `state` dict (spec/rules.md section 1.6); nothing here reads a
device or the clock, so the same frame renders the same way in tests, the demo and `run`.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from .rules import ruleset_class
from .rules.describe import plays

REASONS = {
    "out_of_turn": "not your turn",
    "no_match": "matches neither the colour nor the symbol",
    "must_draw": "you owe a draw: draw instead",
    "cannot_stack": "cannot be stacked on the pending draw",
    "stack_value_too_low": "draw card lower than the last one",
    "ono99_unplayable": "an ONO 99 card cannot be played alone",
    "bust_should_declare_out": "that card busts: the seat is out",
    "invalid_catch": "that seat cannot be caught",
    "not_identical_out_of_turn": "out-of-turn card is not identical to the top card",
    "pass_not_allowed": "pass only after drawing",
    "wrong_seat": "that seat has nothing to do now",
    "awaiting_input": "waiting for a colour or target first",
}
# reasons given only to a card played onto the pile, which the table then takes back; the
# others are said of a key or button (nothing lies on the pile), or of a card that counts
# although illegal (a broken ONO set)
TAKE_BACK = frozenset({"out_of_turn", "no_match", "must_draw", "cannot_stack", "stack_value_too_low",
                       "bust_should_declare_out", "not_identical_out_of_turn"})

RED, GREEN, YELLOW, BLUE, BOLD, DIM, RESET = (
    "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[34m", "\x1b[1m", "\x1b[2m", "\x1b[0m")
COLOUR_CODES = {"red": RED, "yellow": YELLOW, "green": GREEN, "blue": BLUE}


class Style:
    """ANSI styling that can be switched off (pipes, tests, dumb terminals)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, code: str, text: str) -> str:
        return f"{code}{text}{RESET}" if self.enabled else text


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    given = list(names or [])
    return [given[i] if i < len(given) else f"P{i}" for i in range(players)]


def name_seats(text: str, names: Sequence[str]) -> str:
    """`seat 2 plays ...` with the players' names for the seat numbers."""
    for i, name in enumerate(names):
        text = text.replace(f"seat {i} ", f"{name} ").replace(f"seat {i}", name)
    return text


def describe_pending(pending: dict[str, Any] | None, names: Sequence[str]) -> str | None:
    if not pending:
        return None
    who = names[pending["seat"]] if pending.get("seat") is not None else "?"
    kind = pending.get("kind")
    if kind == "play":
        return f"{who} owes {plays(pending.get('count'))}"
    if kind == "draw":
        return f"{who} must draw {pending.get('count')} (or stack, if allowed)"
    if kind == "roulette":
        return f"{who} names a colour and turns cards until it shows"
    return f"{who}: {kind}"


def describe_illegal(illegal: dict[str, Any] | None, names: Sequence[str]) -> str | None:
    if not illegal:
        return None
    seat = illegal.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    reason = illegal.get("reason", "")
    hint = " - take the card back" if reason in TAKE_BACK else ""
    return f"ILLEGAL ({who}): {REASONS.get(reason, reason)}{hint}"


def _ring_positions(n: int, width: int, height: int) -> list[tuple[int, int]]:
    # Seat 0 sits at the bottom (nearest the person at the keyboard); seats go clockwise as
    # seen from above, which on screen is counter-clockwise from the bottom towards the left.
    cx, cy = width / 2, height / 2
    out = []
    for i in range(n):
        a = math.pi / 2 + 2 * math.pi * i / n
        out.append((round(cx + (width / 2 - 7) * math.cos(a)), round(cy + (height / 2 - 1) * math.sin(a))))
    return out


def render_table(state: dict[str, Any], names: Sequence[str], style: Style, width: int = 46, height: int = 9) -> list[str]:
    """The seats drawn around an oval, the seat to act highlighted, the total in the middle."""
    n = len(names)
    grid = [[" "] * width for _ in range(height)]
    marks: list[tuple[int, int, str, str]] = []
    eliminated = set(state.get("eliminated") or [])
    current = state.get("current_seat")
    for seat, (x, y) in enumerate(_ring_positions(n, width, height)):
        label = names[seat][:8]
        if seat in eliminated:
            text, code = f"x{label}x", DIM
        elif seat == current:
            text, code = f">{label}<", BOLD + GREEN
        else:
            text, code = f" {label} ", ""
        x0 = max(0, min(width - len(text), x - len(text) // 2))
        marks.append((y, x0, text, code))
    centre = _centre_text(state)
    marks.append((height // 2, max(0, (width - len(centre)) // 2), centre, BOLD))
    lines = []
    for y in range(height):
        row = grid[y]
        spans = sorted((m for m in marks if m[0] == y), key=lambda m: m[1])
        out, pos = "", 0
        for _, x0, text, code in spans:
            if x0 < pos:
                x0 = pos
            out += "".join(row[pos:x0]) + (style(code, text) if code else text)
            pos = x0 + len(text)
        lines.append((out + "".join(row[pos:])).rstrip())
    return lines


def _centre_text(state: dict[str, Any]) -> str:
    arrow = "->" if state.get("direction", "cw") == "cw" else "<-"
    if state.get("total") is not None and state.get("top") is None:
        return f"{arrow} {state['total']} {arrow}"
    top = state.get("top") or "?"
    colour = state.get("color")
    return f"{arrow} {top}{' ' + colour if colour and colour not in top else ''} {arrow}"


def render(state: dict[str, Any], game: str, names: Sequence[str], last_events: Iterable[str] = (),
           style: Style | None = None, notice: str | None = None, waiting: Sequence[str] | None = None) -> str:
    """The whole screen for one state, as lines of text; `waiting`: each awaited input with its
    key (tableref.awaited.describe), else the state's bare `awaiting` list."""
    style = style or Style(False)
    title = ruleset_class(game).title
    head = f"{title} - hand {state.get('hand', 1)}"
    if ruleset_class(game).family == "ninety_nine" and state.get("total") is not None:  # UNO's state has a total too, always 0
        head += f" - total {state['total']}"
    lines = [style(BOLD, head), ""]
    lines += render_table(state, names, style)
    lines.append("")
    direction = "clockwise" if state.get("direction", "cw") == "cw" else "counter-clockwise"
    current = state.get("current_seat")
    turn = names[current] if current is not None else "-"
    lines.append(f"turn: {turn}   direction: {direction}")
    if state.get("color"):
        lines.append("colour: " + style(COLOUR_CODES.get(state["color"], ""), state["color"]))
    if state.get("hand_counts"):
        lines.append("cards: " + "  ".join(f"{names[i]} {c}" for i, c in enumerate(state["hand_counts"])))
    if state.get("tokens"):
        lines.append("tokens: " + "  ".join(f"{names[i]} {c}" for i, c in enumerate(state["tokens"])))
    if state.get("scores") and any(state["scores"]):
        lines.append("scores: " + "  ".join(f"{names[i]} {c}" for i, c in enumerate(state["scores"])))
    pending = describe_pending(state.get("pending"), names)
    if pending:
        lines.append(style(YELLOW, "pending: " + pending))
    if waiting is None:
        waiting = []
        for item in state.get("awaiting") or []:
            who = names[item["seat"]] if item.get("seat") is not None else "?"
            waiting.append(f"{item['kind'].replace('_', ' ')} from {who}")
    for text in waiting:
        lines.append(style(YELLOW, f"waiting for: {text}"))
    owed = state.get("penalty_draws") or {}
    if owed:
        lines.append(style(YELLOW, "penalty: " + ", ".join(f"{names[int(s)]} draws {c}" for s, c in owed.items())))
    illegal = describe_illegal(state.get("illegal"), names)
    if illegal:
        lines.append(style(RED + BOLD, illegal))
    if state.get("game_over") and state.get("winner") is not None:
        lines.append(style(GREEN + BOLD, f"WINNER: {names[state['winner']]}"))
    elif state.get("hand_over") and state.get("hand_winner") is not None:
        lines.append(style(GREEN, f"hand won by {names[state['hand_winner']]}"))
    if notice:
        lines.append(style(YELLOW + BOLD, notice))
    events = list(last_events)
    if events:
        lines.append("")
        lines.append("last: " + " | ".join(events[-6:]))
    return "\n".join(lines)


CONFIRM_HELP = ("Enter alone if right; else fix it first, each line with its Enter (u to undo, x red-5 for "
                "the right card, d 4, w 2), then Enter alone; a single key such as p or r acts at once")


def prompt_line(typed: str, paused: bool = False, may_go_on: bool = False, confirming: bool = False,
                offer: str | None = None) -> str:
    """The line the cursor sits on: what the keyboard is for now, then what is being typed;
    `offer`: a hand the camera read, for Enter to accept."""
    if confirming:
        head = f"confirm? {CONFIRM_HELP}"
    elif offer is not None:
        head = f"video paused - {offer}" if paused else offer
    elif paused and may_go_on:
        head = "video paused - answer what is waited for above, or Enter alone: a card comes instead"
    elif paused:
        head = "video paused until the table answers what is waited for above"
    else:
        return f"> {typed}"
    return f"{head}\n> {typed}"
