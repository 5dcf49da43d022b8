"""First use (issue 25, finding 5): the built-in profile is built on the first run (~20 s), and
nothing that long may pass without a word. The demo in a fresh home shows the build's progress
between its intro line and its first game screen, in steps of at most 5% of the work; the
wall-clock gaps are printed for the record, not asserted (a loaded machine stretches them)."""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import time

from test_demo_and_cli import TABLEREF
from tableref.vision.profiles import BuildProgress, build_builtin

PROGRESS = re.compile(r"building the card reader's profile: (\d+)%")


def test_the_build_reports_its_progress_up_to_all_done() -> None:
    shares: list[float] = []
    build_builtin(per_code=1, progress=shares.append)
    assert shares[-1] == 1.0 and all(b > a for a, b in zip(shares, shares[1:]))


def test_progress_lines_come_every_five_percent_in_a_log() -> None:
    class Log(list):
        def write(self, text: str) -> None:
            self.append(text)

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return False

    log = Log()
    progress = BuildProgress(log)  # type: ignore[arg-type]
    for i in range(1, 1001):
        progress(i / 1000)
    said = [int(m.group(1)) for m in map(PROGRESS.search, log) if m]
    assert said == list(range(5, 101, 5)) and "first use only" in log[0]


def test_first_demo_in_a_fresh_home_shows_progress_until_the_first_screen(tmp_path: pathlib.Path) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONUNBUFFERED="1")
    env.pop("TABLEREF_CACHE_DIR", None)
    proc = subprocess.Popen([TABLEREF, "demo", "--board", "sim"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True, env=env)
    assert proc.stdout is not None
    lines: list[tuple[float, str]] = []
    try:
        for line in proc.stdout:
            lines.append((time.monotonic(), line.rstrip("\n")))
            if " card " in line and "total" in line:  # the first game screen: a card seen, the total after it
                break
    finally:
        proc.kill()
        proc.wait()
    texts = [t for _, t in lines]
    intro = next(i for i, t in enumerate(texts) if "frames of pile video" in t)
    between = texts[intro + 1:-1]
    done = [int(m.group(1)) for m in map(PROGRESS.search, between) if m]
    assert done and done[-1] == 100, texts
    assert max(b - a for a, b in zip([0, *done], done)) <= 5, done  # never more than 5% of the build unsaid
    assert " card " in texts[-1] and not any("Warning" in t or "warn" in t for t in texts), texts
    gaps = [b[0] - a[0] for a, b in zip(lines[intro:], lines[intro + 1:])]
    print(f"intro to first screen: {lines[-1][0] - lines[intro][0]:.1f} s, longest silence {max(gaps):.2f} s")
