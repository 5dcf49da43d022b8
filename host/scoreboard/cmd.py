"""`tableref scoreboard mqtt://[USER:PASS@]BROKER[:PORT]/VENUE [--web HOST:PORT] [--db FILE]`

Subscribes to every table under VENUE (VENUE/+/records, state, status), rebuilds each game
from its records (tableref.scoreboard.venue), keeps them in SQLite (--db) and serves one page
with every table live and the standings. Runs until Ctrl-C or SIGTERM; a restart with the same
--db carries on where it stopped. Anything on the venue's topics that is not a table's message
is one line on stderr and ignored.
"""
from __future__ import annotations

import argparse
import pathlib
import signal
import sys
import threading
from typing import Any

from ..mqtt import topics
from ..mqtt.client import make_client

DEFAULT_WEB = "127.0.0.1:8099"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="mqtt://BROKER/VENUE", help="the venue's broker and topic (mqtts:// for TLS)")
    parser.add_argument("--web", default=DEFAULT_WEB, metavar="[HOST:]PORT",
                        help=f"where the page is served (default {DEFAULT_WEB}; 0.0.0.0:PORT for the room)")
    parser.add_argument("--db", default=None, metavar="FILE",
                        help="SQLite file for the tables and standings (default: VENUE.sqlite in the user data folder)")


def say(text: str) -> None:
    print(f"tableref scoreboard: {text}", file=sys.stderr, flush=True)


class Scoreboard:
    """The venue, its page and its MQTT client, wired together; stop() ends all three."""

    def __init__(self, url: topics.BrokerUrl, db: pathlib.Path, web: str) -> None:
        from ..web.hub import Hub
        from ..web.server import WebServer
        from .store import Store
        from .venue import Venue
        self.url = url
        self.hub = Hub()
        self.hub.put("venue", "/".join(url.path))
        self.store = Store(db)
        self.venue = Venue(self.store, self._ask, self.hub.put, say)
        self.server = WebServer(self.hub, web, page="scoreboard.html")
        self.client: Any = None
        self.lock = threading.Lock()  # the venue is fed by paho's thread and ticked by the main one

    def start(self) -> "Scoreboard":
        self.server.start()
        # (paho may connect, and call _up, before make_client returns)
        self.client = make_client(self.url, "scoreboard", say, self._up, lambda: None, on_message=self._message)
        return self

    def _up(self, client: Any) -> None:
        self.client = client
        base = "/".join(self.url.path)
        for kind in ("records", "state", "status"):
            client.subscribe(f"{base}/+/{kind}", qos=1)
        with self.lock:
            self.venue.resume_asking()

    def tick(self) -> None:
        with self.lock:
            self.venue.tick()

    def _ask(self, table: str, game: str, start: int) -> None:
        if self.client is not None:
            self.client.publish(topics.topic(self.url.path + (table,), "resend"),
                                topics.dumps({"game": game, "from": start}), qos=1)

    def _message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.lock:
            self._take(msg)

    def _take(self, msg: Any) -> None:
        where = topics.split_topic(self.url.path, msg.topic)
        if where is None or where[1] == "resend":
            if where is None:
                self.venue.ignore(f"{msg.topic}: not a table's topic")
            return
        table, kind = where
        try:
            if kind == "status":
                self.venue.on_status(table, msg.payload)
                return
            body = topics.loads(msg.payload)
            (self.venue.on_records if kind == "records" else self.venue.on_state)(table, body)
        except (ValueError, KeyError, TypeError) as exc:
            self.venue.ignore(f"{msg.topic}: {exc}")
        except Exception as exc:  # e.g. the disk is full: say it, keep the client's thread alive
            say(f"error on {msg.topic}: {exc.__class__.__name__}: {exc}")

    def stop(self) -> None:
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
        self.server.stop()
        self.store.close()


def run(args: argparse.Namespace) -> int:
    url = topics.parse_url(args.url, "scoreboard", levels=1)
    if args.db:
        db = pathlib.Path(args.db)
    else:
        from ..settings import default_journal_dir
        db = default_journal_dir().parent / f"scoreboard-{'-'.join(url.path)}.sqlite"
    board = Scoreboard(url, db, args.web)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    board.start()
    games = len(board.venue.games)
    say(f"page {board.server.url}  venue {'/'.join(url.path)} on mqtt {url.where}; "
        f"{db} ({games} game{'s' * (games != 1)} kept)")
    try:
        while not stop.wait(0.5):
            board.tick()
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    say(f"stopped ({board.venue.applied} records applied, {board.venue.copies} copies ignored)")
    return 0

