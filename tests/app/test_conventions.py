"""Command-line conventions (issue 25, findings 8 and 11; STYLE.md E8): exit codes that tell a
failed input from a bad flag, NO_COLOR and TERM=dumb, --version, examples in --help, and the
small wordings a person at the table reads."""
from __future__ import annotations

import io
import json
import pathlib

import cv2
import numpy as np
import pytest

from test_demo_and_cli import tableref
from tableref.cli import COMMANDS
from tableref.errors import Exit
from tableref.live_view import CLEAR, LiveView
from tableref.referee import Referee
from tableref.rules.describe import describe_state
from tableref.table import TableSession, make_header
from tableref.table_app import TableController
from tableref.terminal_view import describe_illegal, render
from tableref.vision.classify_training import random_table, render_scene


def test_exit_codes_are_the_style_guides() -> None:
    assert (Exit.OK, Exit.SOME_FAILED, Exit.USAGE, Exit.INTERRUPTED) == (0, 1, 2, 130)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("shots")
    rng = np.random.default_rng(5)
    cv2.imwrite(str(d / "red-7.png"), render_scene("red-7", rng, (640, 480), style="classic", short=170.0)[0])
    cv2.imwrite(str(d / "blue-2.png"), random_table(rng, 480, 640))  # the card was forgotten: bare table
    return d


def test_identify_of_a_card_free_image_is_some_failed(shots: pathlib.Path) -> None:
    res = tableref("identify", str(shots / "red-7.png"))
    assert res.returncode == Exit.OK and ": red-7 " in res.stdout, res.stderr
    res = tableref("identify", "--json", str(shots / "red-7.png"), str(shots / "blue-2.png"))
    assert res.returncode == Exit.SOME_FAILED, res.stderr
    assert [json.loads(line)["card"] for line in res.stdout.splitlines()] == ["red-7", None]


def test_enroll_refuses_a_shot_with_no_card(shots: pathlib.Path, tmp_path: pathlib.Path) -> None:
    res = tableref("enroll", "--deck", "kitchen", str(shots), env={"TABLEREF_DATA_DIR": str(tmp_path)})
    assert res.returncode == Exit.SOME_FAILED, res.stderr
    errors = [line for line in res.stderr.splitlines() if line.startswith("tableref: error:")]
    assert len(errors) == 1 and "blue-2.png: no card in the shot" in errors[0]
    assert "deck kitchen: 1 cards from 1 shots" in res.stdout


def test_version_and_examples_in_every_help() -> None:
    res = tableref("--version")
    assert res.returncode == 0 and res.stdout.startswith("tableref 0.")
    for name in COMMANDS:
        res = tableref(name, "--help")
        assert res.returncode == 0 and "examples:\n  tableref " + name in res.stdout, name


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _screen(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> str:
    for key in ("NO_COLOR", "TERM"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    out = FakeTty()
    session = TableSession.new(make_header("uno", 3), None)
    ctrl = TableController(session, LiveView(stream=out), None, [])
    ctrl.landed("red-5")
    return out.getvalue()


def test_no_color_and_term_dumb(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _screen(monkeypatch, {"TERM": "xterm"})
    assert CLEAR in plain and "\x1b[1m" in plain          # a terminal: redrawn in place, in colour
    no_colour = _screen(monkeypatch, {"TERM": "xterm", "NO_COLOR": "1"})
    assert CLEAR in no_colour and "\x1b[1m" not in no_colour.replace(CLEAR, "")
    dumb = _screen(monkeypatch, {"TERM": "dumb"})
    assert "\x1b" not in dumb and "flip red-5" in dumb     # appended line by line, no escapes at all


def test_the_uno_header_has_no_total_and_one_play_is_one_play() -> None:
    ref = Referee("uno", 3, {})
    ref.push({"type": "flip", "card": "red-5"})
    assert "total" not in render(ref.state, "uno", ["A", "B", "C"]).splitlines()[0]
    ono = Referee("ono99_2022", 3, {})
    assert "total 0" in render(ono.state, "ono99_2022", ["A", "B", "C"]).splitlines()[0]
    state = {**ono.state, "pending": {"kind": "play", "seat": 2, "count": 1}}
    assert "seat 2 owes 1 play" in describe_state(state, "ono99_2022") and "plays" not in describe_state(state, "ono99_2022")
    assert "C owes 1 play" in render(state, "ono99_2022", ["A", "B", "C"])


def test_take_the_card_back_is_said_only_where_a_card_must_go() -> None:
    names = ["A", "B"]
    assert describe_illegal({"seat": 1, "reason": "no_match"}, names).endswith("take the card back")
    for reason in ("ono99_unplayable", "pass_not_allowed", "invalid_catch"):
        assert "take the card back" not in describe_illegal({"seat": 1, "reason": reason}, names)


def test_replay_uses_the_players_names(tmp_path: pathlib.Path) -> None:
    record = tmp_path / "g.jsonl"
    record.write_text(json.dumps(make_header("uno", 3, names=["Ana", "Bo", "Cy"])) + "\n"
                      '{"type": "flip", "card": "red-5"}\n{"type": "card", "seat": 1, "card": "red-7"}\n')
    res = tableref("replay", str(record))
    assert res.returncode == 0, res.stderr
    assert "Bo card red-7" in res.stdout.splitlines()[1] and "seat 1" not in res.stdout


def test_run_with_sim_shows_the_boards_display(tmp_path: pathlib.Path) -> None:
    res = tableref("run", "--game", "ono99_2022", "--players", "3", "--source", "synth:seed=2,cards=4,deck=ono99,size=800x600",
                   "--port", "sim://", "--journal", str(tmp_path / "j.jsonl"))
    assert res.returncode == 0, res.stderr
    assert "[board '  15' ring" in res.stdout  # the four cards add up to 15, as the simulated board shows
