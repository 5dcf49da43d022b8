"""The referee at the table: camera events, board buttons and typed commands in; journal,
board and screen out.

`TableController` is the one place where the three inputs meet. It turns each into an event
for the TableSession (which journals it before anything is shown), then shows the result on
the board and the screen. It does no I/O of its own: the board link and the view are handed in.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from .actions import HELP, Undo, action_event, button_event, landed_event
from .errors import UserError
from .keyboard import Command
from .link import ButtonEvent, source_tag
from .rules.describe import describe_event
from .table import Outcome, TableSession
from .terminal_view import name_seats, seat_names


class View(Protocol):
    def update(self, ctrl: "TableController", line: str | None) -> None: ...

    def notice(self, text: str) -> None: ...


@dataclass
class Ask:
    """An unreadable card lies on the pile; the table is asked to name it."""
    t: float | None
    frame: int | None


@dataclass
class TableController:
    session: TableSession
    view: View
    link: Any = None                      # a BoardLink, or None to run without a board
    names: list[str] = field(default_factory=list)
    asking: Ask | None = None
    recent: deque = field(default_factory=lambda: deque(maxlen=8))
    on_outcome: Callable[[Outcome, str], None] | None = None  # observers (demo --json, tests)
    last_card: str | None = None
    min_confidence: float = 0.0           # readings below this are asked about, like unreadable ones

    def __post_init__(self) -> None:
        self.names = seat_names(self.session.players, self.names)

    # -- camera --------------------------------------------------------------------------
    def landed(self, card: str | None, t: float | None = None, frame: int | None = None,
               confidence: float | None = None) -> Outcome | None:
        where = {k: v for k, v in (("t", t), ("frame", frame)) if v is not None}
        if card is not None and confidence is not None and confidence < self.min_confidence:
            card = None  # not sure enough: ask rather than guess
        if card is not None and card not in self.session.codes:
            card = None  # a code this game does not have (another deck's card): ask, as for an unreadable one
        if card is None:
            # never guess: the board shows CArd and the screen asks for the card
            self.asking = Ask(t, frame)
            self.view.notice(f"which card? the camera cannot read the card on the pile (frame {frame}): "
                             "type x <card> (e.g. x red-5), or straighten it for another look")
            self.publish(None)
            return None
        self.asking = None
        self.last_card = card
        event = {**landed_event(self.session.state, card), **where}
        if confidence is not None:
            event["confidence"] = round(float(confidence), 3)
        return self._submit(event, "camera")

    def removed(self, t: float | None = None, frame: int | None = None) -> Outcome | None:
        if self.asking is not None:
            self.asking = None  # the unreadable card was taken away: nothing to ask any more
            self.publish("the unreadable card was taken off the pile")
            return None
        out = self.session.card_removed(t, frame)
        self._after(out, "camera")
        return out

    # -- keyboard and board buttons --------------------------------------------------------
    def command(self, cmd: Command) -> bool:
        """Apply a typed command; False when it asks to quit."""
        if cmd.action == "quit":
            return False
        if cmd.action == "help":
            self.view.notice(HELP)
            return True
        state = self.session.state
        if cmd.action == "card":
            # a typed card answers the camera's question (with its time and frame) or adds a card it missed
            where = {}
            if self.asking is not None:
                where = {k: v for k, v in (("t", self.asking.t), ("frame", self.asking.frame)) if v is not None}
                self.asking = None
            event = action_event("card", state, seat=cmd.seat, arg=cmd.arg, events=self.session.referee.events)
            if isinstance(event, dict):
                if event.get("type") == "card" and event.get("seat") is None:
                    event.pop("seat")
                self.last_card = cmd.arg
                self._submit({**event, **where}, "key")
            return True
        event = action_event(cmd.action, state, seat=cmd.seat, arg=cmd.arg, events=self.session.referee.events)
        if event is None:
            self.view.notice(f"{cmd.action.replace('_', ' ')} makes no sense now")
        elif isinstance(event, Undo):
            self._submit({"type": "undo"}, "key")
        else:
            self._submit(event, "key")
        return True

    def button(self, btn: ButtonEvent) -> Outcome | None:
        state = self.session.state
        event = button_event(self.session.game, btn.button, btn.press, btn.arg or "-", state,
                             events=self.session.referee.events)
        if event is None:
            return None
        record: dict[str, Any] = {"type": "undo"} if isinstance(event, Undo) else dict(event)
        record["src"] = source_tag(btn)
        return self._submit(record, "board")

    # -- plumbing ------------------------------------------------------------------------
    def _submit(self, event: dict[str, Any], by: str) -> Outcome | None:
        self._expected: int | None = self.session.state.get("current_seat")  # who a seat-less card is from
        try:
            out = self.session.submit(event)
        except UserError as exc:  # e.g. a typed card code that does not exist: say so, keep going
            self.view.notice(str(exc))
            return None
        self._after(out, by)
        return out

    def _after(self, out: Outcome, by: str) -> None:
        line = self.describe(out, by)
        if out.changed:
            self.recent.append(line)
        if self.on_outcome is not None:
            self.on_outcome(out, by)
        if out.kind == "nothing" and out.note:
            self.view.notice(out.note)
        self.publish(None if out.kind in ("duplicate",) else line)

    def describe(self, out: Outcome, by: str) -> str:
        if out.kind == "undo":
            return f"undo ({describe_event(out.event or {})})"
        if out.kind == "taken_back":
            return "illegal card taken back"
        if out.kind == "event" and out.event is not None:
            ev = dict(out.event)
            if ev.get("seat") is None and ev.get("type") == "card":
                ev["seat"] = getattr(self, "_expected", None)
            text = name_seats(describe_event(ev), self.names)
            if out.verdict is not None and out.verdict.illegal is not None:
                text += f" ILLEGAL ({out.verdict.illegal.get('reason')})"
            return text
        return out.note or out.kind

    def publish(self, line: str | None = None) -> None:
        """Show the current state on the board and the screen."""
        if self.link is not None:
            self.link.show(self.session.snapshot(asking=self.asking is not None))
        self.view.update(self, line)

    def poll_board(self, timeout_s: float = 0.0) -> int:
        """Apply the board's new presses; returns how many arrived."""
        if self.link is None:
            return 0
        events = self.link.poll(timeout_s=timeout_s)
        for btn in events:
            self.button(btn)
        return len(events)
