"""Game records: JSON Lines, a header line then one event per line (ENGINE_API.md).

The same file is the journal of a live game (appended and fsynced event by event), the input
of `tableref replay`, and the game's archive. Every problem is a UserError naming file:line.
"""
from __future__ import annotations

import json
import os
import pathlib
from dataclasses import dataclass, field
from typing import IO, Any, Mapping

from .errors import UserError
from .rules import make_ruleset, validate_event

FORMAT_VERSION = 1

# Table-level records a live game's journal holds beside the referee's events (tableref.table):
# `{"type": "undo"}` takes back the last referee event, `{"type": "taken_back"}` notes that an
# illegal card left the pile, `{"type": "seat_map", "seats": [...]}` is the camera's seat map
# as it stands (tableref.seats), so a resumed game keeps it. They are not game events, so the
# referee never validates them; replaying a record applies `undo` as pop() and skips the others.
TABLE_RECORD_TYPES = ("undo", "taken_back", "seat_map")


@dataclass(frozen=True)
class RecordHeader:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)  # seat 0 first; may be fewer than players
    # where a live game was watched ({"source": ..., "port": ...}), so a plain --resume finds them
    table: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"tableref": FORMAT_VERSION, "game": self.game,
                               "players": self.players, "options": dict(self.options)}
        if self.setup:
            obj["setup"] = dict(self.setup)
        if self.names:
            obj["names"] = list(self.names)
        if self.table:
            obj["table"] = dict(self.table)
        return obj

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "RecordHeader":
        if not isinstance(obj, dict) or "tableref" not in obj:
            raise UserError(f"{where}: not a tableref record header "
                            '(expected {"tableref": 1, "game": ..., "players": ...})')
        if obj["tableref"] != FORMAT_VERSION:
            raise UserError(f"{where}: unsupported record version {obj['tableref']!r}")
        options = obj.get("options") or {}
        setup = obj.get("setup") or {}
        names = obj.get("names") or []
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise UserError(f"{where}: \"names\" must be a list of player names")
        table = obj.get("table") or {}
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            raise UserError(f"{where}: \"table\" must map source/port to text")
        try:
            header = cls(obj.get("game"), obj.get("players"), options, setup, names, table)  # type: ignore[arg-type]
            rules = make_ruleset(header.game, header.players, options)
            rules.initial_state(setup)
            if len(names) > header.players:
                raise UserError(f"{len(names)} names for {header.players} players")
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
        return header


def _parse_line(text: str, where: str, last: bool) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        hint = "truncated line" if last and not text.endswith("\n") else "malformed JSON"
        raise UserError(f"{where}: {hint} ({exc.msg} at column {exc.colno})") from None


def _check_line(obj: Any, header: RecordHeader, codes: frozenset[str], extra_types: tuple[str, ...]) -> dict[str, Any]:
    if isinstance(obj, Mapping) and obj.get("type") in extra_types:
        return dict(obj)
    return validate_event(obj, header.players, codes, header.game)


def read_record(path: str | pathlib.Path, extra_types: tuple[str, ...] = TABLE_RECORD_TYPES
                ) -> tuple[RecordHeader, list[dict[str, Any]]]:
    """Header and validated events of a record; UserError names file:line for any bad line.

    Records whose type is in `extra_types` (by default the table records undo/taken_back)
    are returned as they are; pass `extra_types=()` to accept game events only.
    """
    p = pathlib.Path(path)
    try:
        with open(p, encoding="utf-8-sig", newline="") as fh:  # tolerate a BOM
            lines = fh.readlines()
    except FileNotFoundError:
        raise UserError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{p}: is a directory, not a game record") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{p}: cannot read ({exc.__class__.__name__})") from None
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    if not numbered:
        raise UserError(f"{p}: empty record (no header line)")
    final = numbered[-1][0]
    first_no, first = numbered[0]
    header = RecordHeader.from_json(_parse_line(first, f"{p}:{first_no}", first_no == final),
                                    f"{p}:{first_no}")
    rules = make_ruleset(header.game, header.players, header.options)
    events = []
    for no, line in numbered[1:]:
        where = f"{p}:{no}"
        obj = _parse_line(line, where, no == final)
        try:
            events.append(_check_line(obj, header, rules.codes, extra_types))
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
    return header, events


def repair_torn_tail(path: str | pathlib.Path) -> str | None:
    """Mend the one damage a crash can do to a journal: a last line cut off mid-write.

    The journal writes each record as one whole line and fsyncs it before anything is shown,
    so a torn last line was never shown nor acknowledged: dropping it loses nothing (the
    camera or the board's resend brings that input back). A last line that is complete but
    for its newline is kept. Returns a notice for the person, or None when nothing was done.
    """
    p = pathlib.Path(path)
    try:
        data = p.read_bytes()
    except OSError:
        return None  # read_record will say what is wrong
    if not data or data.endswith(b"\n"):
        return None
    cut = data.rfind(b"\n") + 1
    tail = data[cut:]
    try:
        json.loads(tail)
    except ValueError:
        with open(p, "r+b") as fh:
            fh.truncate(cut)
            os.fsync(fh.fileno())
        return f"{p}: dropped a last line cut off by a crash ({len(tail)} bytes, never shown)"
    with open(p, "ab") as fh:
        fh.write(b"\n")
        os.fsync(fh.fileno())
    return None


class Journal:
    """Append-only record of a live game: each event is on disk before append() returns."""

    def __init__(self, path: pathlib.Path, fh: IO[str], header: RecordHeader,
                 events: list[dict[str, Any]]) -> None:
        self.path = path
        self._fh = fh
        self.header = header
        self.events = events
        self._rules = make_ruleset(header.game, header.players, header.options)

    @classmethod
    def create(cls, path: str | pathlib.Path, header: RecordHeader | Mapping[str, Any]) -> "Journal":
        p = pathlib.Path(path)
        if not isinstance(header, RecordHeader):
            header = RecordHeader.from_json(dict(header), str(p))
        RecordHeader.from_json(header.to_json(), str(p))  # refuse a header we could not read back
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            fh = open(p, "x", encoding="utf-8")
        except FileExistsError:
            raise UserError(f"{p}: already exists (use --resume to continue it)") from None
        except OSError as exc:
            raise UserError(f"{p}: cannot create ({exc.strerror})") from None
        journal = cls(p, fh, header, [])
        journal._write(header.to_json())
        return journal

    @classmethod
    def open_append(cls, path: str | pathlib.Path) -> "Journal":
        p = pathlib.Path(path)
        header, events = read_record(p)
        try:
            fh = open(p, "a", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{p}: cannot append ({exc.strerror})") from None
        return cls(p, fh, header, events)

    def append(self, event: Mapping[str, Any]) -> None:
        """Write one event (EventError, nothing written, if the record could not read it back)."""
        _check_line(event, self.header, self._rules.codes, TABLE_RECORD_TYPES)
        self._write(dict(event))
        self.events.append(dict(event))

    def _write(self, obj: Mapping[str, Any]) -> None:
        self._fh.write(json.dumps(obj, separators=(", ", ": ")) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
