"""The pin map appears in four places: firmware/config.py (what the firmware uses), the
README's pin tables (what makers wire), the Wokwi diagram (what the simulator wires) and the
SVG diagrams (tested in test_wiring_svg.py). They must agree pin for pin."""
from __future__ import annotations

import copy
import re
import tomllib
from types import ModuleType
from typing import Any

import pytest

import boardspec
import pinsources
from boardspec import HERE as HARDWARE


def _differences(expected: dict[str, int], found: dict[str, int]) -> list[str]:
    keys = sorted(set(expected) | set(found))
    return [f"{k}: config.py {expected.get(k)} vs document {found.get(k)}"
            for k in keys if expected.get(k) != found.get(k)]


@pytest.mark.parametrize("board", boardspec.BOARDS)
def test_readme_pin_table_matches_config(board: str, config: ModuleType, readme: str) -> None:
    found = pinsources.readme_pins(readme, board)
    assert _differences(dict(config.PINS[board]), found) == []


def test_readme_pico_physical_pins_match_the_gpio(readme: str) -> None:
    for line, row in pinsources.readme_rows(readme, "rp2"):
        gpio = int(row["gpio"].removeprefix("GP"))
        assert row["pico pin"] == str(boardspec.PICO_PHYSICAL[gpio]), f"README line {line}"


def test_wokwi_connections_match_config(config: ModuleType, diagram: dict[str, Any]) -> None:
    assert _differences(dict(config.PINS["rp2"]), pinsources.wokwi_pins(diagram)) == []


def test_wokwi_ring_has_the_configured_pixels(config: ModuleType, diagram: dict[str, Any]) -> None:
    assert pinsources.wokwi_ring_pixels(diagram) == config.PIXELS


def test_wokwi_power_is_wired_like_the_real_board(diagram: dict[str, Any]) -> None:
    net = pinsources.Netlist(diagram)

    def on_ground(endpoint: str) -> bool:
        return any(p.startswith("GND") for p in net.board_pins_on(endpoint))

    assert "VBUS" in net.board_pins_on("ring1:VCC")
    assert on_ground("ring1:GND")
    assert "3V3" in net.board_pins_on("sevseg1:VCC")  # 5 V would reach the Pico via the pull-ups
    assert on_ground("sevseg1:GND")
    assert on_ground("bz1:1")
    for key in boardspec.FUNCTION_KEYS:
        if key.startswith("btn_"):
            assert on_ground(f"{key}:2.l") or on_ground(f"{key}:2.r"), key


def test_wokwi_toml_runs_micropython_with_rfc2217_on_4000() -> None:
    with open(HARDWARE / "wokwi" / "wokwi.toml", "rb") as f:
        toml = tomllib.load(f)["wokwi"]
    assert toml["version"] == 1
    assert toml["rfc2217ServerPort"] == 4000
    # the plain Pico build: the simulated part is a wokwi-pi-pico (no radio)
    assert toml["firmware"].startswith("RPI_PICO-") and toml["firmware"].endswith(".uf2")


@pytest.mark.parametrize("board", boardspec.BOARDS)
def test_config_pins_are_electrically_sound(board: str, config: ModuleType) -> None:
    pins = config.PINS[board]
    assert sorted(pins) == sorted(boardspec.FUNCTION_KEYS)
    assert len(set(pins.values())) == len(pins), "two signals share a GPIO"
    problems = {key: boardspec.pin_problems(board, gpio, key) for key, gpio in pins.items()}
    assert {k: v for k, v in problems.items() if v} == {}


def test_readme_states_config_values_as_they_are(config: ModuleType, readme: str) -> None:
    # every "`NAME` = <number> ms" in the README quotes config.py
    quoted = re.findall(r"`([A-Z_]+_MS)` = (\d+) ms", readme)
    assert {name for name, _ in quoted} >= {"LONG_PRESS_MS", "LINK_TIMEOUT_MS"}
    assert [(name, int(v)) for name, v in quoted] == [(name, getattr(config, name)) for name, _ in quoted]


# --- the checks can fail: the same comparisons on mutated copies -------------------------

def test_a_moved_wire_in_the_diagram_is_caught(config: ModuleType, diagram: dict[str, Any]) -> None:
    mutated = copy.deepcopy(diagram)
    for conn in mutated["connections"]:
        conn[:2] = ["pico:GP17" if end == "pico:GP16" else end for end in conn[:2]]
    assert _differences(dict(config.PINS["rp2"]), pinsources.wokwi_pins(mutated)) == [
        "ring: config.py 16 vs document 17"]


def test_a_wrong_gpio_in_the_readme_is_caught(config: ModuleType, readme: str) -> None:
    mutated = readme.replace("| `btn_undo` | GP12 |", "| `btn_undo` | GP14 |")
    assert mutated != readme
    assert _differences(dict(config.PINS["rp2"]), pinsources.readme_pins(mutated, "rp2")) == [
        "btn_undo: config.py 12 vs document 14"]


def test_signal_through_a_series_resistor_is_followed(diagram: dict[str, Any]) -> None:
    mutated = copy.deepcopy(diagram)
    mutated["parts"].append({"type": "wokwi-resistor", "id": "r1", "attrs": {"value": "390"}})
    mutated["connections"] = [c for c in mutated["connections"] if c[:2] != ["pico:GP16", "ring1:DIN"]]
    mutated["connections"] += [["pico:GP16", "r1:1", "green", []], ["r1:2", "ring1:DIN", "green", []]]
    assert pinsources.wokwi_pins(mutated)["ring"] == 16


def test_a_button_shorted_to_two_gpios_is_an_error(diagram: dict[str, Any]) -> None:
    mutated = copy.deepcopy(diagram)
    mutated["connections"].append(["pico:GP20", "btn_pass:1.l", "blue", []])
    with pytest.raises(ValueError, match="btn_pass"):
        pinsources.wokwi_pins(mutated)


def test_a_malformed_readme_row_names_its_line(readme: str) -> None:
    mutated = readme.replace("| `tm1637_dio` | GP3 |", "| `tm1637_dio` | pin3 |")
    line = mutated.splitlines().index(next(l for l in mutated.splitlines() if "pin3" in l)) + 1
    with pytest.raises(ValueError, match=f"README line {line}"):
        pinsources.readme_pins(mutated, "rp2")


@pytest.mark.parametrize("board,gpio", [("rp2", 25), ("rp2", 23), ("esp32", 12), ("esp32", 34), ("esp32", 7)])
def test_forbidden_pins_are_reported(board: str, gpio: int) -> None:
    assert boardspec.pin_problems(board, gpio, "ring")
