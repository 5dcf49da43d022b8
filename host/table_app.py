"""The referee at the table: camera events, board buttons and typed commands in; journal,
board and screen out.

`TableController` is the one place where the three inputs meet. It turns each into an event
for the TableSession (which journals it before anything is shown), then shows the result on
the board and the screen. It does no I/O of its own: the board link and the view are handed in.

Seats from the camera: a landing comes with the bearing of the hand that brought it. The
seat map (tableref.seats) names the seat when it is sure, and the card is pushed with that
seat when it is not the seat on turn: the referee then flags a play out of turn, or credits
an overtake / jump-in to that seat; the terminal names the player and the board's ring
flashes the seat. Unsure, the card goes by turn order and the screen says so. The map
learns from plays the turn order makes certain and is journaled as a table record.
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
from .seats import SeatCall, SeatMap
from .table import Outcome, TableSession
from .terminal_view import seat_names


class View(Protocol):
    def update(self, ctrl: "TableController", line: str | None) -> None: ...

    def notice(self, text: str) -> None: ...


@dataclass
class Ask:
    """An unreadable card lies on the pile; the table is asked to name it."""
    t: float | None
    frame: int | None
    bearing: float | None = None  # where the hand that laid it came from (its seat is judged as the camera's)
    bearing_confidence: float = 0.0

    def where(self) -> dict[str, Any]:
        return {k: v for k, v in (("t", self.t), ("frame", self.frame)) if v is not None}


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
    seat_map: SeatMap | None = None       # None: the journal's last map, or an empty one
    credit: int | None = None             # the seat the camera credited with the last out-of-turn card
    seat_note: str = ""                   # why the last card went by turn order (shown with it)

    def __post_init__(self) -> None:
        self.names = seat_names(self.session.players, self.names)
        if self.seat_map is None:
            self.seat_map = journaled_seat_map(self.session)

    # -- camera --------------------------------------------------------------------------
    def calibrate_seats(self) -> None:
        """Start the seat calibration: each player in seat order lays a card on the pile
        (the camera sees the reach); those landings teach the map and are not played."""
        assert self.seat_map is not None
        self.seat_map.start_calibration()
        self.view.notice(f"seat calibration: {self.names[0]}, reach over the pile and lay a card on it")

    def _calibration_reach(self, bearing: float | None, bearing_confidence: float) -> None:
        assert self.seat_map is not None and self.seat_map.calibrating is not None
        seat = self.seat_map.calibrating
        if not self.seat_map.calibrate(bearing, bearing_confidence):
            self.view.notice(f"seat calibration: the camera could not tell where {self.names[seat]} reached "
                             "from; once more, please")
            return
        self.session.submit(self.seat_map.as_record())
        nxt = self.seat_map.calibrating
        self.view.notice(f"seat calibration: {self.names[seat]} done" + (
            f"; {self.names[nxt]}, your turn" if nxt is not None else
            f"; all seats learned ({self.seat_map.describe(self.names)}); start the game"))

    def landed(self, card: str | None, t: float | None = None, frame: int | None = None,
               confidence: float | None = None, bearing: float | None = None,
               bearing_confidence: float = 0.0) -> Outcome | None:
        assert self.seat_map is not None
        if self.seat_map.calibrating is not None:
            self._calibration_reach(bearing, bearing_confidence)
            return None
        where = {k: v for k, v in (("t", t), ("frame", frame)) if v is not None}
        if card is not None and confidence is not None and confidence < self.min_confidence:
            card = None  # not sure enough: ask rather than guess
        if card is not None and card not in self.session.codes:
            card = None  # a code this game does not have (another deck's card): ask, as for an unreadable one
        if card is None:
            # never guess: the board shows CArd and the screen asks for the card
            self.asking = Ask(t, frame, bearing, bearing_confidence)
            self.view.notice(f"which card? the camera cannot read the card on the pile (frame {frame}): "
                             "type x <card> (e.g. x red-5), or straighten it for another look")
            self.publish(None)
            return None
        self.asking = None
        self.last_card = card
        extra: dict[str, Any] = dict(where)
        if confidence is not None:
            extra["confidence"] = round(float(confidence), 3)
        return self._seat_and_submit(card, extra, bearing, bearing_confidence, "camera")

    def _seat_and_submit(self, card: str, extra: dict[str, Any], bearing: float | None,
                         bearing_confidence: float, by: str) -> Outcome | None:
        """Push a card the camera saw land (read by it, or named by the table when it could
        not read it) with the seat the seat map names when that is not the seat on turn."""
        assert self.seat_map is not None
        state = self.session.state
        event = {**landed_event(state, card), **extra}
        if bearing is not None:
            event["bearing"], event["bearing_confidence"] = round(bearing, 1), round(bearing_confidence, 3)
        self.credit, self.seat_note = None, ""
        if event["type"] != "card":
            return self._submit(event, by)
        expected = state.get("current_seat")
        call = self.seat_map.name(bearing, bearing_confidence, expected)
        credit = call.seat if call.seat is not None and call.seat != expected else None
        if credit is not None:
            event["seat"] = credit  # the camera saw another seat play it: the referee judges that
        elif by != "camera":
            event.pop("seat")  # a typed card's record, as ever
        self.seat_note = "" if call.seat is not None else f" (seat by turn order: {call.why})"
        self.credit = credit
        out = self._submit(event, by)
        if credit is not None and out is not None:
            self.view.notice(f"the camera credits {self.names[credit]} with {card}, played out of turn")
        if out is not None and out.kind == "event":
            self._learn(call, expected, state.get("top") != card, out, bearing, bearing_confidence)
        return out

    def _learn(self, call: SeatCall, expected: int | None, no_jump: bool, out: Outcome,
               bearing: float | None, bearing_confidence: float) -> None:
        """Teach the seat map a legal card whose seat is certain: one the map named, or the
        seat on turn when no other seat could have played this card out of turn (it differs
        from the card it covers)."""
        assert self.seat_map is not None
        if out.verdict is None or out.verdict.illegal is not None:
            return
        seat = call.seat if call.seat is not None else (expected if no_jump else None)
        if seat is not None and self.seat_map.learn(seat, bearing, bearing_confidence):
            self.session.submit(self.seat_map.as_record())

    def removed(self, t: float | None = None, frame: int | None = None) -> Outcome | None:
        if self.seat_map is not None and self.seat_map.calibrating is not None:
            return None  # a calibration card taken off again
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
        if cmd.action == "card" and self.asking is not None and cmd.seat is None:
            # the card the camera could not read, named: the camera still saw whose hand laid it
            ask, self.asking = self.asking, None
            self.last_card = cmd.arg
            self._seat_and_submit(cmd.arg, ask.where(), ask.bearing, ask.bearing_confidence, "key")
            return True
        self.credit, self.seat_note = None, ""
        if cmd.action == "card":
            # a typed card answers the camera's question (with its time and frame) or adds a card it missed
            where = {}
            if self.asking is not None:
                where = self.asking.where()
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
        self.credit, self.seat_note = None, ""
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
            text = describe_event(ev)
            for i, name in enumerate(self.names):
                text = text.replace(f"seat {i} ", f"{name} ").replace(f"seat {i}", name)
            if out.verdict is not None and out.verdict.illegal is not None:
                text += f" ILLEGAL ({out.verdict.illegal.get('reason')})"
            if ev.get("type") == "card":
                text += self.seat_note
            return text
        return out.note or out.kind

    def publish(self, line: str | None = None) -> None:
        """Show the current state on the board and the screen."""
        if self.link is not None:
            self.link.show(self.session.snapshot(asking=self.asking is not None, credit=self.credit))
        self.view.update(self, line)

    def poll_board(self, timeout_s: float = 0.0) -> int:
        """Apply the board's new presses; returns how many arrived."""
        if self.link is None:
            return 0
        events = self.link.poll(timeout_s=timeout_s)
        for btn in events:
            self.button(btn)
        return len(events)


def journaled_seat_map(session: TableSession) -> SeatMap:
    """The seat map of the journal's last seat_map record (a resumed game), else an empty one."""
    for rec in reversed(session.records):
        if rec.get("type") == "seat_map":
            return SeatMap.from_record(session.players, rec)
    return SeatMap(session.players)
