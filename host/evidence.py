"""Evidence pictures of a game, kept beside its journal for the after-game report.

`EvidenceRecorder` has two entry points. `frame(frame)` is called for every camera frame
*before* the watcher sees it and only keeps a reference to it (no copy, no encoding: nothing
on the per-frame path). `record(index, outcome, by)` is called for what the table did with an
input (TableController.on_outcome) and writes small JPEGs of the pile region then, named by
the journal record index (`<journal>.evidence/000012-after.jpg`):

* a flagged (illegal) record, an undo and a typed card: `before` (the pile as it lay at the
  last pile change) and `after` (the pile now);
* a card the table was asked about: `asked`, named by the index of the record that will
  answer it (the next one);
* any other record that changed the pile (a card, a flip, a take-back): a `pile` thumbnail.

Names only depend on the record index, so a resumed game (whose records keep their indexes)
goes on appending to the same folder, and the report finds a record's pictures by its index.
"""
from __future__ import annotations

import pathlib
from typing import Any, Callable

import numpy as np

from .table import Outcome

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in frame pixels

PICTURE_PX = 320    # longest side of an event picture: enough to read a card, ~15 KB
THUMB_PX = 128      # longest side of a settled pile's thumbnail, ~3 KB
JPEG_QUALITY = 75
MARGIN = 0.25       # share of the pile region's size shown around it (a card half off the pile)
KINDS = ("before", "after", "asked", "pile")
PILE_CHANGES = ("card", "flip")  # referee events that put a card on the pile


def evidence_dir(journal: str | pathlib.Path) -> pathlib.Path:
    """The folder beside a journal that holds its pictures."""
    p = pathlib.Path(journal)
    return p.with_name(p.name + ".evidence")


def picture_name(index: int, kind: str) -> str:
    """The file name of one picture of journal record `index` (0 = first record after the header)."""
    return f"{index:06d}-{kind}.jpg"


def pictures_for(outcome: Outcome, by: str) -> tuple[str, ...]:
    """Which pictures an outcome calls for (empty: none). Pure, so the report expects the same."""
    if outcome.kind == "asked":
        return ("asked",)
    if outcome.kind == "undo":
        return ("before", "after")
    if outcome.kind == "taken_back":
        return ("pile",)
    if outcome.kind != "event" or outcome.event is None:
        return ()
    flagged = outcome.verdict is not None and outcome.verdict.illegal is not None
    typed = by == "key" and outcome.event.get("type") in PILE_CHANGES
    if flagged or typed:
        return ("before", "after")
    return ("pile",) if outcome.event.get("type") in PILE_CHANGES else ()


class EvidenceRecorder:
    def __init__(self, folder: pathlib.Path, region: Callable[[], Box | None] | None = None) -> None:
        """`region` gives the pile's box in frame pixels now (None: not known yet, the whole frame)."""
        self.folder = folder
        self.region = region
        self.latest: np.ndarray | None = None   # the last frame seen (a reference, never a copy)
        self.before: np.ndarray | None = None   # the frame at the last pile change
        self.written = 0
        self.bytes = 0
        self.failed: str | None = None          # the first write error (the game goes on without pictures)

    # -- per frame: a reference only ---------------------------------------------------------
    def frame(self, frame: Any) -> None:
        """Keep the latest frame (a tableref.vision.sources.Frame, or anything with `.image`)."""
        self.latest = frame.image
        if self.before is None:
            self.before = self.latest

    # -- per record: encode and write ------------------------------------------------------
    def record(self, index: int, outcome: Outcome, by: str = "") -> None:
        """Write the pictures `outcome` calls for under record `index`."""
        if self.latest is None:
            return  # no camera frame yet (a typed game): nothing to show
        for kind in pictures_for(outcome, by):
            image = self.before if kind == "before" else self.latest
            self._write(picture_name(index, kind), image, THUMB_PX if kind == "pile" else PICTURE_PX)
        if outcome.kind in ("undo", "taken_back") or (
                outcome.kind == "event" and outcome.event is not None and outcome.event.get("type") in PILE_CHANGES):
            self.before = self.latest

    def _crop(self, image: np.ndarray) -> np.ndarray:
        box = self.region() if self.region is not None else None
        if box is None:
            return image
        h, w = image.shape[:2]
        x0, y0, x1, y1 = box
        mx, my = int((x1 - x0) * MARGIN), int((y1 - y0) * MARGIN)
        x0, y0, x1, y1 = max(0, x0 - mx), max(0, y0 - my), min(w, x1 + mx), min(h, y1 + my)
        return image[y0:y1, x0:x1] if x1 > x0 and y1 > y0 else image

    def _write(self, name: str, image: np.ndarray | None, longest: int) -> None:
        import cv2  # here, not at the top: the report reads the names above without loading OpenCV
        if image is None or self.failed is not None:
            return
        crop = self._crop(image)
        scale = longest / max(crop.shape[:2])
        if scale < 1:
            crop = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                              interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / name).write_bytes(data.tobytes())
        except OSError as exc:  # a full or read-only disk costs the pictures, never the game
            self.failed = f"{self.folder}: cannot write evidence pictures ({exc.strerror})"
            return
        self.written += 1
        self.bytes += int(data.size)


def observe(ctrl: Any, recorder: EvidenceRecorder) -> None:
    """Hook `recorder` to a TableController's outcomes, with each record's journal index."""
    def on_outcome(outcome: Outcome, by: str) -> None:
        records = len(ctrl.session.records)
        # a changed outcome was the last record written; an ask is answered by the next one
        recorder.record(records - 1 if outcome.changed else records, outcome, by)
    ctrl.on_outcome = on_outcome
