"""Drives `tableref run` as a subprocess the way a person at the table would: when the referee
asks for a card it cannot read, the person names it (from the clip's ground truth); at the end
of the video the person stops typing (closes stdin)."""
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


class RunDriver:
    def __init__(self, args: list[str], journal: pathlib.Path, camera_truth: list[dict[str, Any]]):
        self.journal = journal
        self.camera_truth = camera_truth
        self.lines: list[str] = []
        self.answers = 0
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
        done = sum(1 for r in journal_records(self.journal) if "frame" in r)
        card = self.camera_truth[done]["card"]
        self._send(f"x {card}\n")
        self.answers += 1

    def _send(self, text: str) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def drive(self, kill_at_records: int | None = None, timeout_s: float = 240.0) -> int | None:
        """Run to the end (returns the exit code) or kill -9 once the journal holds
        `kill_at_records` records (returns None)."""
        deadline = time.monotonic() + timeout_s
        ended = False
        while True:
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError("tableref run did not finish in time; last lines:\n" + "\n".join(self.lines[-20:]))
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
            elif line.startswith("! end of the video"):
                assert self.proc.stdin is not None
                self.proc.stdin.close()

    @property
    def stderr(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read()
