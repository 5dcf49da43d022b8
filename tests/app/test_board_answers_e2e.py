"""End to end: the camera asks, the real firmware answers. The board is the firmware on the
MicroPython unix port behind a pty (tableref.firmware_board), the host the TableController
`tableref run` uses, over the real BoardLink; the camera's reports go in as the run loop hands
them over (`landed(card, t, frame, confidence, ..., likely)`: the rendered clips read every
card at confidence 1.0, so a video cannot be made to ask). A person looks at the board's
digits and presses PASS ("yes, that one") or COLOUR ("the other one"); the journal on disk
must hold the card with the press that named it."""
from __future__ import annotations

import json
import pathlib
import time
from typing import Callable, Iterator

import pytest

from tableref.firmware_board import FirmwareBoard, unavailable
from tableref.link import BoardLink
from tableref.table import TableSession, make_header
from tableref.table_app import TableController

from test_refuse_slips import Notes

pytestmark = [pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())), pytest.mark.timeout(300)]


def until(ctrl: TableController, cond: Callable[[], bool], what: str, timeout_s: float = 30.0) -> None:
    """Keep the host's loop going (board polls) until `cond` holds."""
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        ctrl.poll_board(timeout_s=0.02)


def journaled_cards(journal: pathlib.Path) -> list[dict]:
    return [r for r in (json.loads(ln) for ln in journal.read_text().splitlines()[1:]) if r["type"] == "card"]


@pytest.fixture
def table(tmp_path: pathlib.Path) -> Iterator[tuple[TableController, FirmwareBoard, pathlib.Path]]:
    fw = FirmwareBoard()
    link = BoardLink.open(fw.port)
    journal = tmp_path / "j.jsonl"
    header = make_header("uno", 3, {}, setup={"top": "red-5", "hand_counts": [7, 7, 7]})
    ctrl = TableController(TableSession.new(header, journal), Notes(), link, ["Ana", "Bo", "Cy"])
    ctrl.publish(None)
    try:
        yield ctrl, fw, journal
    finally:
        ctrl.session.close()
        link.close()
        fw.close()


def board_digits(fw: FirmwareBoard) -> str | None:
    shown = fw.shown()
    return None if shown is None else shown["digits"]


def test_the_camera_asks_and_board_presses_answer(table: tuple[TableController, FirmwareBoard, pathlib.Path]) -> None:
    ctrl, fw, journal = table
    until(ctrl, lambda: (fw.shown() or {}).get("snap") is not None, "the board's first snapshot")
    # the camera declines the card and offers red 6, then red 9: the board shows red 6
    ctrl.landed(None, 2.0, 50, 0.4, likely=[["red-6", 0.4], ["red-9", 0.3]])
    until(ctrl, lambda: board_digits(fw) == "r  6", "the board to show r  6")
    fw.press("PASS", "short")  # yes, that one
    until(ctrl, lambda: len(journaled_cards(journal)) == 1, "the card in the journal")
    boot = fw.firmware.boot_id
    [first] = journaled_cards(journal)
    assert (first["card"], first["frame"], first["src"]) == ("red-6", 50, f"board:{boot}:1")
    assert ctrl.asking is None
    # an unsure reading that would be illegal (blue 9 on red 6): asked, and the runner-up is right
    ctrl.landed("blue-9", 3.0, 80, 0.7, likely=[["blue-9", 0.7], ["red-9", 0.2]])
    assert len(journaled_cards(journal)) == 1  # nothing journaled, nothing flagged
    until(ctrl, lambda: board_digits(fw) == "b  9", "the board to show b  9")
    fw.press("COLOUR", "short")  # no, the other one
    until(ctrl, lambda: len(journaled_cards(journal)) == 2, "the second card in the journal")
    second = journaled_cards(journal)[1]
    assert (second["card"], second["frame"], second["src"]) == ("red-9", 80, f"board:{boot}:2")
    assert ctrl.session.state.get("illegal") is None and ctrl.session.state["top"] == "red-9"
    # the board chirped twice, showed each card it took, and then the game again (no CArd)
    until(ctrl, lambda: board_digits(fw) not in ("b  9", "r  9", "CArd"), "the board to leave the question")
    lines = fw.lines
    assert sum(1 for ln in lines if ln.get("tone") == "take") == 2
    assert "r  9" in [ln.get("digits") for ln in lines]  # the runner-up it took, though it only ever offered b  9
    assert not fw.firmware.proc.poll()  # still running
