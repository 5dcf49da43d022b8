"""What a terminal may be sent, by the common conventions: `NO_COLOR` (set and not empty) turns
colours off; `TERM=dumb` turns off colours and cursor moves (the screen is appended line by
line, as in a pipe). Pure apart from reading the stream's tty flag and the environment."""
from __future__ import annotations

import os
from typing import IO, Mapping


def cursor_ok(stream: IO[str], env: Mapping[str, str] | None = None) -> bool:
    """Whether the screen may be redrawn in place (clear, home)."""
    env = os.environ if env is None else env
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        tty = False
    return tty and env.get("TERM", "") != "dumb"


def colour_ok(env: Mapping[str, str] | None = None) -> bool:
    """Whether colours may be used on a terminal that takes them."""
    env = os.environ if env is None else env
    return not env.get("NO_COLOR") and env.get("TERM", "") != "dumb"
