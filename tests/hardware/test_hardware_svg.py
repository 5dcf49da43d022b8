"""The committed wiring diagrams are exactly what make_wiring.py draws from config.py."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from types import ModuleType, SimpleNamespace

import pytest

import boardspec
import make_wiring


@pytest.mark.parametrize("board", boardspec.BOARDS)
def test_committed_svg_is_up_to_date(board: str, config: ModuleType) -> None:
    path = make_wiring.OUTPUTS[board]
    assert path.exists(), f"{path} missing: run python hardware/make_wiring.py"
    assert path.read_text(encoding="utf-8") == make_wiring.render(board, config), \
        f"{path.name} is stale: run python hardware/make_wiring.py"


@pytest.mark.parametrize("board", boardspec.BOARDS)
def test_svg_is_well_formed_and_names_every_pin(board: str, config: ModuleType) -> None:
    svg = make_wiring.render(board, config)
    root = ET.fromstring(svg)
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for gpio in config.PINS[board].values():
        assert boardspec.pin_label(board, gpio) in texts
    assert f"{config.PIXELS} pixels" in texts


def _config_with(config: ModuleType, board: str, key: str, gpio: int) -> SimpleNamespace:
    pins = copy.deepcopy(config.PINS)
    pins[board][key] = gpio
    return SimpleNamespace(PINS=pins, PIXELS=config.PIXELS)


def test_a_changed_pin_changes_the_drawing(config: ModuleType) -> None:
    before = make_wiring.render("rp2", config)
    after = make_wiring.render("rp2", _config_with(config, "rp2", "buzzer", 14))
    assert before != after and "GP14  (pin 19)" in after


def test_the_ring_is_drawn_with_the_configured_pixels(config: ModuleType) -> None:
    for pixels in (12, 16, 24):
        cfg = SimpleNamespace(PINS=config.PINS, PIXELS=pixels)
        root = ET.fromstring(make_wiring.render("rp2", cfg))
        dots = [c for c in root.iter("{http://www.w3.org/2000/svg}circle") if c.get("fill") == "#f7dc6f"]
        assert len(dots) == pixels
