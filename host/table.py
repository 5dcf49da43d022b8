"""One game at the table: the referee, its journal, and the bookkeeping around them.

Every input (a card from the camera, a board button, a key) comes in here as an event. It is
checked, appended to the journal and fsynced *before* anything is shown, so a crash at any
point loses nothing and a resume applies nothing twice. Two table-level records sit in the
journal beside the referee's events (tableref.record.TABLE_RECORD_TYPES):

* `{"type": "undo"}` takes back the last referee event (UNDO button, `u` key, or a legal
  card the camera saw picked up again);
* `{"type": "taken_back"}` records that an illegal card was taken back (the camera saw the
  previous top card again), which clears the board's "ErrC";
* `{"type": "seat_map", ...}` is the camera's seat map as it stands (tableref.seats).

Button events carry `"src": "board:<boot_id>:<n>"` (tableref.link.source_tag); a pair that
is already in the journal is never applied again (the board resends until it hears an ack,
and a host restart reloads the pairs from the journal). Camera records carry the video time
and frame (`t`, `frame`), which lets a resumed run skip what it already watched.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tablelink.messages import Snapshot

from .board_view import board_snapshot
from .errors import UserError
from .link.journal_keys import parse_source_tag
from .record import TABLE_RECORD_TYPES, Journal, RecordHeader, read_record, repair_torn_tail
from .referee import Referee, Verdict
from .rules import make_ruleset

TABLE_TYPES = TABLE_RECORD_TYPES
# keys the table adds to an event for its own use; the referee never sees them
TABLE_KEYS = ("src", "t", "frame", "confidence", "by", "bearing", "bearing_confidence")


@dataclass
class Outcome:
    """What one input did, for the views."""
    kind: str                      # "event" | "undo" | "taken_back" | "seat_map" | "duplicate" | "nothing" | "asked"
    event: dict[str, Any] | None = None
    verdict: Verdict | None = None
    note: str = ""

    @property
    def changed(self) -> bool:
        return self.kind in ("event", "undo", "taken_back")


def make_header(game: str, players: int, options: Mapping[str, Any] | None = None,
                setup: Mapping[str, Any] | None = None, names: list[str] | None = None,
                table: Mapping[str, str] | None = None) -> dict[str, Any]:
    # the journal's own header type writes it, names and source/port included (a resumed game keeps them)
    return RecordHeader(game, players, dict(options or {}), dict(setup or {}), list(names or []),
                        dict(table or {})).to_json()


@dataclass
class TableSession:
    referee: Referee
    journal: Journal | None = None
    applied: set[tuple[str, int]] = field(default_factory=set)
    records: list[dict[str, Any]] = field(default_factory=list)  # every journaled record, as written
    illegal_id: int = 0            # id of the outstanding illegal input; 0 when none is outstanding
    _illegal_seq: int = 0
    _codes: frozenset[str] | None = None
    _unwritten: tuple[pathlib.Path, dict[str, Any]] | None = None  # a journal created by the first record

    @classmethod
    def new(cls, header: Mapping[str, Any], journal_path: pathlib.Path | None,
            on_first_record: bool = False) -> "TableSession":
        """A new game. `on_first_record`: the journal file is created with the first record, so
        a start that fails (or a quit before anything happened) leaves no empty game behind."""
        referee = Referee(game=header["game"], players=header["players"], options=header.get("options") or {},
                          setup=header.get("setup") or {})
        session = cls(referee=referee)
        if journal_path is not None:
            head = make_header(header["game"], header["players"], header.get("options"), header.get("setup"),
                               header.get("names"), header.get("table"))
            if on_first_record:
                RecordHeader.from_json(head, str(journal_path))  # a header it could not write: say so now
                session._unwritten = (journal_path, head)
            else:
                session.journal = Journal.create(journal_path, head)
        return session

    def journal_plan(self) -> tuple[pathlib.Path, dict[str, Any]] | None:
        """Where the journal is, or will be once the first record comes, and its header."""
        if self.journal is not None:
            return self.journal.path, self.journal.header.to_json()
        return self._unwritten

    @classmethod
    def resume(cls, journal_path: pathlib.Path, notice: Callable[[str], None] | None = None) -> "TableSession":
        """Rebuild the exact state from a journal, then keep appending to it."""
        mended = repair_torn_tail(journal_path)
        if mended and notice is not None:
            notice(mended)
        header, records = read_record(journal_path)
        session = cls(referee=Referee(game=header.game, players=header.players,
                                      options=header.options, setup=header.setup))
        for no, rec in enumerate(records):
            try:
                session.apply_record(rec)
            except Exception as exc:  # e.g. an undo with nothing to undo: a journal we did not write
                from .errors import UserError
                raise UserError(f"{journal_path}: record {no + 1} cannot be applied: {exc}") from None
        session.journal = Journal.open_append(journal_path)
        return session

    # -- views ---------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The referee's state as the table should see it: an illegal play that was taken
        back (or undone) is no longer reported."""
        st = self.referee.state
        if not self.illegal_id:
            st["illegal"] = None
        return st

    @property
    def game(self) -> str:
        return self.referee.game

    @property
    def players(self) -> int:
        return self.referee.players

    @property
    def codes(self) -> frozenset[str]:
        """Every card code this game has (a reading outside it is another deck's card)."""
        if self._codes is None:
            self._codes = make_ruleset(self.game, self.players, self.referee.options).codes
        return self._codes

    def snapshot(self, asking: bool = False, credit: int | None = None) -> Snapshot:
        """What the board shows; `asking`: the referee waits for the table to name a card;
        `credit`: the seat the camera credited with a card played out of turn."""
        return board_snapshot(self.state, self.game, self.players, self.illegal_id, asking=asking, credit=credit)

    @property
    def last_frame(self) -> int | None:
        """The last video frame a journaled camera record came from (None: none yet)."""
        frames = [r["frame"] for r in self.records if isinstance(r.get("frame"), int)]
        return max(frames) if frames else None

    # -- inputs --------------------------------------------------------------------------
    def submit(self, event: Mapping[str, Any]) -> Outcome:
        """Apply one input. Bad events raise UserError before anything is written."""
        event = dict(event)
        key = parse_source_tag(event.get("src"))
        if key is not None and key in self.applied:
            return Outcome("duplicate", event)
        if event.get("type") not in TABLE_TYPES:
            self.referee.check(_game_event(event))  # raises on a malformed event: nothing bad is journalled
        elif event["type"] == "undo" and not self.referee.events:
            return Outcome("nothing", event, note="nothing to undo")
        if self._unwritten is not None:
            self.journal, self._unwritten = Journal.create(*self._unwritten), None
        if self.journal is not None:
            self.journal.append(event)  # on disk (fsynced) before anything is shown
        self.records.append(event)
        return self._apply(event)

    def card_removed(self, t: float | None = None, frame: int | None = None) -> Outcome:
        """The camera saw the previous top card again: an illegal card taken back, or a
        legal card picked up again (undone)."""
        where = {k: v for k, v in (("t", t), ("frame", frame)) if v is not None}
        if self.illegal_id:
            return self.submit({"type": "taken_back", **where})
        last = self.referee.events[-1] if self.referee.events else None
        if last is not None and last.get("type") in ("card", "flip"):
            return self.submit({"type": "undo", **where})
        return Outcome("nothing", note="a card was taken off the pile")

    def check_record(self, rec: Mapping[str, Any]) -> None:
        """UserError for a record that cannot be applied now (a received copy of a journal may
        hold anything); nothing changes."""
        if rec.get("type") not in TABLE_TYPES:
            self.referee.check(_game_event(rec))
        elif rec["type"] == "undo" and not self.referee.events:
            raise UserError("an undo with nothing to undo")

    def apply_record(self, rec: Mapping[str, Any]) -> Outcome:
        """Apply a record that is already in a journal (a resume, or a copy of the journal
        received elsewhere, e.g. by the scoreboard); nothing is written."""
        out = self._apply(rec)
        self.records.append(dict(rec))
        return out

    def _apply(self, rec: Mapping[str, Any]) -> Outcome:
        key = parse_source_tag(rec.get("src"))
        if key is not None:
            self.applied.add(key)
        kind = rec.get("type")
        if kind == "undo":
            undone = self.referee.pop()
            self.illegal_id = 0
            return Outcome("undo", undone)
        if kind == "taken_back":
            self.illegal_id = 0
            return Outcome("taken_back", dict(rec))
        if kind == "seat_map":
            return Outcome("seat_map", dict(rec))
        event = _game_event(rec)
        verdict = self.referee.push(event)
        if verdict.illegal is not None:
            self._illegal_seq += 1
            self.illegal_id = self._illegal_seq
        else:
            self.illegal_id = 0
        return Outcome("event", event, verdict)

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()


def _game_event(rec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in rec.items() if k not in TABLE_KEYS}


def journal_summary(path: pathlib.Path) -> str:
    """One line about an existing journal, for the resume prompt."""
    header, records = read_record(path)
    return f"{path}: {header.game}, {header.players} players, {len(records)} records"
