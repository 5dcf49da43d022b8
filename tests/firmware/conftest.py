"""Firmware test helpers: firmware/lib on sys.path (tableboard is not pip-installed), and the
MicroPython tools from the venv. Those tools exist as wheels for x86_64 Linux only: there the
tests that need them fail if they are missing; elsewhere they skip with the reason."""
from __future__ import annotations

import os
import pathlib
import platform
import shutil
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
LIB = FIRMWARE / "lib"
HERE = pathlib.Path(__file__).resolve().parent
for p in (str(LIB), str(FIRMWARE)):
    if p not in sys.path:
        sys.path.insert(0, p)

TOOLS_EXPECTED = sys.platform.startswith("linux") and platform.machine() == "x86_64"


def venv_tool(name: str) -> str:
    """Path of a console script next to this interpreter, else on PATH; skips (or fails on
    x86_64 Linux, where the wheels exist) when it is missing."""
    cand = pathlib.Path(sys.executable).parent / name
    found = str(cand) if cand.exists() else shutil.which(name)
    if found:
        return found
    if TOOLS_EXPECTED:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    pytest.skip(f"{name} has no wheel for {sys.platform}/{platform.machine()}")


@pytest.fixture(scope="session")
def micropython() -> str:
    return venv_tool("micropython")


@pytest.fixture(scope="session")
def mp_env() -> dict[str, str]:
    return dict(os.environ, MICROPYPATH=f"{LIB}:{FIRMWARE}")
