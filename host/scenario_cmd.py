"""`tableref scenario FILE...`: run golden scenarios, print what differs, count results."""
from __future__ import annotations

import argparse
import json
from typing import Any

from .errors import Exit
from .scenario import ScenarioResult, run_file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario JSON files")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print a line for every scenario that passes")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only failures (the default; kept for scripts)")


def _short(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def report_lines(result: ScenarioResult) -> list[str]:
    """Human-readable lines for one result (nothing but a 'PASS' line when it passed)."""
    if result.error is not None:
        return [f"FAIL {result.name}: {result.error}"]
    if result.passed:
        return [f"PASS {result.name}"]
    lines = [f"FAIL {result.name} ({result.path})"]
    for m in result.mismatches:
        lines.append(f"  after event {m.after}: {m.key}: expected {_short(m.expected)}, "
                     f"got {_short(m.got)}")
    return lines


def run(args: argparse.Namespace) -> int:
    passed = failed = 0
    for path in args.files:
        result = run_file(path)
        if result.passed:
            passed += 1
            if args.verbose and not args.quiet:
                print(report_lines(result)[0])
        else:
            failed += 1
            print("\n".join(report_lines(result)))
    print(f"{passed} passed, {failed} failed")
    return Exit.SOME_FAILED if failed else Exit.OK
