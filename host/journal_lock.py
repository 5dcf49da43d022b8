"""One process per journal: an OS lock on `<journal>.lock` beside it.

Two `tableref run` on one journal would interleave their appends and lose events, so the
second is refused with the first one's pid. The lock is an fcntl/msvcrt lock on an open file,
which the operating system drops when the holder dies (a crash, kill -9): a lock file left
behind by a dead process is never an obstacle, so there is no stale lock to clean up by hand.
"""
from __future__ import annotations

import os
import pathlib
from typing import IO

from .errors import UserError


def _try_lock(fh: IO[str]) -> bool:
    fh.seek(0)  # msvcrt locks bytes from the position: every process must lock the same byte
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt
        try:
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


class JournalLock:
    def __init__(self, journal: pathlib.Path) -> None:
        self.path = journal.with_name(journal.name + ".lock")
        self._fh: IO[str] | None = None

    def acquire(self) -> "JournalLock":
        """Take the lock, or UserError naming the process that holds it."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fh = open(self.path, "a+", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{self.path}: cannot create the journal's lock file ({exc.strerror})") from None
        if not _try_lock(fh):
            try:
                fh.seek(0)
                holder = fh.read().strip() or "another process"
            except OSError:  # Windows: the holder's locked byte cannot be read
                holder = "another process"
            fh.close()
            raise UserError(f"{self.path.with_suffix('')}: in use by another tableref ({holder}); "
                            "one game, one process: stop that one first")
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()}")
        fh.flush()
        self._fh = fh
        return self

    def release(self) -> None:
        if self._fh is None:
            return
        try:
            self.path.unlink()  # still held while unlinked: no one can slip in between
        except OSError:
            pass
        self._fh.close()
        self._fh = None

    def __enter__(self) -> "JournalLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
