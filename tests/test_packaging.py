"""The distribution must contain every package in the tree: with package-dir mapping there is
no automatic discovery, so a package missing from pyproject.toml vanishes from a normal
install (editable installs would hide the mistake)."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import tomllib
import zipfile

from conftest import ROOT

from tableref.flash_cmd import firmware_files

# the board's firmware, shipped as data (never imported on the host, see pyproject.toml)
FIRMWARE_DATA = "tableref.firmware"


def _declared() -> tuple[list[str], dict[str, str]]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        tool = tomllib.load(f)["tool"]["setuptools"]
    return tool["packages"], tool["package-dir"]


def test_declared_packages_match_the_tree() -> None:
    packages, dirs = _declared()
    assert FIRMWARE_DATA in packages and dirs[FIRMWARE_DATA] == "firmware"
    packages = [p for p in packages if p != FIRMWARE_DATA]
    found = set()
    for top, folder in dirs.items():  # the mapped code folders are disjoint
        if top == FIRMWARE_DATA:
            continue
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            found.add(".".join((top, *rel)))
    assert sorted(found) == sorted(packages)


def test_a_wheel_carries_the_firmware_and_finds_it(tmp_path: pathlib.Path) -> None:
    # a wheel install has no checkout around it: `tableref flash` and the demo's firmware
    # board must find the copy the wheel carries, file for file the checkout's
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("tableref-*.whl"))
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    where = subprocess.run([sys.executable, "-c", "from tableref.firmware_dir import firmware_dir; print(firmware_dir())"],
                           check=True, capture_output=True, text=True, cwd=tmp_path,
                           env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}).stdout.strip()
    shipped = pathlib.Path(where)
    assert shipped == site / "tableref" / "firmware"
    assert firmware_files(shipped) == firmware_files(ROOT / "firmware")
