"""Scoring a hand by showing it: `v` alone asks the attached whole-hand reader (the hook the
multi-card recogniser plugs into); without one, the screen says how to type the cards."""
from __future__ import annotations

import pathlib

from tableref.keyboard import parse_command
from tableref.table import TableSession, make_header
from tableref.table_app import TableController

from test_refuse_slips import Notes


def hand_won(tmp_path: pathlib.Path, read_hand=None) -> TableController:
    header = make_header("uno", 3, {"target_score": 500}, setup={"top": "red-5", "hand_counts": [7, 1, 7]})
    ctrl = TableController(TableSession.new(header, tmp_path / "j.jsonl"), Notes(), None, ["Ana", "Bo", "Cy"],
                           read_hand=read_hand)
    ctrl.landed("red-6")  # Bo goes out
    return ctrl


def test_v_alone_scores_the_hand_the_reader_saw(tmp_path: pathlib.Path) -> None:
    shown = {0: ["red-1", "blue-skip"], 2: ["wild"]}
    ctrl = hand_won(tmp_path, read_hand=shown.get)
    ctrl.command(parse_command("v"))  # the first seat still to show its hand: Ana
    ctrl.command(parse_command("2 v"))
    reveals = [r for r in ctrl.session.records if r["type"] == "reveal"]
    assert reveals == [{"type": "reveal", "seat": 0, "cards": ["red-1", "blue-skip"]},
                       {"type": "reveal", "seat": 2, "cards": ["wild"]}]
    assert ctrl.session.state["scores"][1] == 1 + 20 + 50


def test_without_a_reader_v_says_how_to_type_the_hand(tmp_path: pathlib.Path) -> None:
    ctrl = hand_won(tmp_path)
    ctrl.command(parse_command("v"))
    assert [r["type"] for r in ctrl.session.records] == ["card"]
    assert "type the cards: 0 v <card> <card>" in ctrl.view.notices[-1]  # type: ignore[attr-defined]


def test_the_run_loop_reads_the_hand_spread_in_the_last_frame(tmp_path: pathlib.Path) -> None:
    # the real reader behind `v`: RunLoop.read_hand reads every card of the newest frame
    import numpy as np
    from tableref.run_loop import RunLoop
    from tableref.vision.recognise import Recogniser
    from tableref.vision.synth.spread import spread_scene
    from tableref.vision.watcher import PileWatcher

    image, cards = spread_scene(["red-1", "blue-skip", "wild", "green-7"], np.random.default_rng(4))
    ctrl = hand_won(tmp_path)
    loop = RunLoop(ctrl, None, PileWatcher(Recogniser("uno")))
    assert loop.read_hand(0) is None  # no frame seen yet
    loop.last_image = image
    ctrl.read_hand = loop.read_hand
    ctrl.command(parse_command("0 v"))
    reveal = next(r for r in ctrl.session.records if r["type"] == "reveal")
    assert sorted(reveal["cards"]) == sorted(c.card for c in cards)
