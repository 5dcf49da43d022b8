"""The report's figures of simulated games, checked against the simulator's own truth (written
from the spec, independently of the referee that the report replays), and the plots against
the figures."""
from __future__ import annotations

import pathlib
import sys

import pytest

from tableref.record import RecordHeader
from tableref.report.plots import game_plots
from tableref.report.series import game_figures
from tableref.simulate import simulate_game

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from report_truth import assert_players_match, truth_counts  # noqa: E402

GAMES = [("ono99_2022", 4, 3), ("ono99_classic", 3, 2), ("uno", 4, 1), ("ena", 3, 1), ("uno_no_mercy", 4, 2)]


def figures(game: str, players: int, seed: int, events: list | None = None):
    sim = simulate_game(game, players, seed, {}, misplay_rate=0.08)
    header = RecordHeader.from_json(sim.header, "sim")
    return sim, game_figures(header, sim.events if events is None else events)


@pytest.mark.parametrize("game,players,seed", GAMES)
def test_series_and_figures_equal_the_simulators_truth(game: str, players: int, seed: int) -> None:
    sim, fig = figures(game, players, seed)
    truth = sim.truth
    assert fig.x == list(range(len(sim.events) + 1))
    if game.startswith("ono99"):
        assert fig.total[1:] == [t["total"] for t in truth]
        assert sum(1 for m in fig.markers if m.kind == "elimination") == len(truth[-1]["eliminated"])
    else:
        for seat in range(players):
            assert fig.hand_counts[seat][1:] == [t["hand_counts"][seat] for t in truth]
        assert fig.hands and fig.hands[-1].scores == truth[-1]["scores"]
        assert [h.winner for h in fig.hands] == [t["hand_winner"] for i, t in enumerate(truth)
                                                 if t["hand_over"] and not (i and truth[i - 1]["hand_over"])]
    assert fig.winner == truth[-1]["winner"]
    assert_players_match(fig.players, truth_counts(sim.events, truth))
    flagged = [i.index for i in fig.incidents if i.kind == "illegal"]
    assert flagged == [i for i, t in enumerate(truth) if t["illegal"]]
    assert all(i.rule and i.action and i.pictures == ("before", "after") for i in fig.incidents if i.kind == "illegal")


@pytest.mark.parametrize("game,players,seed", [GAMES[0], GAMES[2]])
def test_the_plots_draw_the_series(game: str, players: int, seed: int) -> None:
    _, fig = figures(game, players, seed)
    (name, figure), = game_plots(fig).items()
    lines = {line.get_label(): list(line.get_ydata()) for line in figure.axes[0].lines}
    if name == "total":
        assert lines["total"] == fig.total
    else:
        assert [lines[n] for n in fig.names] == fig.hand_counts


def test_an_undone_record_counts_for_nobody_and_is_listed_as_a_correction() -> None:
    sim, plain = figures("uno", 4, 1)
    k = next(i for i, ev in enumerate(sim.events) if ev["type"] == "card" and not sim.truth[i]["illegal"] and i > 3)
    bad = next(i for i, ev in enumerate(sim.events) if sim.truth[i]["illegal"])
    # a misread card undone and played again; a flagged card undone (the camera misread it)
    events = (sim.events[:k] + [{"type": "card", "card": "red-9"}, {"type": "undo"}] + sim.events[k:bad + 1]
              + [{"type": "undo"}] + sim.events[bad + 1:])
    _, fig = figures("uno", 4, 1, events)
    assert [(p.cards_played, p.drawn, p.calls) for p in fig.players] == \
        [(p.cards_played, p.drawn, p.calls) for p in plain.players]
    undone_bad = bad + 2
    assert sum(sum(p.illegal.values()) for p in fig.players) == sum(sum(p.illegal.values()) for p in plain.players) - 1
    undos = [i for i in fig.incidents if i.kind == "undo"]
    assert [u.index for u in undos] == [k + 1, bad + 3] and f"record {k}: card red-9" in undos[0].what
    flagged = {i.index: i for i in fig.incidents if i.kind == "illegal"}
    assert f"undone at record {bad + 3}" in flagged[undone_bad].action
    assert fig.x == list(range(len(events) + 1))
    assert [c[-1] for c in fig.hand_counts] == [c[-1] for c in plain.hand_counts]
