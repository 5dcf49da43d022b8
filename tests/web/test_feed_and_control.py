"""The table's one feed: every output sees each journal record once, with its index, after it
is on disk; a new output needs nothing upstream. And the page's control: nothing without the
token printed at start, a bad command is refused, a good one reaches the referee."""
from __future__ import annotations

import json
import pathlib
import urllib.error
import urllib.request

import pytest

from tableref.feed import TableUpdate
from tableref.keyboard import parse_command
from tableref.outputs import Outputs
from tableref.run_loop import RunLoop
from tableref.table import TableSession, make_header
from tableref.table_app import TableController
from tableref.web.hub import Hub
from tableref.web.server import WebServer


class Recorder:
    """A fifth output, added from outside: it keeps what it is handed."""

    def __init__(self, journal: pathlib.Path) -> None:
        self.journal = journal
        self.records: list[tuple[int, dict]] = []
        self.updates: list[TableUpdate] = []

    def update(self, u: TableUpdate) -> None:
        on_disk = self.journal.read_text().splitlines()[1:]
        assert len(on_disk) == u.index, "published only once journaled"
        self.records += list(u.new_records)
        self.updates.append(u)

    def notice(self, text: str) -> None:
        pass


def controller(tmp_path: pathlib.Path) -> TableController:
    session = TableSession.new(make_header("ono99_2022", 3), tmp_path / "j.jsonl")
    return TableController(session, Recorder(tmp_path / "j.jsonl"), None, ["Ana", "Bo", "Cy"])


def test_each_output_gets_every_record_once_with_its_index(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    late = ctrl.feed.subscribe(Recorder(tmp_path / "j.jsonl"))
    for line in ("x num-5", "x num-7", "u", "x num-9", "h", "x num-9"):
        ctrl.command(parse_command(line))  # type: ignore[arg-type]
    ctrl.publish(None)  # a redraw hands on no record again
    journal = [json.loads(ln) for ln in (tmp_path / "j.jsonl").read_text().splitlines()[1:]]
    for out in (ctrl.view, late):
        assert out.records == list(enumerate(journal, start=1))  # type: ignore[attr-defined]
        assert out.updates[-1].names == ("Ana", "Bo", "Cy") and out.updates[-1].state["total"] == 23  # type: ignore[attr-defined]


def post(url: str, body: bytes, token: str | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(url + "control", data=body, method="POST",
                                 headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_control_needs_the_token_and_reaches_the_referee(tmp_path: pathlib.Path) -> None:
    ctrl = controller(tmp_path)
    outs = Outputs()
    server = WebServer(Hub(), "127.0.0.1:0", control=outs.control).start()
    try:
        ctrl.command(parse_command("x num-5"))  # type: ignore[arg-type]
        assert server.token and len(server.token) >= 16
        assert post(server.url, b'{"command": "u"}')[0] == 403
        assert post(server.url, b'{"command": "u"}', "guess")[0] == 403
        assert post(server.url, b'not json', server.token)[0] == 400
        code, body = post(server.url, b'{"command": "frobnicate"}', server.token)
        assert code == 400 and body["error"]
        assert post(server.url, b'{"command": "u"}', server.token) == (200, {"ok": True})
        RunLoop(ctrl, None, remote=outs.commands).handle_remote()
        assert ctrl.session.records[-1] == {"type": "undo"} and ctrl.session.state["total"] == 0
    finally:
        server.stop()


def test_a_read_only_page_has_no_control(tmp_path: pathlib.Path) -> None:
    server = WebServer(Hub(), "127.0.0.1:0").start()
    try:
        assert server.token is None
        assert post(server.url, b'{"command": "u"}', "anything")[0] == 404
    finally:
        server.stop()


def test_a_busy_port_is_one_clear_error() -> None:
    from tableref.errors import UserError
    first = WebServer(Hub(), "127.0.0.1:0").start()
    try:
        with pytest.raises(UserError, match="cannot listen there"):
            WebServer(Hub(), f"127.0.0.1:{first.port}")
    finally:
        first.stop()


def test_the_page_and_mqtt_view_show_what_the_camera_asks_about(tmp_path: pathlib.Path) -> None:
    from tableref.web.snapshot import update_view
    ctrl = controller(tmp_path)
    ctrl.landed(None, 1.0, 10, 0.4, likely=[("num-6", 0.5), ("num-9", 0.4)])
    asked = update_view(ctrl.view.updates[-1])  # type: ignore[attr-defined]
    assert asked["asking"] and asked["offer"] == ["num-6", "num-9"]
    ctrl.command(parse_command("a"))  # the likeliest taken: nothing asked, nothing offered
    answered = update_view(ctrl.view.updates[-1])  # type: ignore[attr-defined]
    assert not answered["asking"] and answered["offer"] == []
    assert ctrl.session.records[-1]["card"] == "num-6"
