"""Where a table's messages go on a broker, and what they look like. Pure: no network.

    mqtt://[USER:PASS@]BROKER[:PORT]/VENUE/TABLE     (mqtts:// for TLS; ?ca=FILE for a private CA)

Under the table's topic `VENUE/TABLE`:

    state     retained, QoS 1: {"v", "table", "game", "index", "header", "view", "t"} after every change
    records   QoS 1: {"v", "table", "game", "index", "t", "header"} for index 0, then
              {"v", "table", "game", "index", "t", "record"} for each journal record, in order
    status    retained: "online" / "offline" (the last will), as Home Assistant's availability topic
    resend    to the table: {"game", "from"}: publish the records again from index `from`

`game` is the journal's id (tableref.feed.game_id): a table's next game starts again at index 0
under a new id. `t` is the wall-clock time the table handed the record on (just after the
journal's fsync), so a receiver can measure how late it is.
"""
from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass
from typing import Any

from ..errors import UserError

VERSION = 1
KINDS = ("state", "records", "status", "resend")
NAME_OK = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


@dataclass(frozen=True)
class BrokerUrl:
    host: str
    port: int
    tls: bool
    user: str | None
    password: str | None
    path: tuple[str, ...]       # VENUE/TABLE for a table; VENUE (one or more levels) for a scoreboard
    ca: str | None = None

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"


def parse_url(text: str, flag: str, levels: int) -> BrokerUrl:
    """`levels`: how many topic levels the path needs at least (2 for a table, 1 for a venue)."""
    u = urllib.parse.urlsplit(str(text))
    shape = "mqtt://[USER:PASS@]BROKER[:PORT]/VENUE" + ("/TABLE" if levels > 1 else "")
    if u.scheme not in ("mqtt", "mqtts") or not u.hostname:
        raise UserError(f"{flag} {text!r}: expected {shape} (mqtts:// for TLS)")
    try:
        port = u.port or (8883 if u.scheme == "mqtts" else 1883)
    except ValueError:
        raise UserError(f"{flag} {text!r}: the port must be a number from 1 to 65535") from None
    path = tuple(p for p in u.path.split("/") if p)
    if len(path) < levels or any(set(p) - NAME_OK for p in path):
        raise UserError(f"{flag} {text!r}: expected {shape}; topic levels may use letters, digits, - _ .")
    query = urllib.parse.parse_qs(u.query)
    return BrokerUrl(u.hostname, port, u.scheme == "mqtts", urllib.parse.unquote(u.username) if u.username else None,
                     urllib.parse.unquote(u.password) if u.password else None, path,
                     (query.get("ca") or [None])[0])


def topic(base: tuple[str, ...] | str, kind: str) -> str:
    return "/".join(base) + "/" + kind if not isinstance(base, str) else f"{base}/{kind}"


def split_topic(venue: tuple[str, ...], name: str) -> tuple[str, str] | None:
    """`VENUE/TABLE/KIND` -> (TABLE, KIND), or None for a topic that is not a table's."""
    parts = name.split("/")
    if len(parts) != len(venue) + 2 or tuple(parts[:len(venue)]) != venue or parts[-1] not in KINDS:
        return None
    return parts[-2], parts[-1]


def dumps(obj: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **obj}, separators=(",", ":")).encode()


def loads(payload: bytes) -> dict[str, Any]:
    """A message body; ValueError (with a short reason) for anything that is not one of ours."""
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("not JSON") from None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        raise ValueError(f"not a tableref v{VERSION} message")
    if not isinstance(obj.get("game"), str) or not isinstance(obj.get("index", obj.get("from")), int):
        raise ValueError("no game id or index")
    return obj
