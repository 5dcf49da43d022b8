"""The outputs a command line asks for beyond the screen and the board: `--web [HOST:]PORT`
(the live page) and `--publish mqtt://...` (the venue's broker). Shared by `tableref run` and
`tableref demo`: parse the flags, subscribe each output to the table's feed, close them all."""
from __future__ import annotations

import argparse
import queue
from typing import Any, Callable

from .errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--web", default=None, metavar="[HOST:]PORT",
                        help="serve a live page of the table (default host 127.0.0.1; 0.0.0.0 for the room)")
    parser.add_argument("--publish", default=None, metavar="mqtt://[USER:PASS@]BROKER[:PORT]/VENUE/TABLE",
                        help="publish the table's state and journal records to an MQTT broker (mqtts:// for TLS)")


def check_arguments(args: argparse.Namespace) -> None:
    """Refuse a malformed --web or --publish at once, before a camera or a game is set up."""
    if getattr(args, "web", None):
        from .web.server import parse_bind
        parse_bind(args.web)
    if getattr(args, "publish", None):
        from .mqtt.topics import parse_url
        parse_url(args.publish, "--publish", levels=2)


class Outputs:
    """The network outputs of one table; close() stops them (the journal is already on disk)."""

    def __init__(self) -> None:
        self._closers: list[Callable[[], None]] = []
        self.commands: queue.Queue[str] = queue.Queue()  # typed commands from the page's control

    def control(self, line: str) -> str | None:
        """A command from the page (token checked by the server): queued for the run loop."""
        from .keyboard import CommandError, parse_command
        try:
            if parse_command(line) is None:
                return "empty command"
        except CommandError as exc:
            return str(exc)
        self.commands.put(line)
        return None

    def close(self) -> None:
        while self._closers:
            self._closers.pop()()


def open_outputs(args: argparse.Namespace, ctrl: Any, say: Callable[[str], None], control: bool = False) -> Outputs:
    """Start what the flags ask for and subscribe it to `ctrl.feed`; UserError (nothing left
    running) for a bad address. `control`: the page may send commands, with a token printed here."""
    outs = Outputs()
    try:
        if getattr(args, "web", None):
            from .web.hub import Hub
            from .web.output import WebOutput
            from .web.server import WebServer
            hub = Hub()
            server = WebServer(hub, args.web, control=outs.control if control else None).start()
            outs._closers.append(server.stop)
            ctrl.feed.subscribe(WebOutput(hub))
            say(f"live page: {server.url}  (overlay for OBS: {server.url}?overlay=1)")
            if server.token:
                say(f"page control token: {server.token}")
        if getattr(args, "publish", None):
            from .mqtt.publisher import MqttOutput
            out = MqttOutput.start(args.publish, say)
            outs._closers.append(out.close)
            ctrl.feed.subscribe(out)
    except (UserError, KeyboardInterrupt):
        outs.close()
        raise
    return outs
