"""Wall time of `tableref demo` for both games (synthetic pile video -> PileWatcher + Recogniser
-> journaled referee -> board), printed with frames per second; the demo's goal is < 60 s.

    .venv/bin/python bench/bench_app.py [--board auto|firmware|sim]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import time

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--board", default="auto", choices=("auto", "firmware", "sim"))
    args = parser.parse_args()
    for game in ("ono99_2022", "uno"):
        start = time.monotonic()
        res = subprocess.run([TABLEREF, "demo", "--game", game, "--json", "--board", args.board],
                             capture_output=True, text=True, check=False)
        wall = time.monotonic() - start
        if res.returncode != 0:
            print(f"{game}: demo failed ({res.returncode}): {res.stderr.strip()}")
            return 1
        summary = json.loads(res.stdout.splitlines()[-1])["summary"]
        print(f"demo {game:<11} board={args.board:<8} {wall:5.1f} s wall  {summary['frames']} frames "
              f"({summary['frames'] / wall:.0f} frames/s)  {summary['landed']} cards seen  "
              f"{summary['presses']} presses  {summary['typed']} typed  ({wall / 60:.0%} of the 60 s goal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
