"""The scoreboard's memory: every game's header and every record applied, in SQLite, so a
restarted scoreboard rebuilds each table exactly as it was and applies nothing twice.

A record is written in the same transaction that makes it "applied" (WAL mode: a killed
process loses no committed record)."""
from __future__ import annotations

import json
import pathlib
import sqlite3
from typing import Any, Iterator

from ..errors import UserError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (tbl TEXT NOT NULL, game TEXT NOT NULL, header TEXT NOT NULL,
                                  PRIMARY KEY (tbl, game));
CREATE TABLE IF NOT EXISTS records (tbl TEXT NOT NULL, game TEXT NOT NULL, idx INTEGER NOT NULL,
                                    record TEXT NOT NULL, PRIMARY KEY (tbl, game, idx));
"""


class Store:
    def __init__(self, path: pathlib.Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise UserError(f"--db {path}: cannot use it as the scoreboard's database ({exc})") from None
        self.path = path

    def games(self) -> Iterator[tuple[str, str, dict[str, Any], list[dict[str, Any]]]]:
        """(table, game, header, records in index order) of every game kept."""
        for tbl, game, header in self.db.execute("SELECT tbl, game, header FROM games ORDER BY rowid").fetchall():
            rows = self.db.execute("SELECT idx, record FROM records WHERE tbl=? AND game=? ORDER BY idx",
                                   (tbl, game)).fetchall()
            yield tbl, game, json.loads(header), [json.loads(r) for _, r in rows]

    def add_game(self, tbl: str, game: str, header: dict[str, Any]) -> None:
        self.db.execute("INSERT OR IGNORE INTO games VALUES (?, ?, ?)", (tbl, game, json.dumps(header)))

    def add_record(self, tbl: str, game: str, idx: int, record: dict[str, Any]) -> None:
        self.db.execute("INSERT INTO records VALUES (?, ?, ?, ?)", (tbl, game, idx, json.dumps(record)))

    def close(self) -> None:
        self.db.close()
