"""`tableref run` end to end: a generated pile video of a whole game, the real firmware on the
MicroPython unix port through a pty as the board, the journal; then kill -9 and --resume."""
from __future__ import annotations

import json
import pathlib
import random
import sys
import time

import pytest

from tableref.board_view import board_snapshot
from tableref.firmware_board import FirmwareBoard, unavailable
from tableref.record import read_record
from tableref.referee import Referee
from tablelink import show

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from app_run_driver import RunDriver, journal_records  # noqa: E402
from app_gameclip import make_clip  # noqa: E402

pytestmark = pytest.mark.skipif(unavailable() is not None, reason=str(unavailable()))

MIN_CONFIDENCE = "0.9"  # readings below this are asked for, and the driver answers as a person would


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return make_clip(tmp_path_factory.mktemp("clip"))


@pytest.fixture
def firmware():
    fw = FirmwareBoard()
    yield fw
    fw.close()


def run_args(clip: dict, port: str, journal: pathlib.Path, resume: bool = False) -> list[str]:
    args = ["--source", str(clip["video"]), "--port", port, "--journal", str(journal), "--min-confidence", MIN_CONFIDENCE]
    if resume:
        return args + ["--resume"]
    return args + ["--game", clip["header"]["game"], "--players", str(clip["header"]["players"])]


def game_events(records: list[dict]) -> list[dict]:
    """The referee events a journal amounts to (undo applied, table records dropped), seats as given."""
    out: list[dict] = []
    for r in records:
        if r["type"] == "undo":
            out.pop()
        elif r["type"] != "taken_back":
            out.append({k: v for k, v in r.items() if k not in ("t", "frame", "confidence", "src") and not (k == "seat" and v is None)})
    return out


def final_state(journal: pathlib.Path) -> dict:
    header, records = read_record(journal)
    ref = Referee(header.game, header.players, header.options, header.setup)
    for ev in game_events(records):
        ref.push(ev)
    return ref.state


def expected_digits(clip: dict, journal: pathlib.Path) -> str:
    """What the board's display must show for the journal's final state (a TableSession rebuilt
    from the journal says whether an illegal play is still outstanding)."""
    from tableref.table import TableSession
    session = TableSession.resume(journal)
    session.close()
    snap = board_snapshot(session.state, clip["header"]["game"], clip["header"]["players"], session.illegal_id)
    return show.digits(snap, 0, False)


def wait_board_shows(fw: FirmwareBoard, digits: str, timeout_s: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        shown = fw.shown()
        if shown and shown["digits"] == digits and not shown["lost"]:
            return shown
        time.sleep(0.05)
    raise AssertionError(f"the board shows {fw.shown()}, expected digits {digits!r}")


def check_against_truth(clip: dict, journal: pathlib.Path) -> dict:
    records = journal_records(journal)
    expected = [{k: v for k, v in e.items() if not (k == "seat" and v is None)} for e in clip["events"]]
    assert game_events(records) == expected
    # every camera record (card landed, illegal card taken back) comes from the clip, in order
    camera = [r for r in records if "frame" in r]
    assert [("landed" if r["type"] == "card" else "removed") for r in camera] == [e["type"] for e in clip["camera"]]
    for r, truth in zip(camera, clip["camera"]):
        assert r["frame"] >= truth["frame"], "an event reported before the pile settled"
    state = final_state(journal)
    final = clip["final"]
    assert state["game_over"] and state["winner"] == final["winner"]
    assert state["total"] == final["total"] and sorted(state["eliminated"]) == sorted(final["eliminated"])
    return state


def test_run_referees_a_whole_clip_and_the_board_shows_it(clip: dict, firmware: FirmwareBoard, tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "game.jsonl"
    driver = RunDriver(run_args(clip, firmware.port, journal), journal, clip["camera"])
    assert driver.drive() == 0, driver.stderr
    check_against_truth(clip, journal)
    shown = wait_board_shows(firmware, expected_digits(clip, journal))
    assert shown["snap"] is not None
    camera_read = sum(1 for r in journal_records(journal) if r.get("type") == "card" and "confidence" in r)
    assert camera_read > 0, "every card was typed: the camera read none"
    print(f"e2e: {len(journal_records(journal))} records, {camera_read} cards read by the camera, "
          f"{driver.answers} named when asked")


def test_kill_9_at_random_points_then_resume_loses_and_doubles_nothing(clip: dict, firmware: FirmwareBoard,
                                                                      tmp_path: pathlib.Path) -> None:
    whole = tmp_path / "whole.jsonl"
    assert RunDriver(run_args(clip, firmware.port, whole), whole, clip["camera"]).drive() == 0
    reference = journal_records(whole)
    rng = random.Random(7)
    points = sorted(rng.sample(range(1, len(reference) - 1), 3))
    journal = tmp_path / "killed.jsonl"
    resume = False
    kills = 0
    for point in points + [None]:
        driver = RunDriver(run_args(clip, firmware.port, journal, resume), journal, clip["camera"])
        rc = driver.drive(kill_at_records=point)
        if point is None:
            assert rc == 0, driver.stderr
        else:
            assert rc is None
            kills += 1
        resume = True
    assert kills == 3
    records = journal_records(journal)
    # the same records as the uninterrupted run: none missing, none twice, from the same frames
    strip = lambda rs: [{k: v for k, v in r.items() if k != "confidence"} for r in rs]  # noqa: E731
    assert strip(records) == strip(reference)
    check_against_truth(clip, journal)
    wait_board_shows(firmware, expected_digits(clip, journal))
