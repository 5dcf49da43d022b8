"""The bridge between the referee's thread and the web server's event loop.

The referee (or the scoreboard's MQTT thread) calls `put(key, value)` and returns at once:
the latest value of each key is kept (a page that connects or reloads gets them all first),
and each connected page's queue gets the change on the server's loop. A page too slow to
keep up is not waited for: its queue is cleared and it is sent everything afresh.
"""
from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

CLIENT_QUEUE = 256  # changes a page may fall behind before it is resent the whole picture


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[str, Any] = {}
        self._clients: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def put(self, key: str, value: Any) -> None:
        """Thread-safe: the new value of `key` (e.g. "table:7", "standings")."""
        message = json.dumps({key: value})
        with self._lock:
            self._latest[key] = value
            loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._fan_out, message)
            except RuntimeError:  # the loop closed between the check and the call
                pass

    def everything(self) -> str:
        with self._lock:
            return json.dumps(dict(self._latest))

    def latest(self, key: str) -> Any:
        with self._lock:
            return self._latest.get(key)

    # -- on the server's loop -----------------------------------------------------------------
    def connect(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue(CLIENT_QUEUE)
        q.put_nowait(self.everything())
        self._clients.add(q)
        return q

    def disconnect(self, q: asyncio.Queue) -> None:
        self._clients.discard(q)

    def close(self) -> None:
        """Tell every page's stream to end (the server is stopping)."""
        for q in list(self._clients):
            _replace(q, None)

    def _fan_out(self, message: str) -> None:
        for q in list(self._clients):
            try:
                q.put_nowait(message)
            except asyncio.QueueFull:
                _replace(q, self.everything())


def _replace(q: asyncio.Queue, item: Any) -> None:
    while not q.empty():
        q.get_nowait()
    q.put_nowait(item)
