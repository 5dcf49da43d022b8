"""Every golden scenario in ../shared/scenarios and every vector in tests/rules/vectors
(ours and the simtest engineer's sim_*.json) must pass checkpoint by checkpoint."""
from __future__ import annotations

import pathlib

import pytest

from tableref.scenario import run_file

from rules_paths import VECTORS, shared_scenarios, vector_files


def _explain(result) -> str:
    if result.error:
        return result.error
    return "; ".join(f"after {m.after}: {m.key} expected {m.expected!r} got {m.got!r}"
                     for m in result.mismatches)


@pytest.mark.parametrize("name", shared_scenarios() or ["<none>"])
def test_shared_scenario(shared_dir: pathlib.Path, name: str) -> None:
    path = shared_dir / "scenarios" / name
    if not path.is_file():
        pytest.skip(f"{path} not found")
    result = run_file(path)
    assert result.passed, _explain(result)


def test_shared_scenarios_exist(shared_dir: pathlib.Path) -> None:
    assert len(list((shared_dir / "scenarios").glob("*.json"))) >= 60


@pytest.mark.parametrize("name", vector_files())
def test_vector(name: str) -> None:
    result = run_file(VECTORS / name)
    assert result.passed, _explain(result)
