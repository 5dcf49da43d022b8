"""Settings for `tableref run`: command-line flags first, then TABLEREF_* environment
variables, then a TOML file, then defaults.

The TOML file is `config.toml` in the user config directory (platformdirs), or the file
named by `--config` / TABLEREF_CONFIG. Example::

    game = "ono99_2022"
    players = 4
    names = ["Ana", "Bo", "Cy", "Dan"]
    source = "0"
    port = "auto"
    deck = "auto"
    [options]
    bust_on = "exceed"
"""
from __future__ import annotations

import os
import pathlib
import tomllib
from dataclasses import dataclass, field
from typing import Any, Mapping

from .errors import UserError
from .rules import GAME_IDS, canonical_game

KEYS = ("game", "players", "names", "source", "port", "journal", "deck", "region")
DEFAULTS: dict[str, Any] = {"game": None, "players": None, "names": [], "source": "0", "port": "auto",
                            "journal": None, "deck": "auto", "region": None}


@dataclass
class RunSettings:
    game: str
    players: int
    names: list[str]
    source: str
    port: str
    journal: pathlib.Path
    deck: str
    region: str | None
    options: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # key -> "flag" | "env" | "file" | "default"


def default_config_path() -> pathlib.Path:
    import platformdirs
    return pathlib.Path(platformdirs.user_config_dir("tableref")) / "config.toml"


def default_journal_dir() -> pathlib.Path:
    import platformdirs
    return pathlib.Path(platformdirs.user_data_dir("tableref")) / "games"


def read_config_file(path: pathlib.Path, required: bool) -> dict[str, Any]:
    if not path.exists():
        if required:
            raise UserError(f"{path}: config file not found")
        return {}
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"{path}: cannot read config: {exc}") from None
    unknown = set(data) - set(KEYS) - {"options"}
    if unknown:
        raise UserError(f"{path}: unknown setting(s): {', '.join(sorted(unknown))}")
    return data


def parse_option(text: str) -> tuple[str, Any]:
    """`k=v` with v read as TOML when it parses (numbers, booleans, quoted strings), null/none as
    None, else text."""
    if "=" not in text:
        raise UserError(f"--option {text!r}: expected key=value")
    key, raw = text.split("=", 1)
    if raw.strip().lower() in ("null", "none"):
        return key.strip(), None  # TOML has no null; some options take it (minus10_floor=null)
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key.strip(), value


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in KEYS:
        raw = env.get(f"TABLEREF_{key.upper()}")
        if raw:
            out[key] = [s.strip() for s in raw.split(",")] if key == "names" else raw
    if env.get("TABLEREF_OPTIONS"):
        out["options"] = dict(parse_option(o) for o in env["TABLEREF_OPTIONS"].split(";") if o.strip())
    return out


def resolve(flags: Mapping[str, Any], env: Mapping[str, str] | None = None,
            config_path: pathlib.Path | None = None) -> RunSettings:
    """Merge the layers. `flags` holds only what the user typed (None/absent = not given)."""
    env = os.environ if env is None else env
    explicit = config_path or (pathlib.Path(env["TABLEREF_CONFIG"]) if env.get("TABLEREF_CONFIG") else None)
    layers = [("flag", {k: v for k, v in flags.items() if v not in (None, [], {})}),
              ("env", _from_env(env)),
              ("file", read_config_file(explicit or default_config_path(), required=explicit is not None)),
              ("default", DEFAULTS)]
    merged: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for key in KEYS:
        for name, layer in layers:
            if key in layer and layer[key] not in (None, []):
                merged[key], origin[key] = layer[key], name
                break
        else:
            merged[key], origin[key] = DEFAULTS[key], "default"
    options: dict[str, Any] = {}
    for _, layer in reversed(layers):  # lower layers first, so flags win per option
        options.update(layer.get("options") or {})
    if not merged["game"]:
        raise UserError(f"no game given: use --game ({', '.join(GAME_IDS)})")
    if merged["players"] is None:
        raise UserError("no number of players given: use --players N")
    try:
        players = int(merged["players"])
    except (TypeError, ValueError):
        raise UserError(f"players must be a number, got {merged['players']!r}") from None
    names = list(merged["names"] or [])
    if names and len(names) != players:  # a missing name would silently shift every seat after it
        raise UserError(f"{len(names)} names given for {players} players: give one name per seat, seat 0 first")
    journal = pathlib.Path(merged["journal"]) if merged["journal"] else default_journal_dir() / "current.jsonl"
    return RunSettings(game=canonical_game(merged["game"]), players=players, names=names, source=str(merged["source"]),
                       port=str(merged["port"]), journal=journal, deck=str(merged["deck"]),
                       region=merged["region"], options=options, origin=origin)
