"""A paho-mqtt client as the table and the scoreboard use it: connect in the background, retry
for ever, and say each connection problem once (one line), never raise into the caller."""
from __future__ import annotations

import ssl
import uuid
from typing import Any, Callable

from ..errors import UserError
from .topics import BrokerUrl

KEEPALIVE_S = 15


def make_client(url: BrokerUrl, role: str, say: Callable[[str], None],
                on_up: Callable[[Any], None], on_down: Callable[[], None],
                will: tuple[str, bytes] | None = None,
                on_message: Callable[[Any, Any, Any], None] | None = None) -> Any:
    """A started client; `on_up(client)`/`on_down()` run on paho's thread after each
    (dis)connection, `on_message` on each message. All are in place before the client
    connects: a local broker answers before this returns."""
    import paho.mqtt.client as mqtt
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"tableref-{role}-{uuid.uuid4().hex[:8]}",
                         clean_session=True)
    last_problem: list[str] = []  # the problem said last; said again only after a success

    def problem(text: str) -> None:
        if last_problem != [text]:
            last_problem[:] = [text]
            say(f"mqtt {url.where}: {text}; still trying (the game goes on)")

    def connected(c: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            problem(f"the broker refused the connection ({reason})")
            return
        if last_problem:
            say(f"mqtt {url.where}: connected")
        last_problem[:] = []
        on_up(c)

    def disconnected(c: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not last_problem and reason.value != 0:
            problem(f"connection lost ({reason})")
        on_down()

    client.on_connect = connected
    client.on_disconnect = disconnected
    client.on_connect_fail = lambda c, userdata: problem("cannot reach the broker")
    if on_message is not None:
        client.on_message = on_message
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    if url.user is not None:
        client.username_pw_set(url.user, url.password)
    if url.tls:
        try:
            client.tls_set(ca_certs=url.ca, cert_reqs=ssl.CERT_REQUIRED)
        except (OSError, ssl.SSLError) as exc:
            raise UserError(f"mqtts: cannot use the CA file {url.ca!r} ({exc})") from None
    client.reconnect_delay_set(1, 8)
    client.max_inflight_messages_set(200)
    client.max_queued_messages_set(0)
    client.connect_async(url.host, url.port, keepalive=KEEPALIVE_S)
    client.loop_start()
    return client
