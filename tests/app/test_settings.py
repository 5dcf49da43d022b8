"""Settings layering: flags > TABLEREF_* environment > TOML file > defaults."""
from __future__ import annotations

import pathlib

import pytest

from tableref.errors import UserError
from tableref.settings import parse_option, resolve


def write(path: pathlib.Path, text: str) -> pathlib.Path:
    path.write_text(text)
    return path


def test_each_layer_wins_over_the_ones_below(tmp_path: pathlib.Path) -> None:
    cfg = write(tmp_path / "c.toml", 'game = "uno"\nplayers = 3\nport = "sim://"\nsource = "clip.mp4"\n'
                                     'deck = "uno"\n[options]\ntarget_score = 200\nstacking = true\n')
    env = {"TABLEREF_PLAYERS": "5", "TABLEREF_PORT": "/dev/ttyACM1", "TABLEREF_OPTIONS": "target_score=300"}
    s = resolve({"players": 4, "options": {"stacking": False}}, env=env, config_path=cfg)
    assert (s.game, s.players, s.port, s.source, s.deck) == ("uno", 4, "/dev/ttyACM1", "clip.mp4", "uno")
    assert s.options == {"target_score": 300, "stacking": False}
    assert s.origin == {"game": "file", "players": "flag", "port": "env", "source": "file", "deck": "file",
                        "names": "default", "journal": "default", "region": "default"}


def test_defaults_and_env_names(tmp_path: pathlib.Path) -> None:
    s = resolve({"game": "ono99_2022", "players": 3}, env={"TABLEREF_NAMES": "Ana, Bo, Cy"},
                config_path=write(tmp_path / "empty.toml", ""))
    assert s.names == ["Ana", "Bo", "Cy"] and s.source == "0" and s.port == "auto" and s.journal.name == "current.jsonl"


def test_the_config_file_can_come_from_the_environment(tmp_path: pathlib.Path) -> None:
    cfg = write(tmp_path / "x.toml", 'game = "ena"\nplayers = 4\n')
    s = resolve({}, env={"TABLEREF_CONFIG": str(cfg)})
    assert (s.game, s.players) == ("ena", 4)


@pytest.mark.parametrize("text, key, value", [("bust_on=exceed", "bust_on", "exceed"), ("target_score=250", "target_score", 250),
                                              ("stacking=true", "stacking", True), ("minus10_floor=null", "minus10_floor", None)])
def test_parse_option_reads_toml_values(text: str, key: str, value: object) -> None:
    assert parse_option(text) == (key, value)


@pytest.mark.parametrize("flags, toml, message", [
    ({"players": 3}, "", "no game given"),
    ({"game": "uno"}, "", "no number of players"),
    ({"game": "uno", "players": "many"}, "", "players must be a number"),
    ({"game": "uno", "players": 2, "names": ["a", "b", "c"]}, "", "3 names given for 2 players"),
    ({"game": "uno", "players": 3, "names": ["a", "b"]}, "", "2 names given for 3 players"),
    ({"game": "uno", "players": 2}, "colour = 1\n", "unknown setting(s): colour"),
    ({"game": "uno", "players": 2}, "game = [\n", "cannot read config"),
])
def test_bad_settings_are_one_clear_error(tmp_path: pathlib.Path, flags: dict, toml: str, message: str) -> None:
    with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")):
        resolve(flags, env={}, config_path=write(tmp_path / "c.toml", toml))


def test_a_named_config_file_must_exist(tmp_path: pathlib.Path) -> None:
    with pytest.raises(UserError, match="config file not found"):
        resolve({"game": "uno", "players": 2}, env={}, config_path=tmp_path / "missing.toml")
    with pytest.raises(UserError, match="expected key=value"):
        parse_option("stacking")
