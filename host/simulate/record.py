"""Writing a simulated game as a game record (JSON Lines, ENGINE_API.md / DESIGN.md 3)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from .base import SimGame


def record_lines(sim: SimGame) -> list[str]:
    """The record as text lines: the header, then one observable event per line."""
    return [json.dumps(sim.header, separators=(",", ":"))] + \
        [json.dumps(e, separators=(",", ":")) for e in sim.events]


def write_record(sim: SimGame, path: str | os.PathLike[str]) -> Path:
    """Write the header and the observable events (never the truth) to `path`."""
    p = Path(path)
    p.write_text("\n".join(record_lines(sim)) + "\n", encoding="utf-8")
    return p
