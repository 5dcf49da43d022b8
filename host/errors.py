"""The one exception type that the command line turns into a single clear error line, and the
exit statuses every command returns (STYLE.md E8)."""
from __future__ import annotations

from enum import IntEnum


class UserError(Exception):
    """Bad input from the user or the outside world (file, card code, port, image).

    The message must name what was wrong and where (file and line, port, image) so that
    the CLI can print it as one line and exit non-zero without a traceback.
    """


class Exit(IntEnum):
    """What a command's exit status means; scripts can tell a bad flag from a failed input."""
    OK = 0
    SOME_FAILED = 1   # identify / enroll / scenario ran, but some inputs failed
    USAGE = 2         # UserError: a bad flag, file, port or option
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)
