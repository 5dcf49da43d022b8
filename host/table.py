"""One game at the table: the referee, its journal, and the bookkeeping around them.

Every input (a card from the camera, a board button, a key) comes in here as an event. It is
checked, appended to the journal and fsynced *before* anything is shown, so a crash at any
point loses nothing and a resume applies nothing twice. Two table-level records sit in the
journal beside the referee's events:

* `{"type": "undo"}` takes back the last referee event (UNDO button, `u` key, or a legal
  card the camera saw picked up again);
* `{"type": "taken_back"}` records that an illegal card was taken back (the camera saw the
  previous top card again), which clears the board's "ErrC".

Button events carry `"src": "board:<boot_id>:<n>"` (tableref.link.source_tag); a pair that is
already in the journal is never applied again (the board resends until it hears an ack, and a host restart reloads the
pairs from the journal).
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from typing import Any

from .link.journal_keys import parse_source_tag
from .record import Journal, read_record
from .referee import Referee, Verdict

TABLE_TYPES = ("undo", "taken_back")


@dataclass
class Outcome:
    """What one input did, for the views."""
    kind: str                      # "event" | "undo" | "taken_back" | "duplicate" | "nothing"
    event: dict[str, Any] | None = None
    verdict: Verdict | None = None
    note: str = ""


@dataclass
class TableSession:
    referee: Referee
    journal: Journal | None = None
    applied: set[tuple[str, int]] = field(default_factory=set)
    illegal_id: int = 0            # changes with each illegal card; 0 when none is outstanding
    _illegal_seq: int = 0

    @classmethod
    def new(cls, header: dict[str, Any], journal_path: pathlib.Path | None) -> "TableSession":
        referee = Referee(game=header["game"], players=header["players"], options=header.get("options") or {},
                          setup=header.get("setup") or {})
        journal = Journal.create(journal_path, header) if journal_path else None
        return cls(referee=referee, journal=journal)

    @classmethod
    def resume(cls, journal_path: pathlib.Path) -> "TableSession":
        """Rebuild the exact state from a journal, then keep appending to it."""
        header, records = read_record(journal_path, extra_types=TABLE_TYPES)
        session = cls(referee=Referee(game=header["game"], players=header["players"],
                                      options=header.get("options") or {}, setup=header.get("setup") or {}))
        for rec in records:
            session._apply(rec)
        session.journal = Journal.open_append(journal_path)
        return session

    @property
    def state(self) -> dict[str, Any]:
        return self.referee.state

    @property
    def game(self) -> str:
        return self.referee.game

    def submit(self, event: dict[str, Any]) -> Outcome:
        """Apply one input. Bad events raise UserError before anything is written."""
        key = parse_source_tag(event.get("src"))
        if key is not None and key in self.applied:
            return Outcome("duplicate", event)
        if event.get("type") not in TABLE_TYPES:
            self.referee.check(event)  # raises on a malformed event, so nothing bad is journalled
        elif event["type"] == "undo" and not self.referee.events:
            return Outcome("nothing", event, note="nothing to undo")
        if self.journal is not None:
            self.journal.append(event)
        return self._apply(event)

    def card_removed(self) -> Outcome:
        """The camera saw the previous top card again: an illegal card taken back, or a
        legal card picked up again (undone)."""
        if self.illegal_id:
            return self.submit({"type": "taken_back"})
        last = self.referee.events[-1] if self.referee.events else None
        if last is not None and last.get("type") == "card":
            return self.submit({"type": "undo"})
        return Outcome("nothing", note="a card was taken off the pile")

    def _apply(self, rec: dict[str, Any]) -> Outcome:
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
            return Outcome("taken_back", rec)
        event = {k: v for k, v in rec.items() if k not in ("src", "t", "frame", "confidence")}
        verdict = self.referee.push(event)
        if verdict.illegal is not None and event.get("type") == "card":
            self._illegal_seq += 1
            self.illegal_id = self._illegal_seq
        elif event.get("type") == "card" or verdict.illegal is None and kind in ("draw", "pass", "out"):
            self.illegal_id = 0
        return Outcome("event", event, verdict)


def journal_summary(path: pathlib.Path) -> str:
    """One line about an existing journal, for the resume prompt."""
    header, records = read_record(path, extra_types=TABLE_TYPES)
    return f"{path}: {header['game']}, {header['players']} players, {len(records)} events"

