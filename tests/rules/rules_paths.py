"""Where the scenario files are, for parametrising at collection time (the `shared_dir`
fixture still decides at run time whether ../shared is there)."""
from __future__ import annotations

import os
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
VECTORS = HERE / "vectors"
ROOT = HERE.parent.parent


def shared_scenarios() -> list[str]:
    base = pathlib.Path(os.environ.get("TABLEREF_SHARED", ROOT.parent / "shared"))
    folder = base / "scenarios"
    return sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []


def vector_files() -> list[str]:
    return sorted(p.name for p in VECTORS.glob("*.json"))
