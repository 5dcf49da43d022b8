"""Helpers for the venue tests: a `tableref scoreboard` subprocess, what it shows and holds,
and what the tables' journals say it should show."""
from __future__ import annotations

import json
import pathlib
import sqlite3
import subprocess
import sys
import urllib.request
from typing import Any

from tableref.record import read_record
from tableref.scoreboard.standings import standings
from tableref.table import TableSession

from conftest import wait_for

TABLEREF = str(pathlib.Path(sys.executable).with_name("tableref"))


def journal_session(path: pathlib.Path) -> tuple[list[str], TableSession]:
    """The game in a journal, rebuilt on its own (the truth the scoreboard must match)."""
    header, records = read_record(path)
    session = TableSession.new(header.to_json(), None)
    for rec in records:
        session.apply_record(rec)
    return list(header.names), session


def journal_standings(paths: list[pathlib.Path]) -> list[dict[str, Any]]:
    return standings((names, session.state) for names, session in map(journal_session, paths))


class ScoreboardProc:
    def __init__(self, url: str, db: pathlib.Path, log: pathlib.Path) -> None:
        self.args = [TABLEREF, "scoreboard", url, "--web", "127.0.0.1:0", "--db", str(db)]
        self.db = db
        self.log = log
        self.proc: subprocess.Popen | None = None
        self.page = ""
        self.first = ""

    def start(self) -> "ScoreboardProc":
        self.proc = subprocess.Popen(self.args, stderr=subprocess.PIPE, text=True)
        first = self.first = self.proc.stderr.readline()  # type: ignore[union-attr]
        if " page http://" not in first:
            # a scoreboard that did not come up is not left running after the failed test
            self.proc.kill()
            _, rest = self.proc.communicate(timeout=20)
            raise AssertionError(first + rest)
        self.page = first.split(" page ")[1].split()[0]
        return self

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.page + "state", timeout=10) as r:
            return json.loads(r.read())

    def stop(self, kill: bool = False) -> str:
        """Stop it (SIGKILL when `kill`: a crash); returns what it said on stderr."""
        assert self.proc is not None
        self.proc.kill() if kill else self.proc.terminate()
        _, err = self.proc.communicate(timeout=20)
        first = f"page {self.page}\n"
        with open(self.log, "a") as fh:
            fh.write(first + err)
        self.proc = None
        return err

    def kept(self, table: str) -> list[dict[str, Any]]:
        """The records the scoreboard stored for the newest game of `table`, in index order."""
        db = sqlite3.connect(str(self.db))
        try:
            rows = db.execute("SELECT idx, record FROM records WHERE tbl=? ORDER BY idx", (table,)).fetchall()
        finally:
            db.close()
        assert [i for i, _ in rows] == list(range(1, len(rows) + 1)), "indices stored once each, none missing"
        return [json.loads(r) for _, r in rows]


def caught_up(board: ScoreboardProc, journals: dict[str, pathlib.Path]) -> dict[str, Any] | None:
    """The scoreboard's /state once every table shows its journal's last index, else None."""
    state = board.state()
    for table, path in journals.items():
        shown = state.get(f"table:{table}")
        if shown is None or shown["index"] != len(read_record(path)[1]):
            return None
    return state


def wait_caught_up(board: ScoreboardProc, journals: dict[str, pathlib.Path], timeout: float = 60) -> dict[str, Any]:
    return wait_for(lambda: caught_up(board, journals), timeout, "the scoreboard to catch up with the journals", 0.2)
