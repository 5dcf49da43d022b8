"""Fixtures for the hardware documents' tests: the scripts in hardware/ are plain modules next
to the README, so that folder goes on sys.path; firmware/config.py is loaded from its file."""
from __future__ import annotations

import json
import pathlib
import sys
from types import ModuleType
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
if str(HARDWARE) not in sys.path:
    sys.path.insert(0, str(HARDWARE))

import boardspec  # noqa: E402


@pytest.fixture(scope="session")
def config() -> ModuleType:
    return boardspec.load_config(ROOT / "firmware" / "config.py")


@pytest.fixture(scope="session")
def readme() -> str:
    return (HARDWARE / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def diagram() -> dict[str, Any]:
    return json.loads((HARDWARE / "wokwi" / "diagram.json").read_text(encoding="utf-8"))
