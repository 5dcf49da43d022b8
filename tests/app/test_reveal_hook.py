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


def test_a_hand_shown_after_the_pile_is_offered_and_enter_accepts_it(tmp_path: pathlib.Path) -> None:
    # the end of a hand: the pile lies still, then a hand is spread under the camera; once it
    # lies still it is read whole and offered as the next seat's; Enter accepts it
    import numpy as np
    from tableref.run_loop import RunLoop
    from tableref.vision.recognise import Recogniser
    from tableref.vision.sources import Frame
    from tableref.vision.synth.spread import spread_scene
    from tableref.vision.watcher import PileWatcher

    image, cards = spread_scene(["red-1", "blue-skip", "wild"], np.random.default_rng(4), size=(640, 480))
    pile = np.full_like(image, 70)
    ctrl = hand_won(tmp_path)
    loop = RunLoop(ctrl, None, PileWatcher(Recogniser("uno")), wait_when_asking=True)
    assert loop.waiting_for() is None  # the hands are awaited: the video goes on to show them
    for i, img in enumerate([pile] * 5 + [image] * 3):
        loop.handle_frame(Frame(i, i / 15, img))
        assert ctrl.offered is None  # the pile is never read as a hand, nor a spread still moving
    assert not any("reading the cards" in n for n in ctrl.view.notices)  # type: ignore[attr-defined]
    loop.handle_frame(Frame(8, 8 / 15, image))
    assert ctrl.offered == (0, sorted(c.card for c in cards))
    assert "reading the cards under the camera" in ctrl.view.notices[-1]  # type: ignore[attr-defined]
    what, go_on = loop.waiting_for()  # type: ignore[misc]
    assert "Ana's hand (seat 0) read as: blue-skip red-1 wild -- Enter accepts" in what and not go_on
    assert "Enter accepts" in loop.prompt()
    loop.handle_line("")
    assert ctrl.offered is None and ctrl.session.records[-1] == {"type": "reveal", "seat": 0,
                                                                  "cards": ["blue-skip", "red-1", "wild"]}
    # the same spread again is no new hand; another one is offered as Cy's, and typing Cy's
    # hand instead (a card was missing from the spread) drops the offer
    for i in range(9, 14):
        loop.handle_frame(Frame(i, i / 15, image))
    assert ctrl.offered is None
    other, _ = spread_scene(["green-7"], np.random.default_rng(5), size=(640, 480))
    for i in range(14, 19):
        loop.handle_frame(Frame(i, i / 15, other))
    assert ctrl.offered == (2, ["green-7"])
    loop.handle_line("2 v green-7 yellow-2")
    assert ctrl.offered is None and ctrl.session.records[-1]["cards"] == ["green-7", "yellow-2"]
    assert ctrl.session.state["scores"][1] == 1 + 20 + 50 + 7 + 2
