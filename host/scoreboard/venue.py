"""The scoreboard's picture of a venue, rebuilt from the tables' MQTT messages.

Each (table, game) is a TableSession with no journal of its own, fed the table's journal
records in index order: a record is applied only when it is the next one (an earlier index is
a copy already applied; a later one waits while the missing ones are asked for on the
table's `resend` topic). So every record is applied exactly once, in order, however the
broker, the network or a restart shuffled, lost or repeated them, and each table's state
here is its journal's state. No network I/O here: `ask` and `show` are handed in.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import UserError
from ..record import RecordHeader
from ..table import TableSession
from ..web.snapshot import table_view
from .standings import Standings
from .store import Store

ASK_AGAIN_S = 1.0     # a resend request is repeated at most this often per game
MAX_WAITING = 10000   # records held while an earlier one is missing


@dataclass
class Game:
    table: str
    game: str
    header: dict[str, Any]
    session: TableSession
    waiting: dict[int, dict[str, Any]] = field(default_factory=dict)
    asked: tuple[int, float] = (-1, 0.0)   # (from index, when)
    seen: float = 0.0                      # last time anything of it arrived
    extra: dict[str, Any] = field(default_factory=dict)  # from the table's state message: asking, recent

    names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        given = list(self.header.get("names") or [])
        self.names = [given[i] if i < len(given) else f"P{i}" for i in range(self.session.players)]

    @property
    def applied(self) -> int:
        return len(self.session.records)


def new_session(header: dict[str, Any], where: str) -> TableSession:
    RecordHeader.from_json(header, where)  # UserError for a header no journal could have
    return TableSession.new(header, None)


class Venue:
    def __init__(self, store: Store, ask: Callable[[str, str, int], None],
                 show: Callable[[str, Any], None], say: Callable[[str], None]) -> None:
        self.store = store
        self.ask = ask        # (table, game, from index): ask the table to publish again
        self.show = show      # (hub key, value): the page
        self.say = say
        self.games: dict[tuple[str, str], Game] = {}
        self.latest: dict[str, Game] = {}   # the game each table shows: the one heard from last
        self.standings = Standings()
        self.online: dict[str, bool] = {}
        self.applied = 0      # records applied since start
        self.copies = 0       # records that arrived again and were not applied
        self._said: set[str] = set()
        for tbl, game, header, records in store.games():
            g = Game(tbl, game, header, new_session(header, f"{store.path}: {tbl}/{game}"))
            for rec in records:
                g.session.apply_record(rec)
            self.games[(tbl, game)] = g
            self.latest[tbl] = g
            self.standings.set((tbl, game), g.names, g.session.state)
        for tbl in self.latest:
            self._show_table(tbl)
        self.show("standings", self.standings.rows())

    # -- messages ------------------------------------------------------------------------------
    def on_records(self, tbl: str, msg: dict[str, Any], now: float | None = None) -> None:
        now = time.time() if now is None else now
        key = (tbl, msg["game"])
        index = msg["index"]
        g = self.games.get(key)
        if index == 0 or g is None:
            if g is None and not self._start(tbl, msg, now):
                return
            if index == 0:
                self.copies += g is not None
                return
            g = self.games[key]
        self._heard(g, now)
        if index <= g.applied:
            self.copies += 1
            return
        record = msg.get("record")
        if not isinstance(record, dict):
            self.ignore(f"{tbl}: record {index} without a record object")
            return
        if index > g.applied + 1:
            if len(g.waiting) < MAX_WAITING:
                g.waiting[index] = record
            self._ask(g, now)
            return
        if self._apply(g, index, record):
            while g.applied + 1 in g.waiting and self._apply(g, g.applied + 1, g.waiting.pop(g.applied + 1)):
                pass
        g.waiting = {i: r for i, r in g.waiting.items() if i > g.applied}
        if g.waiting:
            self._ask(g, now)
        # standings first: a page (or /state) that sees the table at this index must not see
        # standings from before it
        if self.standings.set(key, g.names, g.session.state):
            self.show("standings", self.standings.rows())
        self._show_table(tbl)

    def on_state(self, tbl: str, msg: dict[str, Any], now: float | None = None) -> None:
        now = time.time() if now is None else now
        g = self.games.get((tbl, msg["game"]))
        if g is None and not self._start(tbl, msg, now):
            return
        g = self.games[(tbl, msg["game"])]
        given = msg.get("view")
        view: dict[str, Any] = given if isinstance(given, dict) else {}
        extra = {"asking": bool(view.get("asking")), "offer": [str(c) for c in view.get("offer") or []][:2],
                 "recent": list(view.get("recent") or [])[-6:], "index": msg["index"]}
        if msg["index"] > g.applied:
            self._ask(g, now)   # the table is further than we are: a record went missing
        if extra != g.extra:
            g.extra = extra
            self._heard(g, now)
            self._show_table(tbl)

    def on_status(self, tbl: str, payload: bytes) -> None:
        text = payload.decode("utf-8", "replace").strip()
        if text not in ("online", "offline"):
            self.ignore(f"{tbl}/status: {text[:40]!r} is neither online nor offline")
            return
        self.online[tbl] = text == "online"
        self._show_table(tbl)

    def resume_asking(self, now: float | None = None) -> None:
        """After the scoreboard (re)connects: a game waiting for records asks again."""
        now = time.time() if now is None else now
        for g in self.games.values():
            if g.waiting:
                g.asked = (-1, 0.0)
                self._ask(g, now)

    def tick(self, now: float | None = None) -> None:
        """Called every fraction of a second: a game still missing records asks again. An ask
        can be lost (the table was not connected to hear it, the broker restarted), and once a
        table has finished nothing else would arrive to make the game ask."""
        now = time.time() if now is None else now
        for g in self.games.values():
            if g.waiting or g.extra.get("index", 0) > g.applied:
                self._ask(g, now)

    # -- the parts -----------------------------------------------------------------------------
    def _start(self, tbl: str, msg: dict[str, Any], now: float) -> bool:
        """A game not seen before: from its header (index 0 or a state message), else ask for it."""
        header = msg.get("header")
        if not isinstance(header, dict):
            self.ask(tbl, msg["game"], 0)
            return False
        try:
            session = new_session(header, f"{tbl}/{msg['game']}")
        except UserError as exc:
            self.ignore(str(exc))
            return False
        g = Game(tbl, msg["game"], header, session, seen=now)
        self.store.add_game(tbl, g.game, header)
        self.games[(tbl, g.game)] = g
        self._heard(g, now)
        return True

    def _heard(self, g: Game, now: float) -> None:
        g.seen = now
        shown = self.latest.get(g.table)
        if shown is not g and (shown is None or shown.seen <= now):
            self.latest[g.table] = g

    def _apply(self, g: Game, index: int, record: dict[str, Any]) -> bool:
        """Apply the next record (stored in the same transaction); False for one that cannot be."""
        try:
            g.session.check_record(record)
        except (UserError, ValueError, KeyError, TypeError) as exc:
            self.ignore(f"{g.table}: record {index} of game {g.game} cannot be applied ({exc}); asking again")
            g.asked = (-1, 0.0)
            self._ask(g, time.time())
            return False
        self.store.db.execute("BEGIN")
        try:
            self.store.add_record(g.table, g.game, index, record)
            g.session.apply_record(record)
            self.store.db.execute("COMMIT")
        except BaseException:
            self.store.db.execute("ROLLBACK")
            raise
        self.applied += 1
        return True

    def _ask(self, g: Game, now: float) -> None:
        start = g.applied + 1
        if g.asked[0] == start and now - g.asked[1] < ASK_AGAIN_S:
            return
        g.asked = (start, now)
        self.ask(g.table, g.game, start)

    def ignore(self, text: str) -> None:
        if text not in self._said:  # one line per kind of trouble, not one per message
            self._said.add(text)
            self.say(f"ignored: {text}")

    def _show_table(self, tbl: str) -> None:
        g = self.latest.get(tbl)
        if g is None:
            return
        view = table_view(g.session.game, g.names, g.session.state, index=g.applied, game_id=g.game)
        if g.extra.get("index") == g.applied:
            view.update(asking=g.extra["asking"], offer=g.extra["offer"], recent=g.extra["recent"])
        view.update(name=tbl, online=self.online.get(tbl, True))
        self.show(f"table:{tbl}", view)

