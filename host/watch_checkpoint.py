"""The pile watcher's state kept beside the journal, so that a resumed video seeks to where it
stopped instead of watching everything again.

After each frame that journals a camera record, the run loop saves the watcher's whole state
(its pile image, region, card size, history; not the recogniser, which is shared and large)
with the frame it has just seen and the last frame the journal names then, to
`<journal>.watch` (written to a temporary file and renamed, so a kill leaves the old one or
the new one). A resume restores that state into its watcher and reads on from the next frame:
the watcher is then exactly the uninterrupted run's. If the process died between journaling a
record and saving, the checkpoint is an older one and the loop primes from it over the few
frames up to the journal's last; a journal without a checkpoint (older runs) primes from the
start as before. A checkpoint is trusted only for the source it was saved with and when it
names no frame the journal does not have (it is the run's own file, read back by the same
program: pickle is fine here).
"""
from __future__ import annotations

import os
import pathlib
import pickle
from typing import Any

VERSION = 2  # 2: the watcher keeps its state in its stages (motion, book, judge)
KEEP_OUT = ("recogniser",)  # attached again on restore, never saved


def checkpoint_path(journal: pathlib.Path) -> pathlib.Path:
    return journal.with_name(journal.name + ".watch")


class WatchCheckpoint:
    def __init__(self, journal: pathlib.Path, source: str) -> None:
        self.path = checkpoint_path(pathlib.Path(journal))
        self.source = source

    def save(self, watcher: Any, frame: int, last_frame: int | None) -> None:
        state = {k: v for k, v in vars(watcher).items() if k not in KEEP_OUT}
        data = pickle.dumps({"version": VERSION, "source": self.source, "frame": frame,
                             "last_frame": last_frame, "state": state}, protocol=pickle.HIGHEST_PROTOCOL)
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_bytes(data)
            os.replace(tmp, self.path)
        except OSError:
            pass  # a full disk costs only the seek: the journal has every record, a resume primes

    def restore(self, watcher: Any, last_frame: int | None) -> int | None:
        """Put the saved state into `watcher` and return the frame it was saved at, or None
        (no usable checkpoint: the watcher is left as it was)."""
        try:
            saved = pickle.loads(self.path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            return None
        if not isinstance(saved, dict) or saved.get("version") != VERSION or saved.get("source") != self.source:
            return None
        saved_last = saved.get("last_frame")
        if last_frame is None or saved_last is None or saved_last > last_frame:
            return None  # another run's, or a journal cut short since
        vars(watcher).update(saved["state"])
        return int(saved["frame"])
