"""Golden scenarios (spec/rules.md section 1): load, run through the referee, compare.

Pure logic apart from `load_scenario`; the command in scenario_cmd.py does the printing.
"""
from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass, field
from typing import Any

from .errors import UserError
from .referee import Referee

SCHEMA = "referee-scenario/1"
REQUIRED = ("game", "players", "events", "expect")


@dataclass(frozen=True)
class Mismatch:
    after: int
    key: str
    expected: Any
    got: Any


@dataclass
class ScenarioResult:
    path: str
    name: str
    mismatches: list[Mismatch] = field(default_factory=list)
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and not self.mismatches


def load_scenario(path: str | pathlib.Path) -> dict[str, Any]:
    """Read and shape-check one scenario file; UserError names the file."""
    p = pathlib.Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{p}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{p}: cannot read ({exc.__class__.__name__})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{p}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise UserError(f"{p}: a scenario is a JSON object")
    if data.get("schema", SCHEMA) != SCHEMA:
        raise UserError(f"{p}: unknown schema {data.get('schema')!r} (expected {SCHEMA})")
    for key in REQUIRED:
        if key not in data:
            raise UserError(f"{p}: missing '{key}'")
    if not isinstance(data["events"], list) or not isinstance(data["expect"], list):
        raise UserError(f"{p}: 'events' and 'expect' must be lists")
    for i, check in enumerate(data["expect"]):
        if (not isinstance(check, dict) or not isinstance(check.get("after"), int)
                or not 0 <= check["after"] < len(data["events"])):
            raise UserError(f"{p}: expect[{i}] needs 'after' = an index into events")
    return data


def _canon(key: str, value: Any) -> str:
    """Comparable form: awaiting is a set, eliminated is sorted; JSON keeps 1 != true."""
    if key == "awaiting" and isinstance(value, list):
        value = sorted(json.dumps(v, sort_keys=True) for v in value)
    elif key == "eliminated" and isinstance(value, list):
        value = sorted(value, key=str)
    return json.dumps(value, sort_keys=True)


def compare(expected: dict[str, Any], state: dict[str, Any], after: int) -> list[Mismatch]:
    out = []
    for key, want in expected.items():
        if key == "after":
            continue
        got = state.get(key, "<no such field>")
        if _canon(key, want) != _canon(key, got):
            out.append(Mismatch(after, key, want, got))
    return out


def run_scenario(data: dict[str, Any], path: str = "<scenario>") -> ScenarioResult:
    """Run the events and compare every checkpoint. Config or event errors become `error`."""
    name = str(data.get("name", pathlib.Path(path).stem))
    result = ScenarioResult(path, name)
    checks: dict[int, list[dict[str, Any]]] = {}
    for check in data["expect"]:
        checks.setdefault(check["after"], []).append(check)
    try:
        ref = Referee(data["game"], data["players"], data.get("options") or {},
                      data.get("setup") or {})
    except UserError as exc:
        result.error = f"{path}: {exc}"
        return result
    for index, event in enumerate(data["events"]):
        try:
            ref.push(event)
        except UserError as exc:
            result.error = f"{path}: event {index}: {exc}"
            return result
        if index in checks:
            state = ref.state
            for check in checks[index]:
                result.mismatches.extend(compare(check, state, index))
    return result


def run_file(path: str | pathlib.Path) -> ScenarioResult:
    try:
        data = load_scenario(path)
    except UserError as exc:
        return ScenarioResult(str(path), pathlib.Path(path).stem, error=str(exc))
    return run_scenario(data, str(path))
