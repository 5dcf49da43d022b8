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
from app_run_driver import RunDriver, game_events, journal_records  # noqa: E402
from app_gameclip import make_clip  # noqa: E402

pytestmark = pytest.mark.skipif(unavailable() is not None, reason=str(unavailable()))



@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return make_clip(tmp_path_factory.mktemp("clip"))


@pytest.fixture
def firmware():
    fw = FirmwareBoard()
    yield fw
    fw.close()


def run_args(clip: dict, port: str, journal: pathlib.Path, resume: bool = False) -> list[str]:
    # --confirm: the driver, as a person reviewing the recording, confirms or corrects every card
    args = ["--source", str(clip["video"]), "--port", port, "--journal", str(journal), "--confirm"]
    if resume:
        return args + ["--resume"]
    return args + ["--game", clip["header"]["game"], "--players", str(clip["header"]["players"])]


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
    driver = RunDriver(run_args(clip, firmware.port, journal), journal, clip["events"])
    assert driver.drive() == 0, driver.stderr
    check_against_truth(clip, journal)
    shown = wait_board_shows(firmware, expected_digits(clip, journal))
    assert shown["snap"] is not None
    camera_read = sum(1 for r in journal_records(journal) if r.get("type") == "card" and "confidence" in r)
    assert camera_read - driver.corrections >= len(clip["events"]) // 2, "the camera read too few cards right"
    print(f"e2e: {len(journal_records(journal))} records, {camera_read} cards read by the camera "
          f"({driver.corrections} corrected), {driver.answers} named when asked")


def test_kill_9_at_random_points_then_resume_loses_and_doubles_nothing(clip: dict, firmware: FirmwareBoard,
                                                                      tmp_path: pathlib.Path) -> None:
    whole = tmp_path / "whole.jsonl"
    assert RunDriver(run_args(clip, firmware.port, whole), whole, clip["events"]).drive() == 0
    reference = journal_records(whole)
    rng = random.Random(7)
    points = sorted(rng.sample(range(1, len(reference) - 1), 3))
    journal = tmp_path / "killed.jsonl"
    resume = False
    kills = 0
    for point in points + [None]:
        driver = RunDriver(run_args(clip, firmware.port, journal, resume), journal, clip["events"])
        rc = driver.drive(kill_at_records=point)
        if point is None:
            assert rc == 0, driver.stderr
        else:
            assert rc is None
            kills += 1
        if resume:  # the video sought to where the watcher's saved state stopped: no re-watching
            assert any(line.startswith("! resumed: the video goes on from frame") for line in driver.lines), \
                "\n".join(driver.lines[:20])
        resume = True
    assert kills == 3
    records = journal_records(journal)
    # the same records as the uninterrupted run, the seat map's included: none missing, none
    # twice, from the same frames (a kill between a card and the map it taught is made good on
    # resume, tableref.seat_replay)
    strip = lambda rs: [{k: v for k, v in r.items() if k != "confidence"} for r in rs]  # noqa: E731
    assert any(r.get("type") == "seat_map" for r in reference)
    assert strip(records) == strip(reference)
    check_against_truth(clip, journal)
    wait_board_shows(firmware, expected_digits(clip, journal))


def test_a_board_unplugged_mid_game_misses_nothing(clip: dict, tmp_path: pathlib.Path) -> None:
    """The board's port vanishes (pty closed) for part of the game and comes back behind the
    same path: the game goes on, and the board shows the final state once it is back."""
    sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "link"))
    from harness import Firmware, Relay

    relay = Relay(tmp_path)
    fw = Firmware(relay.board_tty)
    journal = tmp_path / "game.jsonl"
    phases: list[int] = []

    def unplug_then_replug(records: int) -> None:
        if not phases and records >= 6:
            relay.unplug()
            phases.append(records)
        elif len(phases) == 1 and records >= phases[0] + 8:
            relay.plug()
            phases.append(records)

    try:
        driver = RunDriver(run_args(clip, relay.host_path, journal), journal, clip["events"])
        assert driver.drive(on_progress=unplug_then_replug) == 0, driver.stderr
        assert len(phases) == 2
        assert any("vanished" in ln for ln in driver.lines) and any("is back" in ln for ln in driver.lines)
        check_against_truth(clip, journal)
        deadline = time.monotonic() + 20
        want = expected_digits(clip, journal)
        while time.monotonic() < deadline:
            shown = fw.shown()
            if shown and shown["digits"] == want and not shown["lost"]:
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"board shows {fw.shown()}, expected {want!r}")
    finally:
        fw.stop()
        relay.close()
