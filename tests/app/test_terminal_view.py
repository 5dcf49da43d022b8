"""The terminal's picture of a state (pure) and the live view's two modes."""
from __future__ import annotations

import io

from tableref.live_view import LiveView, ring_text
from tableref.referee import Referee
from tableref.table import TableSession, make_header
from tableref.table_app import TableController
from tableref.terminal_view import Style, render, seat_names


def test_render_shows_seats_total_turn_and_illegal_play() -> None:
    ref = Referee("ono99_2022", 3)
    ref.push({"type": "card", "seat": 1, "card": "num-9"})
    ref.push({"type": "card", "seat": 2, "card": "play2"})
    text = render(ref.state, "ono99_2022", ["Ana", "Bo", "Cy"])
    assert "ONO 99 (2022)" in text and "total 9" in text
    assert ">Ana<" in text  # seat to act highlighted
    assert "turn: Ana" in text and "Ana owes 2 plays" in text
    ref.push({"type": "card", "seat": 0, "card": "ono99"})
    ref.push({"type": "card", "seat": 0, "card": "num-1"})
    assert "ILLEGAL (Ana)" in render(ref.state, "ono99_2022", ["Ana", "Bo", "Cy"])


def test_render_uno_colour_counts_and_winner() -> None:
    ref = Referee("uno", 2, {"target_score": 1}, setup={"top": "red-5", "hand_counts": [1, 3]})
    ref.push({"type": "card", "seat": 1, "card": "red-9"})
    text = render(ref.state, "uno", seat_names(2))
    assert "colour: red" in text and "cards: P0 1  P1 2" in text
    ref.push({"type": "card", "seat": 0, "card": "red-2"})
    ref.push({"type": "reveal", "seat": 1, "cards": ["blue-3", "green-4"]})
    assert "WINNER: P0" in render(ref.state, "uno", seat_names(2))


def test_styles_only_on_terminals() -> None:
    state = Referee("uno", 2).state
    assert "\x1b[" not in render(state, "uno", seat_names(2), style=Style(False))
    assert "\x1b[" in render(state, "uno", seat_names(2), style=Style(True))


def test_ring_text() -> None:
    assert ring_text([(0, 0, 0), (40, 0, 0), (0, 40, 0), (0, 0, 40), (40, 40, 0), (40, 40, 40)]) == ".RGBYW"


def test_live_view_appends_lines_on_a_pipe_and_redraws_on_a_terminal(tmp_path) -> None:
    for interactive in (False, True):
        out = io.StringIO()
        view = LiveView(out, interactive=interactive, board_text=lambda: "'  12' ring R..")
        ctrl = TableController(TableSession.new(make_header("ono99_2022", 3), None), view)
        ctrl.landed("num-5")
        ctrl.landed("num-7")
        text = out.getvalue()
        if interactive:
            assert text.count("\x1b[H\x1b[2J") == 2 and "board: '  12' ring R.." in text
        else:
            assert text.splitlines()[0].startswith("P1 card num-5") and len(text.splitlines()) == 2
            assert "total  12" in text.splitlines()[1]
