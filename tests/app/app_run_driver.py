"""Drives `tableref run --confirm` as a subprocess the way a person reviewing a recorded game
would: when the referee asks for a card it cannot read, the person names it; when it asks to
confirm what the camera saw, the person presses Enter, or first corrects a misread card (u,
then x <card>) — both from the clip's ground truth; at the end of the video the person stops
typing (closes stdin)."""
from __future__ import annotations

import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from tableref.record import TABLE_RECORD_TYPES
from tableref.table import TABLE_KEYS

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")


def journal_records(path: pathlib.Path) -> list[dict[str, Any]]:
    """The journal's records after the header (a line being written is left out)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines()[1:]:
        try:
            out.append(json.loads(line))
        except ValueError:
            break
    return out


def _plain(ev: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ev.items() if k not in TABLE_KEYS and not (k == "seat" and v is None)}


def game_events(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The referee events a journal amounts to (undo applied, table records dropped)."""
    out: list[dict[str, Any]] = []
    for r in records:
        if r["type"] == "undo":
            out.pop()
        elif r["type"] not in TABLE_RECORD_TYPES:
            out.append(_plain(r))
    return out


class RunDriver:
    def __init__(self, args: list[str], journal: pathlib.Path, expected: list[dict[str, Any]]):
        self.journal = journal
        self.expected = [_plain(e) for e in expected]  # the referee events of the clip's game, in order
        self.lines: list[str] = []
        self.answers = 0
        self.corrections = 0
        self.proc = subprocess.Popen([TABLEREF, "run", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1,
                                     env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self._q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def _answer(self) -> None:
        done = game_events(journal_records(self.journal))
        self._send(f"x {self.expected[len(done)]['card']}\n")
        self.answers += 1

    def _confirm(self) -> None:
        done = game_events(journal_records(self.journal))
        n = len(done)
        if n and done[:n - 1] == self.expected[:n - 1] and done[-1] != self.expected[n - 1] \
                and self.expected[n - 1]["type"] == "card":
            self._send(f"u\nx {self.expected[n - 1]['card']}\n")  # a misread card: undo it, name the right one
            self.corrections += 1
        self._send("\n")

    def _send(self, text: str) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def drive(self, kill_at_records: int | None = None, timeout_s: float = 240.0,
              on_progress: Any = None) -> int | None:
        """Run to the end (returns the exit code) or kill -9 once the journal holds
        `kill_at_records` records (returns None). on_progress(n_records) is called as it goes."""
        deadline = time.monotonic() + timeout_s
        ended = False
        while True:
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError("tableref run did not finish in time; last lines:\n" + "\n".join(self.lines[-20:]))
            if on_progress is not None:
                on_progress(len(journal_records(self.journal)))
            if kill_at_records is not None and len(journal_records(self.journal)) >= kill_at_records:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait(timeout=10)
                return None
            try:
                line = self._q.get(timeout=0.02)
            except queue.Empty:
                continue
            if line is None:
                if not ended:
                    ended = True
                rc = self.proc.wait(timeout=30)
                return rc
            self.lines.append(line)
            if line.startswith("! which card?"):
                self._answer()
            elif line.startswith("! confirm:"):
                self._confirm()
            elif line.startswith("! end of the video"):
                assert self.proc.stdin is not None
                self.proc.stdin.close()

    @property
    def stderr(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read()
