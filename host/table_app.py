"""The referee at the table: camera events, board buttons and typed commands in; journal,
board and screen out.

`TableController` is the one place where the three inputs meet. It turns each into an event
for the TableSession (which journals it before anything is shown), then publishes the table
to its feed (tableref.feed), which the board, the screen and any other output subscribe to.
It does no I/O of its own: the board link and the view are handed in.

Seats from the camera: a landing comes with the bearing of the hand that brought it. The
seat map (tableref.seats) names the seat when it is sure, and the card is pushed with that
seat when it is not the seat on turn: the referee then flags a play out of turn, or credits
an overtake / jump-in to that seat; the terminal names the player and the board's ring
flashes the seat. Unsure, the card goes by turn order and the screen says so. The map
learns from plays the turn order makes certain and is journaled as a table record.
"""
from __future__ import annotations

import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .actions import ANSWER_ACTIONS, HELP, Undo, action_event, answer_action, button_event, landed_event, offer_text, refusal
from .awaited import Awaited, awaited, describe, what_now
from .errors import UserError
from .feed import BoardOutput, Output, TableFeed, TableUpdate, game_id
from .keyboard import Command
from .link import ButtonEvent, source_tag
from .rules.describe import describe_event
from .seat_replay import replayed_seat_map
from .seats import SeatMap
from .table import Outcome, TableSession, make_header
from .terminal_view import REASONS, name_seats, seat_names


View = Output  # the screen is one output of the feed like any other


@dataclass
class Ask:
    """A card the camera could not read surely lies on the pile; the table is asked to name
    it, and may take the camera's likeliest code (`a`) or its runner-up (`s`)."""
    t: float | None
    frame: int | None
    likely: tuple[str, ...] = ()
    bearing: float | None = None  # where the hand that laid it came from (its seat is judged as the camera's)
    bearing_confidence: float = 0.0

    def where(self) -> dict[str, Any]:
        return {k: v for k, v in (("t", self.t), ("frame", self.frame)) if v is not None}


