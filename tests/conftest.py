"""Shared fixtures. `../shared` (scenarios, photos) exists on the team's machines and in CI,
not in a user's clone: tests that need it skip with a reason when it is absent."""
from __future__ import annotations

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# TABLEREF_SHARED lets a checkout elsewhere (a git worktree) point at the shared folder.
SHARED = pathlib.Path(os.environ.get("TABLEREF_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> pathlib.Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present (scenarios and photos live there)")
    return SHARED
