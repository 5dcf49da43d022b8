"""`--publish mqtt://...`: the table on a broker, as an output of its feed (tableref.feed).

The referee's thread only drops each update into a queue; one worker thread owns everything
else (paho's callbacks only queue too, so no lock is ever held across a network call). The
worker keeps every record of the game (index 0 is the journal header) and the highest index
up to which the broker acknowledged all of them (QoS 1 PUBACK). On every (re)connection it
publishes again from the first unacknowledged record, so a table cut off from the broker
fills in what the broker missed; a scoreboard that lost records asks for them on the table's
`resend` topic. Receivers apply each index once, so a record sent twice does no harm.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Any, Callable

from ..feed import TableUpdate
from ..web.snapshot import update_view
from . import topics
from .client import make_client

WINDOW = 100        # records in flight (sent, not yet acknowledged) at most
CLOSE_WAIT_S = 3.0  # at the end: how long to wait for the broker to acknowledge the last records


class MqttOutput:
    def __init__(self, url: topics.BrokerUrl, say: Callable[[str], None]) -> None:
        self.url = url
        self.say = say
        self.base = "/".join(url.path)
        self.name = url.path[-1]
        self._q: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._records: list[bytes] = []          # payload of each index
        self._game = ""
        self._state: bytes | None = None
        self._state_sent: bytes | None = None
        self._up = False
        self._next = 0                           # next index to publish
        self.acked = -1                          # every index up to this one is on the broker
        self._done: set[int] = set()
        self._inflight: dict[int, int] = {}      # paho mid -> index
        self._client: Any = None
        self._thread = threading.Thread(target=self._work, name="mqtt-publish", daemon=True)

    @classmethod
    def start(cls, url_text: str, say: Callable[[str], None]) -> "MqttOutput":
        out = cls(topics.parse_url(url_text, "--publish", levels=2), say)
        out._client = make_client(out.url, "table", say, lambda _client: out._q.put(("up", None)),
                                  lambda: out._q.put(("down", None)),
                                  will=(topics.topic(out.base, "status"), b"offline"),
                                  on_message=lambda c, userdata, msg: out._q.put(("resend", msg.payload)))
        out._client.on_publish = lambda c, userdata, mid, reason, props: out._q.put(("acked", mid))
        out._thread.start()
        say(f"publishing to mqtt {out.url.where} under {out.base}/")
        return out

    # -- the feed's side (referee thread) ------------------------------------------------------
    def update(self, u: TableUpdate) -> None:
        self._q.put(("update", (u, time.time())))

    def notice(self, text: str) -> None:
        pass

    def close(self) -> None:
        self._q.put(("stop", None))
        self._thread.join(CLOSE_WAIT_S + 2)

    # -- the worker ------------------------------------------------------------------------------
    def _work(self) -> None:
        deadline: float | None = None
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                kind, arg = self._q.get(timeout=timeout)
            except queue.Empty:
                break
            if kind == "stop":
                if not self._up or self.acked >= len(self._records) - 1:
                    break
                deadline = time.monotonic() + CLOSE_WAIT_S  # let the last records be acknowledged
                continue
            try:
                getattr(self, "_on_" + kind)(arg)
                self._pump()
            except Exception as exc:  # never silently: the journal still has everything
                self.say(f"mqtt: publishing stopped working ({exc.__class__.__name__}: {exc}); the journal has it all")
            if deadline is not None and self.acked >= len(self._records) - 1:
                break
        self._finish()

    def _on_update(self, arg: tuple[TableUpdate, float]) -> None:
        u, t = arg
        if u.game_id != self._game:  # the first update (a resumed game brings its whole journal), or a new game
            self._game = u.game_id
            self._records = [topics.dumps({"table": self.name, "game": u.game_id, "index": 0, "t": t,
                                           "header": u.header})]
            self._next, self.acked = 0, -1
            self._done.clear()
            self._inflight.clear()
        for index, record in u.new_records:
            assert index == len(self._records), "the feed hands on each record once, in order"
            self._records.append(topics.dumps({"table": self.name, "game": u.game_id, "index": index, "t": t,
                                               "record": record}))
        self._state = topics.dumps({"table": self.name, "game": u.game_id, "index": u.index, "t": t,
                                    "header": u.header, "view": update_view(u)})

    def _on_up(self, _: Any) -> None:
        self._up = True
        self._inflight.clear()
        self._next = self.acked + 1   # what the broker did not acknowledge goes again
        self._state_sent = None
        self._client.publish(topics.topic(self.base, "status"), b"online", qos=1, retain=True)
        self._client.subscribe(topics.topic(self.base, "resend"), qos=1)

    def _on_down(self, _: Any) -> None:
        self._up = False

    def _on_acked(self, mid: int) -> None:
        index = self._inflight.pop(mid, None)
        if index is None:
            return
        self._done.add(index)
        while self.acked + 1 in self._done:
            self.acked += 1
            self._done.discard(self.acked)

    def _on_resend(self, payload: bytes) -> None:
        try:
            ask = topics.loads(payload)
            start = ask["from"]
        except (ValueError, KeyError) as exc:
            self.say(f"mqtt: ignored a malformed message on {self.base}/resend ({exc})")
            return
        if ask["game"] == self._game and isinstance(start, int) and 0 <= start < self._next:
            self._next = start

    def _pump(self) -> None:
        import paho.mqtt.client as mqtt
        if not self._up or self._client is None:
            return
        records = topics.topic(self.base, "records")
        while self._next < len(self._records) and len(self._inflight) < WINDOW:
            info = self._client.publish(records, self._records[self._next], qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return  # not connected after all: the next "up" starts again from `acked`
            self._inflight[info.mid] = self._next
            self._next += 1
        if self._state is not None and self._state is not self._state_sent:
            self._client.publish(topics.topic(self.base, "state"), self._state, qos=1, retain=True)
            self._state_sent = self._state

    def _finish(self) -> None:
        if self._client is None:
            return
        if self._up:
            try:
                self._client.publish(topics.topic(self.base, "status"), b"offline", qos=1,
                                     retain=True).wait_for_publish(1.0)
            except (RuntimeError, ValueError):
                pass  # the connection went meanwhile: the broker's last will says offline
        self._client.disconnect()
        self._client.loop_stop()
        unsent = len(self._records) - 1 - self.acked
        if unsent > 0:
            self.say(f"mqtt: {unsent} records were not acknowledged by the broker before the end "
                     "(they are in the journal; publish again with --resume)")