# A reading that would make the play illegal is asked about, not flagged, below this confidence:
# an unsure misreading must not beep at a legal play.
ILLEGAL_SURE = 0.9
ENROL_AFTER_ASKS = 3  # after this many cards in a row asked about, suggest teaching the deck

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
    asks_in_row: int = 0                  # cards in a row the camera had to ask about
    feed: TableFeed = field(default_factory=TableFeed)
    # scoring by showing a hand: (seat) -> the codes of every card spread under the camera, or
    # None when none could be read; None here: no multi-card reader attached, the cards are typed
    read_hand: Callable[[int], list[str] | None] | None = None
    seat_map: SeatMap | None = None       # None: the journal's last map, or an empty one
    credit: int | None = None             # the seat the camera credited with the last out-of-turn card
    seat_note: str = ""                   # why the last card went by turn order (shown with it)
    offered: tuple[int, list[str]] | None = None  # a hand the camera read, offered as this seat's

    _awaited: tuple[int, list[Awaited]] | None = None

    def __post_init__(self) -> None:
        self.names = seat_names(self.session.players, self.names)
        if self.seat_map is None:
            self.seat_map, owed = replayed_seat_map(self.session)
            if owed:  # a kill cut the run between a card and the map it taught: journal it now
                self.session.submit(self.seat_map.as_record())
        if self.link is not None:
            self.feed.subscribe(BoardOutput(self.link))  # the board first: the screen may show what it shows
        self.feed.subscribe(self.view)
        s = self.session
        plan = s.journal_plan()
        if plan is not None:  # the journal's own header: a resume, even with new names, is the same game
            self._header = dict(plan[1])
            self.game_id = game_id(self._header, str(plan[0].resolve()))
        else:
            self._header = make_header(s.game, s.players, s.referee.options, s.referee.setup)
            self.game_id = uuid.uuid4().hex[:12]
        self._header["names"] = list(self.names)

    def notice(self, text: str) -> None:
        self.feed.notice(text)

    def awaited(self) -> list[Awaited]:
        """What the referee waits for from a person now (worked out once per journal change)."""
        done = len(self.session.records)
        if self._awaited is None or self._awaited[0] != done:
            self._awaited = (done, awaited(self.session.referee))
        return self._awaited[1]

    def what_now(self) -> str:
        return what_now(self.session.referee, self.names)

    # -- camera --------------------------------------------------------------------------
    def calibrate_seats(self) -> None:
        """Start the seat calibration: each player in seat order lays a card on the pile
        (the camera sees the reach); those landings teach the map and are not played."""
        assert self.seat_map is not None
        self.seat_map.start_calibration()
        self.notice(f"seat calibration: {self.names[0]}, reach over the pile and lay a card on it")

    def _calibration_reach(self, bearing: float | None, bearing_confidence: float) -> None:
        assert self.seat_map is not None and self.seat_map.calibrating is not None
        seat = self.seat_map.calibrating
        if not self.seat_map.calibrate(bearing, bearing_confidence):
            self.notice(f"seat calibration: the camera could not tell where {self.names[seat]} reached "
                             "from; once more, please")
            return
        self.session.submit(self.seat_map.as_record())
        self.publish(None)
        nxt = self.seat_map.calibrating
        self.notice(f"seat calibration: {self.names[seat]} done" + (
            f"; {self.names[nxt]}, your turn" if nxt is not None else
            f"; all seats learned ({self.seat_map.describe(self.names)}); start the game"))

    def landed(self, card: str | None, t: float | None = None, frame: int | None = None,
               confidence: float | None = None, bearing: float | None = None,
               bearing_confidence: float = 0.0, likely: Sequence[Sequence[Any]] = ()) -> Outcome | None:
        """A card the camera saw land: `bearing` is where the hand that laid it came from, and
        `likely` its two likeliest codes (read or declined)."""
        assert self.seat_map is not None
        if self.seat_map.calibrating is not None:
            self._calibration_reach(bearing, bearing_confidence)
            return None
        where = {k: v for k, v in (("t", t), ("frame", frame)) if v is not None}
        options = tuple(c for c, *_ in likely if c in self.session.codes)
        if card is not None and confidence is not None and confidence < self.min_confidence:
            card = None  # not sure enough: ask rather than guess
        if card is not None and card not in self.session.codes:
            card = None  # a code this game does not have (another deck's card): ask, as for an unreadable one
        if card is None:
            # never guess: the board shows CArd and the screen asks for the card
            return self._ask(Ask(t, frame, options, bearing, bearing_confidence),
                             f"the camera cannot read the card on the pile (frame {frame})")
        play = landed_event(self.session.state, card)
        if confidence is not None and confidence < ILLEGAL_SURE and self.session.referee.check(dict(play)).illegal:
            options = (card,) + tuple(c for c in options if c != card)
            return self._ask(Ask(t, frame, options, bearing, bearing_confidence),
                             f"the camera read {card} (unsure), which would be illegal")
        self.asking = None
        self.asks_in_row = 0
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
        if bearing is not None:  # judged as journaled, so a replay of the journal judges the same
            bearing, bearing_confidence = round(bearing, 1), round(bearing_confidence, 3)
            event["bearing"], event["bearing_confidence"] = bearing, bearing_confidence
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
            self.notice(f"the camera credits {self.names[credit]} with {card}, played out of turn")
        if out is not None and out.kind == "event" and self.seat_map.learn_play(
                call, expected, state.get("top") == card, out.verdict is not None and out.verdict.ok,
                bearing, bearing_confidence):
            self.session.submit(self.seat_map.as_record())
            self.publish(None)  # the outputs see every record, the seat map's too
        return out

    def _ask(self, ask: Ask, why: str) -> None:
        self.asking = ask
        self.asks_in_row += 1
        if self.on_outcome is not None:  # evidence: a picture of the card the table is asked about
            self.on_outcome(Outcome("asked", note=f"frame {ask.frame}"), "camera")
        offer = offer_text(ask.likely, board=self.link is not None)
        self.notice(f"which card? {why}: {offer}or type x <card> (e.g. x red-5), "
                         "or straighten it for another look")
        if self.asks_in_row >= ENROL_AFTER_ASKS:
            self.notice(f"the camera has asked about {self.asks_in_row} cards in a row: teach it this deck "
                             "(tableref enroll --deck mydeck camera:0, then run with --deck mydeck)")
        self.publish(None)
        return None

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
            self.feed.notice(HELP)
            return True
        state = self.session.state
        if cmd.action in ANSWER_ACTIONS:
            code = self._offered(cmd.action, "as"[ANSWER_ACTIONS.index(cmd.action)])
            if code is None:
                return True
            cmd = Command("card", cmd.seat, code)
        if cmd.action == "card" and self.asking is not None and cmd.seat is None:
            self._answered(cmd.arg, "key")
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
        if cmd.action == "reveal" and cmd.arg is None:
            return self._reveal_shown(cmd.seat)
        event = action_event(cmd.action, state, seat=cmd.seat, arg=cmd.arg, events=self.session.referee.events)
        if event is None:
            self.notice(f"{cmd.action.replace('_', ' ')} makes no sense now; now: {self.what_now()}")
        elif isinstance(event, Undo):
            self._submit({"type": "undo"}, "key")
        elif not self._refused(event):
            self._submit(event, "key")
        return True

    def _reveal_shown(self, seat: int | None) -> bool:
        """`<seat> v` alone: score the hand spread under the camera (typing stays the fallback)."""
        who = seat if seat is not None else self._next_to_show()
        if who is None:
            self.notice(f"v: whose hand? type <seat> v; now: {self.what_now()}")
            return True
        cards = self.read_hand(who) if self.read_hand is not None else None
        if cards is None:
            why = "no card reader for a whole hand is attached" if self.read_hand is None else "no card read"
            self.notice(f"{self.names[who]}'s hand: {why}; type the cards: {who} v <card> <card> ...")
            return True
        self.notice(f"{self.names[who]}'s hand as read: {' '.join(cards) or 'no cards'} (u undoes it)")
        self._reveal(who, cards)
        return True

    def _next_to_show(self) -> int | None:
        """The first seat whose hand the referee still waits to see."""
        return next((a.seat for a in self.awaited() if a.kind == "reveal"), None)

    def _reveal(self, seat: int, cards: list[str]) -> None:
        if not self._refused({"type": "reveal", "seat": seat, "cards": cards}):
            self._submit({"type": "reveal", "seat": seat, "cards": cards}, "camera")

    def offer_hand(self, cards: list[str]) -> None:
        """The camera read a hand spread under it: offer it as the next seat's, for Enter to accept."""
        seat = self._next_to_show()
        if seat is not None:
            self.offered = (seat, list(cards))
            self.publish(None)

    def offer_text(self) -> str | None:
        """The hand on offer in words, with the keys that accept or correct it."""
        if self.offered is None:
            return None
        seat, cards = self.offered
        return (f"{self.names[seat]}'s hand (seat {seat}) read as: {' '.join(cards)} -- Enter accepts; "
                f"else type {seat} v and every card")

    def accept_hand(self) -> None:
        assert self.offered is not None
        (seat, cards), self.offered = self.offered, None
        self._reveal(seat, cards)

    def _refused(self, event: dict[str, Any]) -> bool:
        """A slip (a key that has nothing to do now) is said on the screen, never journaled."""
        try:
            reason = refusal(self.session.referee, event)
        except UserError:
            return False  # a malformed event: _submit says what is wrong with it
        if reason is None:
            return False
        self.notice(f"not now: {self._named(describe_event(event))} - {REASONS.get(reason, reason)}; "
                         f"nothing recorded. Now: {self.what_now()}")
        return True

    def _offered(self, action: str, what: str, shown: str | None = None) -> str | None:
        """The code the camera offers for an `a`/`s` key or its board press (`what` names it in
        the notice), or None, said on the screen: nothing offered, or the board showed another
        code (`shown`) than the one asked about now (the question changed under the press)."""
        pick = ANSWER_ACTIONS.index(action)
        if self.asking is None or len(self.asking.likely) <= pick:
            self.notice(f"{what}: the camera has no card to offer now; now: {self.what_now()}")
            return None
        code = self.asking.likely[pick]
        if shown is not None and shown != code:
            self.notice(f"{what}: the board offered {shown}, but the camera now asks about another card "
                        f"({', '.join(self.asking.likely)}); nothing taken, press again")
            return None
        return code

    def _answered(self, card: str, by: str, extra: dict[str, Any] | None = None) -> Outcome | None:
        """The card the camera could not read, named (typed, or taken from its offer by a key or
        a board press): pushed with the time and frame of the question, and the seat the camera
        saw lay it."""
        assert self.asking is not None
        ask, self.asking = self.asking, None
        self.last_card = card
        return self._seat_and_submit(card, {**ask.where(), **(extra or {})}, ask.bearing, ask.bearing_confidence, by)

    def button(self, btn: ButtonEvent) -> Outcome | None:
        action = answer_action(btn.button, btn.press) if btn.arg is not None else None
        if action is not None:
            # a board press answering the question: it names the code the board showed
            code = self._offered(action, f"{btn.button} {btn.press}", shown=btn.arg)
            return None if code is None else self._answered(code, "board", {"src": source_tag(btn)})
        state = self.session.state
        event = button_event(self.session.game, btn.button, btn.press, btn.arg or "-", state,
                             events=self.session.referee.events)
        if event is None or (isinstance(event, dict) and self._refused(event)):
            return None
        self.credit, self.seat_note = None, ""
        record: dict[str, Any] = {"type": "undo"} if isinstance(event, Undo) else dict(event)
        record["src"] = source_tag(btn)
        return self._submit(record, "board")

    def submit(self, event: dict[str, Any], by: str = "key") -> Outcome | None:
        """A ready-made event (a simulated or replayed table): journaled and published like any other."""
        return self._submit(dict(event), by)

    # -- plumbing ------------------------------------------------------------------------
    def _submit(self, event: dict[str, Any], by: str) -> Outcome | None:
        self._expected: int | None = self.session.state.get("current_seat")  # who a seat-less card is from
        try:
            out = self.session.submit(event)
        except UserError as exc:  # e.g. a typed card code that does not exist: say so, keep going
            self.feed.notice(str(exc))
            return None
        self._after(out, by)
        return out

    def _after(self, out: Outcome, by: str) -> None:
        if self.offered is not None and self.offered[0] != self._next_to_show():
            self.offered = None  # that seat's hand was typed, or the hand is no longer scored
        line = self.describe(out, by)
        if out.changed:
            self.recent.append(line)
        if self.on_outcome is not None:
            self.on_outcome(out, by)
        if out.kind == "nothing" and out.note:
            self.feed.notice(out.note)
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
            if ev.get("type") == "card":
                text += self.seat_note
            return text
        return out.note or out.kind

    def _named(self, text: str) -> str:
        return name_seats(text, self.names)

    def publish(self, line: str | None = None) -> None:
        """Hand the table as it is now, and the records journaled since the last time, to the feed."""
        s = self.session
        records = s.records
        self.feed.publish(TableUpdate(
            game=s.game, players=s.players, names=tuple(self.names), header=self._header, game_id=self.game_id,
            state=s.state, asking=self.asking is not None, credit=self.credit, illegal_id=s.illegal_id, line=line,
            offer=self.asking.likely if self.asking is not None else (),
            waiting=tuple(describe(item, self.names) for item in self.awaited()),
            recent=tuple(self.recent), index=len(records), last=records[-1] if records else None,
            new_records=self.feed.pending(records)))

    def poll_board(self, timeout_s: float = 0.0) -> int:
        """Apply the board's new presses; returns how many arrived."""
        if self.link is None:
            return 0
        events = self.link.poll(timeout_s=timeout_s)
        for btn in events:
            self.button(btn)
        return len(events)
