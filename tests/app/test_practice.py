"""`tableref synth --game GAME OUT_DIR` (issue 25, practice material): the video of a whole legal
game and the input script to play it through `tableref run`. The script, followed as written
(cards as the camera reports them, key lines typed as a person types them), gives exactly the
game's events and winner; the video holds every frame the script times refer to."""
from __future__ import annotations

import json
import pathlib

import pytest

from test_demo_and_cli import tableref
from tableref.keyboard import parse_command
from tableref.table import TableSession
from tableref.table_app import TableController
from tableref.vision.sources import open_source


class Quiet:
    def update(self, u: object) -> None:
        pass

    def notice(self, text: str) -> None:
        raise AssertionError(f"the referee objected: {text}")


def _plain(ev: dict) -> dict:
    return {k: v for k, v in ev.items() if k not in ("t", "frame", "confidence") and not (k == "seat" and v is None)}


@pytest.mark.parametrize("game", ["uno", "ono99_2022"])
def test_the_practice_script_plays_the_whole_game(tmp_path: pathlib.Path, game: str) -> None:
    res = tableref("synth", "--game", game, "--size", "320x240", "--fps", "10", str(tmp_path), timeout=600)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    truth = json.loads(pathlib.Path(summary["truth"]).read_text())
    script = pathlib.Path(summary["script"]).read_text()
    assert " ".join(truth["run"]) in script and truth["run"][:4] == ["tableref", "run", "--game", game]
    session = TableSession.new(truth["header"], None)
    ctrl = TableController(session, Quiet(), None, [])
    for step in truth["steps"]:
        if step["step"] == "camera":
            card = step["what"].split(" lands")[0] if step["what"].endswith("lands on the pile") else None
            ctrl.landed(card, step["t"], step["frame"]) if card else ctrl.removed(step["t"], step["frame"])
            assert f"{step['t']:7.2f} s  camera  {step['what']}" in script
        elif step["step"] == "hand":  # a hand shown under the camera, read as shown: Enter accepts it
            ctrl.offer_hand(step["cards"])
            assert ctrl.offered == (step["seat"], step["cards"])
            ctrl.accept_hand()
            assert f"{step['t']:7.2f} s  hand    {step['what']}" in script
        else:
            cmd = parse_command(step["key"])
            assert cmd is not None and ctrl.command(cmd)
            assert f"type    {step['key']}" in script
    assert [_plain(e) for e in session.referee.events] == [_plain(e) for e in truth["events"]]
    state = session.state
    assert state["game_over"] and state["winner"] == truth["final"]["winner"]
    if game == "uno":  # the hands are shown at the hand's end, after its last card
        hands = [s for s in truth["steps"] if s["step"] == "hand"]
        assert hands and summary["hands"] == len(hands)
        last_card = max(s["frame"] for s in truth["steps"] if s["step"] == "camera")
        assert all(h["frame"] > last_card for h in hands)
    frames = sum(1 for _ in open_source(summary["video"]))
    assert frames == summary["frames"] > max(s.get("frame", 0) for s in truth["steps"])


def test_a_bad_practice_game_is_one_line(tmp_path: pathlib.Path) -> None:
    res = tableref("synth", "--game", "uno", "--players", "1", str(tmp_path))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, res.stderr
    assert not list(tmp_path.iterdir())
