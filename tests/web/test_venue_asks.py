"""The scoreboard's venue without a broker: a lost ask for missing records is asked again by
the tick, so a table that finished while its records were lost still gets filled in; and the
standings a record changes are shown before the table at that record."""
from __future__ import annotations

import pathlib

from tableref.mqtt.sim_table import Quiet
from tableref.record import read_record
from tableref.scoreboard.standings import standings
from tableref.scoreboard.store import Store
from tableref.scoreboard.venue import ASK_AGAIN_S, Venue
from tableref.simulate import simulate_game
from tableref.table import TableSession, make_header
from tableref.table_app import TableController


def a_journal(tmp: pathlib.Path, events: int = 30) -> tuple[dict, list[dict]]:
    sim = simulate_game("ono99_2022", 3, 5, {}, max_events=200)
    header = make_header("ono99_2022", 3, sim.header["options"], names=["A", "B", "C"])
    ctrl = TableController(TableSession.new(header, tmp / "j.jsonl"), Quiet(), None, ["A", "B", "C"])
    for event in sim.events[:events]:
        out = ctrl.submit(dict(event))
        if out is not None and out.verdict is not None and out.verdict.illegal is not None:
            ctrl.removed()
    ctrl.session.close()
    head, records = read_record(tmp / "j.jsonl")
    return head.to_json(), records


def test_a_lost_ask_is_asked_again_until_the_gap_is_filled(tmp_path: pathlib.Path) -> None:
    header, records = a_journal(tmp_path)
    asks: list[tuple[str, str, int]] = []
    venue = Venue(Store(tmp_path / "sb.sqlite"), lambda *a: asks.append(a), lambda k, v: None, lambda s: None)
    t = 1000.0
    venue.on_records("t1", {"game": "g", "index": 0, "header": header}, t)
    for i in (1, 2):
        venue.on_records("t1", {"game": "g", "index": i, "record": records[i - 1]}, t)
    # records 3 and 4 were lost with the broker; 5 arrives, then the table has finished
    venue.on_records("t1", {"game": "g", "index": 5, "record": records[4]}, t)
    assert asks == [("t1", "g", 3)]
    venue.tick(t + ASK_AGAIN_S / 2)
    assert len(asks) == 1, "not more often than ASK_AGAIN_S"
    venue.tick(t + ASK_AGAIN_S * 1.5)
    assert asks[-1] == ("t1", "g", 3) and len(asks) == 2, "the lost ask goes again"
    for i in (3, 4):
        venue.on_records("t1", {"game": "g", "index": i, "record": records[i - 1]}, t + 2)
    assert venue.games[("t1", "g")].applied == 5
    asked = len(asks)
    venue.tick(t + 10)
    assert len(asks) == asked, "a game with nothing missing asks nothing"


def test_a_table_ahead_of_the_venue_by_its_state_is_asked_again(tmp_path: pathlib.Path) -> None:
    header, records = a_journal(tmp_path)
    asks: list[tuple[str, str, int]] = []
    venue = Venue(Store(tmp_path / "sb.sqlite"), lambda *a: asks.append(a), lambda k, v: None, lambda s: None)
    venue.on_state("t1", {"game": "g", "index": 4, "header": header, "view": {}}, 50.0)
    assert asks == [("t1", "g", 1)]
    venue.tick(52.0)
    assert asks == [("t1", "g", 1)] * 2


def test_the_standings_are_shown_before_the_table_that_changed_them(tmp_path: pathlib.Path) -> None:
    """A page that sees a table at index N sees standings from index N too. Shown the other way
    round, CI's /state once read a finished table beside standings from before its last batch."""
    header, records = a_journal(tmp_path, 200)  # the whole game, eliminations and all
    shown: dict[str, object] = {}
    stale: list[int] = []
    venue: Venue

    def show(key: str, value: object) -> None:
        if key == "table:t1":
            g = venue.games[("t1", "g")]
            if shown.get("standings") != standings([(g.names, g.session.state)]):
                stale.append(value["index"])  # type: ignore[index]
        shown[key] = value

    venue = Venue(Store(tmp_path / "sb.sqlite"), lambda *a: None, show, lambda s: None)
    venue.on_records("t1", {"game": "g", "index": 0, "header": header}, 1.0)
    # a gap first, so the rest arrives and is applied as a batch, as after a broker restart
    for i in [*range(3, len(records) + 1), 1, 2]:
        venue.on_records("t1", {"game": "g", "index": i, "record": records[i - 1]}, 2.0)
    assert venue.games[("t1", "g")].applied == len(records)
    assert any(r["eliminations"] for r in shown["standings"]), "the journal has an elimination"  # type: ignore[union-attr]
    assert stale == [], f"table shown ahead of the standings at indices {stale}"
