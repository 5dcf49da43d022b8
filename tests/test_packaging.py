"""The distribution must contain every package in the tree: with package-dir mapping there is
no automatic discovery, so a package missing from pyproject.toml vanishes from a normal
install (editable installs would hide the mistake)."""
from __future__ import annotations

import tomllib

from conftest import ROOT


def _declared() -> tuple[list[str], dict[str, str]]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        tool = tomllib.load(f)["tool"]["setuptools"]
    return tool["packages"], tool["package-dir"]


def test_declared_packages_match_the_tree() -> None:
    packages, dirs = _declared()
    found = set()
    for top, folder in dirs.items():  # the mapped folders are disjoint
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            found.add(".".join((top, *rel)))
    assert sorted(found) == sorted(packages)
