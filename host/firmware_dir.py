"""Where the board's firmware folder is.

A source checkout has it at the top (firmware/, next to host/); an installed wheel carries a
copy as package data in tableref/firmware (see pyproject.toml). `tableref flash`, the
firmware-backed demo board and the unix-port tests all start from here.
"""
from __future__ import annotations

import pathlib
from importlib import resources


def firmware_dir() -> pathlib.Path:
    checkout = pathlib.Path(__file__).resolve().parents[1] / "firmware"
    if (checkout / "main.py").is_file():
        return checkout
    return pathlib.Path(str(resources.files("tableref") / "firmware"))
