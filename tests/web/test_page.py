"""The live pages in a real headless Chromium: a running `tableref demo --web` shows the
journal's total, turn and illegal flag at every step, a reload mid-game catches up, the OBS
overlay renders; the scoreboard page shows every table and the journals' standings.

Screenshots go to the test's folder; with TABLEREF_UPDATE_DOCS=1 also to docs/ (the README's)."""
from __future__ import annotations

import os
import pathlib
import subprocess
import threading
import time
from typing import Any

import pytest

from tableref.record import read_record
from tableref.table import TableSession
from tableref.terminal_view import describe_illegal, seat_names

from conftest import Broker, free_port, wait_for
from test_mqtt import close, journals, open_tables, play
from venue import TABLEREF, ScoreboardProc, journal_standings, wait_caught_up

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
TV = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


def screenshot(page: Any, tmp: pathlib.Path, name: str) -> None:
    page.screenshot(path=str(tmp / name), animations="disabled")  # the illegal banner's flash ends lit
    if os.environ.get("TABLEREF_UPDATE_DOCS") == "1":
        DOCS.mkdir(exist_ok=True)
        page.screenshot(path=str(DOCS / name), animations="disabled")


def journal_steps(path: pathlib.Path) -> tuple[list[str], list[dict[str, Any]]]:
    """Seat names and the table's state after each journal index (0: before any record)."""
    header, records = read_record(path)
    session = TableSession.new(header.to_json(), None)
    states = [session.state]
    for rec in records:
        session.apply_record(rec)
        states.append(session.state)
    return seat_names(header.players, header.names), states


def shown(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.tablerefShown")


def last_index(page: Any) -> int:
    return page.evaluate("window.tablerefShown.length ? window.tablerefShown[window.tablerefShown.length - 1].index : -1")


def check_against_journal(seen: list[dict[str, Any]], names: list[str], states: list[dict[str, Any]]) -> None:
    assert seen, "the page showed nothing"
    for s in seen:
        st = states[s["index"]]
        assert s["big"] == str(st["total"]), s
        assert s["turn"] == (names[st["current_seat"]] if st["current_seat"] is not None else None), s
        assert s["illegal"] == describe_illegal(st["illegal"], names), s
    indices = [s["index"] for s in seen]
    assert indices == sorted(indices), "the page never goes back"
    assert set(range(indices[0], len(states))) <= set(indices), "every step from the first one seen is shown"


def test_the_page_of_a_running_demo_follows_the_journal(browser: Any, tmp_path: pathlib.Path) -> None:
    port = free_port()
    journal = tmp_path / "demo.jsonl"
    proc = subprocess.Popen([TABLEREF, "demo", "--board", "sim", "--web", f"127.0.0.1:{port}", "--journal", str(journal)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        deadline = time.monotonic() + 400
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            assert line, "the demo ended before serving its page: " + proc.stderr.read()  # type: ignore[union-attr]
            if "live page: " in line:
                url = line.split("live page: ")[1].split()[0]
        assert url == f"http://127.0.0.1:{port}/"
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # type: ignore[union-attr]  # never let it block on a full pipe
        tv, phone, overlay = browser.new_page(viewport=TV), browser.new_page(viewport=PHONE), browser.new_page(viewport=TV)
        for page in (tv, phone):
            page.goto(url)
        overlay.goto(url + "?overlay=1")
        try:  # the README's picture: the moment the demo's illegal play is on the screen
            tv.wait_for_selector(".illegal:not([hidden])", timeout=300_000)
        except Exception:
            pass  # the test below says whether the page missed it
        screenshot(tv, tmp_path, "live-page.png")
        wait_for(lambda: last_index(phone) >= 8, 300, "the game to reach its 8th record", 0.1)
        at_reload = last_index(phone)
        assert proc.poll() is None, "the reload happens mid-game"
        phone.reload()
        wait_for(lambda: last_index(phone) >= at_reload, 20, "the reloaded page to catch up", 0.05)
        assert shown(phone)[0]["index"] >= at_reload, "a reload starts from where the game is, not from nothing"
        # the overlay: transparent, the same table
        assert overlay.evaluate("document.documentElement.classList.contains('overlay')")
        assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert overlay.locator(".table .big").is_visible()
        overlay.screenshot(path=str(tmp_path / "live-page-overlay.png"))
        assert proc.wait(timeout=600) == 0, proc.stderr.read()  # type: ignore[union-attr]
        names, states = journal_steps(journal)
        check_against_journal(shown(tv), names, states)
        check_against_journal(shown(phone), names, states)  # from the reload to the end
        assert shown(tv)[-1]["index"] == len(states) - 1, "the page shows the end of the game"
        assert any(s["illegal"] for s in shown(tv)), "the demo game has an illegal play and the page flagged it"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_scoreboard_page_shows_every_table_and_the_standings(browser: Any, broker: Broker,
                                                                  tmp_path: pathlib.Path) -> None:
    board = ScoreboardProc(broker.url("venue"), tmp_path / "sb.sqlite", tmp_path / "sb.log").start()
    tables = open_tables(broker, tmp_path, 3)
    try:
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        page.goto(board.page)
        play(tables, 30)
        wait_caught_up(board, {n: t.ctrl.session.journal.path for n, t in tables.items()})  # type: ignore[union-attr]
        page.wait_for_function("document.querySelectorAll('article.table').length === 3")
        screenshot(page, tmp_path, "scoreboard.png")
        play(tables)
        wait_caught_up(board, journals(tables))
        want = journal_standings(list(journals(tables).values()))
        rows = lambda: page.evaluate(  # noqa: E731
            "[...document.querySelectorAll('.standings tr')].slice(1).map(r => [...r.cells].map(c => c.textContent))")
        expected = [[r["name"], str(r["wins"]), str(r["eliminations"]), str(r["score"]), str(r["games"])] for r in want]
        wait_for(lambda: rows() == expected, 20, "the page's standings to equal the journals'")
        finals = {s["game"]: s for s in shown(page)}
        assert len(finals) == 3 and all(s["index"] > 0 for s in finals.values())
    finally:
        close(tables)
        board.stop()


def test_an_unknown_page_address_is_404_and_events_stream(tmp_path: pathlib.Path) -> None:
    import urllib.error
    import urllib.request
    from tableref.web.hub import Hub
    from tableref.web.server import WebServer
    hub = Hub()
    server = WebServer(hub, "127.0.0.1:0").start()
    try:
        hub.put("table", {"index": 3})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(server.url + "nothing-here", timeout=5)
        assert err.value.code == 404
        with urllib.request.urlopen(server.url + "events", timeout=5) as stream:
            assert stream.readline() == b"retry: 1000\n"
            stream.readline()
            assert stream.readline() == b'data: {"table": {"index": 3}}\n'
    finally:
        server.stop()
