"""The key reader: findings 2 and 7 of issue 25.

2: in --confirm mode a correction is typed as a line with its Enter (`u`, `d 4`, `w 2`,
`x red-5`); only a lone Enter confirms, and a key that takes nothing still acts at once.
7: the reader works where the POSIX terminal modules do not exist (Windows): checked in a
child Python in which importing termios or tty fails and select refuses anything but a socket."""
from __future__ import annotations

import os
import pathlib
import pty
import subprocess
import sys
import textwrap
import time

import pytest

from tableref.keyboard import KeyReader, LineEditor, parse_command


@pytest.mark.parametrize("keys, lines", [
    ("u\r", ["u"]),                      # the Enter after a key that acted is not a confirmation
    ("u\r\r", ["u", ""]),                # ... the next one is
    ("d 4\r", ["d 4"]), ("d\r", ["d"]), ("w 2\r", ["w 2"]), ("x red-5\r", ["x red-5"]),
    ("\r", [""]),                        # a lone Enter: confirm
    ("p", ["p"]), ("r", ["r"]),          # act at once, no Enter needed
    ("2 c blue\r", ["2 c blue"]), ("x red-6\x7f5\r", ["x red-5"]), ("x re\x1bu", ["u"]),
])
def test_keystrokes_become_the_lines_the_prompt_promises(keys: str, lines: list[str]) -> None:
    editor = LineEditor()
    assert editor.feed(keys) == lines
    for line in lines:
        if line:
            parse_command(line)  # each is a command the parser reads (no stray " 4")


def test_a_real_terminal_reads_keys_one_at_a_time() -> None:
    master, slave = pty.openpty()
    with os.fdopen(slave, "r") as stream:
        keys = KeyReader(stream)
        try:
            assert keys.interactive
            got: list[str] = []
            for ch in "u\rd 4\r\rx red-5\r":
                os.write(master, ch.encode())
                time.sleep(0.01)
                got += keys.read_lines(0.2)
            assert got == ["u", "d 4", "", "x red-5"]
        finally:
            keys.restore()
            os.close(master)


CHILD = textwrap.dedent("""
    import os, select, sys, types
    for name in ("termios", "tty", "fcntl"):
        sys.modules[name] = None  # as on Windows: importing them fails

    def sockets_only(*args, **kwargs):
        raise OSError(10038, "select works on sockets only")  # as on Windows: never on stdin
    select.select = sockets_only
    mode = sys.argv[1]
    if mode == "console":
        sys.platform = "win32"
        typed = list("u\\rd 4\\r\\r\\x00Hx red-5\\r")
        msvcrt = types.ModuleType("msvcrt")  # the console's key functions, fed from `typed`
        msvcrt.kbhit = lambda: bool(typed)
        msvcrt.getwch = lambda: typed.pop(0)
        sys.modules["msvcrt"] = msvcrt
    from tableref.keyboard import KeyReader
    keys = KeyReader()
    got = []
    while not keys.closed and len(got) < 4:
        got += keys.read_lines(0.2)
    print(repr((keys.interactive, got)))
""")


def run_child(mode: str, stdin: int | None, text: str | None = None) -> str:
    res = subprocess.run([sys.executable, "-c", CHILD, mode], stdin=stdin, input=text, capture_output=True,
                         text=True, timeout=60, cwd=pathlib.Path(__file__).parent)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_without_posix_terminal_modules_a_pipe_is_read_line_by_line() -> None:
    assert run_child("pipe", None, "u\nd 4\n\nx red-5\n") == repr((False, ["u", "d 4", "", "x red-5"]))


def test_without_posix_terminal_modules_the_windows_console_is_read_key_by_key() -> None:
    master, slave = pty.openpty()  # a terminal on stdin, as the console is on Windows
    try:
        assert run_child("console", slave) == repr((True, ["u", "d 4", "", "x red-5"]))
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("example", ["u", "x red-5", "d 4", "w 2"])
def test_the_confirm_prompt_names_corrections_that_read_as_typed(example: str) -> None:
    from tableref.terminal_view import CONFIRM_HELP, prompt_line
    assert example in CONFIRM_HELP and CONFIRM_HELP in prompt_line("", confirming=True)
    assert LineEditor().feed(example + "\r") == [example]
