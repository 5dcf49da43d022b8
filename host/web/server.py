"""The web server behind `--web [HOST:]PORT` and `tableref scoreboard --web`: a Starlette app
run by uvicorn on its own thread, so nothing the referee does ever waits for a browser.

    GET  /          the page (table.html or scoreboard.html; `?overlay=1` for OBS)
    GET  /events    server-sent events: everything the hub holds first, then each change
    GET  /state     the same as one JSON object (scripts, tests)
    POST /control   {"command": "u"} with `Authorization: Bearer TOKEN`; only when the
                    caller gave a control function (the page is read-only otherwise)

The socket is bound here before uvicorn starts, so a busy port or a bad host is one clear
UserError in the caller's thread, and port 0 picks a free port (see `url`).
"""
from __future__ import annotations

import asyncio
import contextlib
import pathlib
import secrets
import socket
import threading
from typing import Any, AsyncIterator, Callable

from ..errors import UserError
from .hub import Hub

STATIC = pathlib.Path(__file__).resolve().parent / "static"
KEEPALIVE_S = 15.0
DEFAULT_HOST = "127.0.0.1"

# a control function takes one typed command line and returns an error text, or None when taken
Control = Callable[[str], "str | None"]


def parse_bind(text: str, flag: str = "--web") -> tuple[str, int]:
    """`[HOST:]PORT` -> (host, port); the host defaults to loopback."""
    host, _, port = str(text).rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise UserError(f"{flag} {text!r}: expected [HOST:]PORT, e.g. 8080 or 0.0.0.0:8080")
    return host, number


def build_app(hub: Hub, page: str, control: Control | None = None, token: str | None = None) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        yield
        hub.loop = None

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / page, headers={"Cache-Control": "no-cache"})

    async def state(request: Request) -> Response:
        return Response(hub.everything(), media_type="application/json")

    async def events(request: Request) -> Response:
        q = hub.connect()

        async def stream() -> AsyncIterator[str]:
            try:
                yield "retry: 1000\n\n"  # the browser reconnects a second after the server goes
                while True:
                    try:
                        message = await asyncio.wait_for(q.get(), KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if message is None:
                        return
                    yield f"data: {message}\n\n"
            finally:
                hub.disconnect(q)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def command(request: Request) -> Response:
        if control is None or token is None:
            return JSONResponse({"error": "this page is read-only"}, status_code=404)
        given = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        if not secrets.compare_digest(given.encode(), token.encode()):
            return JSONResponse({"error": "wrong or missing token"}, status_code=403)
        try:
            body = await request.json()
            line = body["command"]
            if not isinstance(line, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": 'expected {"command": "<a typed command>"}'}, status_code=400)
        problem = control(line)
        if problem:
            return JSONResponse({"error": problem}, status_code=400)
        return JSONResponse({"ok": True})

    return Starlette(routes=[
        Route("/", index), Route("/state", state), Route("/events", events),
        Route("/control", command, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)


class WebServer:
    """start() binds and serves on a thread; stop() ends the streams and the thread."""

    def __init__(self, hub: Hub, bind: str, page: str = "table.html", control: Control | None = None) -> None:
        self.hub = hub
        self.host, port = parse_bind(bind)
        self.token = secrets.token_urlsafe(12) if control is not None else None
        self._app = build_app(hub, page, control, self.token)
        try:
            family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
            self._sock = socket.socket(family, socket.SOCK_STREAM)
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._sock.bind((self.host, port))
        except (OSError, OverflowError) as exc:
            raise UserError(f"--web {bind}: cannot listen there ({getattr(exc, 'strerror', None) or exc})") from None
        self.port = self._sock.getsockname()[1]
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def start(self) -> "WebServer":
        import uvicorn
        config = uvicorn.Config(self._app, log_level="error", lifespan="on", timeout_graceful_shutdown=2,
                                access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name="web", daemon=True)
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            self._thread.join(0.01)
        return self

    def stop(self) -> None:
        if self._server is None or self._thread is None:
            self._sock.close()
            return
        loop = self.hub.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.hub.close)
        self._server.should_exit = True
        self._thread.join(5.0)
        self._sock.close()
