"""The report of a seeded demo game (`tableref demo --journal --report`), checked against its
journal: the plotted series equal the replayed totals and hand counts, every illegal play is
shown with its pictures, and the per-player counts equal the simulator's truth of that game.
With TABLEREF_UPDATE_DOCS=1 the report's PNGs are also saved to docs/ (the README shows them);
otherwise a test run leaves the checkout as it was (matplotlib's bytes vary between runs)."""
from __future__ import annotations

import base64
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from tableref.evidence import evidence_dir, picture_name
from tableref.game_script import DEMO_SETUP, REQUIRED, find_game
from tableref.record import TABLE_RECORD_TYPES, read_record
from tableref.referee import Referee
from tableref.report.cmd import figures_of
from tableref.report.plots import game_plots

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from report_truth import assert_players_match, truth_counts  # noqa: E402

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")
DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module", params=["ono99_2022", "uno"])
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, pathlib.Path]:
    game = request.param
    tmp = tmp_path_factory.mktemp(game)
    res = subprocess.run([TABLEREF, "demo", "--game", game, "--board", "sim", "--journal", str(tmp / "j.jsonl"),
                          "--report", str(tmp / "r.html")], capture_output=True, text=True, timeout=500,
                         stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr
    assert f"report: {tmp / 'r.html'}" in res.stdout
    return game, tmp


def replayed(journal: pathlib.Path) -> list[dict]:
    """The referee's state at the start and after every record, replayed here step by step."""
    header, records = read_record(journal)
    ref = Referee(header.game, header.players, header.options, header.setup)
    states = [ref.state]
    for rec in records:
        if rec["type"] == "undo":
            ref.pop()
        elif rec["type"] not in TABLE_RECORD_TYPES:  # taken_back, seat_map: no game event
            ref.push(rec)
        states.append(ref.state)
    return states


def test_the_plots_draw_the_replayed_series_and_are_saved(demo: tuple[str, pathlib.Path]) -> None:
    game, tmp = demo
    journal = tmp / "j.jsonl"
    states = replayed(journal)
    (name, figure), = game_plots(figures_of(journal)).items()
    lines = {line.get_label(): list(line.get_ydata()) for line in figure.axes[0].lines}
    if game == "ono99_2022":
        assert name == "total" and lines["total"] == [s["total"] for s in states]
    else:
        header, _ = read_record(journal)
        assert name == "hands"
        for seat in range(header.players):
            assert lines[f"P{seat}"] == [s["hand_counts"][seat] for s in states]
    res = subprocess.run([TABLEREF, "report", str(journal), "--out", str(tmp / "again.html"), "--png", str(tmp / "png")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert (tmp / "again.html").read_bytes() == (tmp / "r.html").read_bytes()  # the same journal, the same report
    png = tmp / "png" / f"report-{name}.png"
    assert png.read_bytes().startswith(b"\x89PNG")
    if os.environ.get("TABLEREF_UPDATE_DOCS") == "1":
        DOCS.mkdir(exist_ok=True)
        shutil.copyfile(png, DOCS / png.name)  # looked at as a person would: the README shows it


def test_every_illegal_play_appears_with_its_pictures(demo: tuple[str, pathlib.Path]) -> None:
    game, tmp = demo
    journal = tmp / "j.jsonl"
    page = (tmp / "r.html").read_text()
    assert "http://" not in page and "https://" not in page  # self-contained
    states = replayed(journal)
    _, records = read_record(journal)
    flagged = [i for i, rec in enumerate(records) if rec["type"] not in ("undo", "taken_back") and states[i + 1]["illegal"]]
    if game == "ono99_2022":
        assert flagged  # the demo's ONO 99 game has illegal plays taken back
    blocks = dict(re.findall(r"<div class='incident illegal' data-index='(\d+)'.*?data-reason='(\w+)'", page))
    assert sorted(map(int, blocks)) == flagged
    for i in flagged:
        assert blocks[str(i)] == states[i + 1]["illegal"]["reason"]
        block = re.search(rf"<div class='incident illegal' data-index='{i}'.*?</div>", page).group(0)
        for kind in ("before", "after"):
            name = picture_name(i, kind)
            data = (evidence_dir(journal) / name).read_bytes()
            assert f"data-picture='{name}'" in block
            assert f"data:image/jpeg;base64,{base64.b64encode(data).decode()}" in block
    assert "data-missing" not in page


def test_per_player_counts_equal_the_games_truth(demo: tuple[str, pathlib.Path]) -> None:
    game, tmp = demo
    setup = DEMO_SETUP[game]
    _, tg = find_game(game, setup["players"], setup["options"], REQUIRED[game], misplay_rate=setup["misplay_rate"])
    fig = figures_of(tmp / "j.jsonl")
    assert_players_match(fig.players, truth_counts(tg.sim.events, tg.sim.truth))
    assert fig.winner == tg.sim.truth[-1]["winner"]
    page = (tmp / "r.html").read_text()
    for seat, p in enumerate(fig.players):
        row = re.search(rf"<tr data-seat='{seat}'>.*?</tr>", page).group(0)
        assert f"<td data-figure='cards_played'>{p.cards_played}</td>" in row
        assert f"<td data-figure='illegal'>{sum(p.illegal.values())}</td>" in row
        # the demo's camera records carry the video time: every seat that played has timed turns
        assert 0 < len(p.turn_times) <= p.cards_played or p.cards_played == 0
