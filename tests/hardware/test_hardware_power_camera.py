"""The README's power and camera figures equal what the scripts compute from config.py."""
from __future__ import annotations

import math
import re
from types import ModuleType, SimpleNamespace

import camera_height
import power_budget
import readme_blocks

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _numbers(rows: list[list[str]]) -> list[float]:
    return [float(n) for row in rows for cell in row for n in _NUMBER.findall(cell)]


def test_readme_power_numbers_equal_the_computed_ones(config: ModuleType, readme: str) -> None:
    block = readme_blocks.extract(readme, power_budget.BLOCK, power_budget.SCRIPT)
    assert _numbers(readme_blocks.table_cells(block)) == _numbers(power_budget.table_rows(config))
    assert block == power_budget.markdown(config), "run python hardware/power_budget.py --write"


def test_ring_current_follows_the_cap(config: ModuleType) -> None:
    lines = {line.pixels: line for line in power_budget.budget(config)}
    for pixels, line in lines.items():
        # every channel at cap/255 of its full-white share
        assert math.isclose(line.ring_ma, pixels * config.PIXEL_MA_FULL_WHITE * config.BRIGHTNESS_CAP / 255)
    for line in lines.values():
        for board, cap in line.max_cap.items():
            at = power_budget.ring_ma(line.pixels, cap, config.PIXEL_MA_FULL_WHITE)
            above = power_budget.ring_ma(line.pixels, cap + 1, config.PIXEL_MA_FULL_WHITE)
            rest = line.totals[board] - line.ring_ma
            assert at + rest <= power_budget.USB_MA < above + rest


def test_a_changed_cap_makes_the_readme_stale(config: ModuleType, readme: str) -> None:
    brighter = SimpleNamespace(**{k: getattr(config, k) for k in ("PIXELS", "PIXEL_MA_FULL_WHITE")},
                               BRIGHTNESS_CAP=config.BRIGHTNESS_CAP + 16)
    block = readme_blocks.extract(readme, power_budget.BLOCK, power_budget.SCRIPT)
    assert _numbers(readme_blocks.table_cells(block)) != _numbers(power_budget.table_rows(brighter))


def test_readme_camera_table_is_current(readme: str) -> None:
    block = readme_blocks.extract(readme, camera_height.BLOCK, camera_height.SCRIPT)
    assert block == camera_height.markdown(), "run python hardware/camera_height.py --write"


def test_camera_height_gives_the_card_its_pixels() -> None:
    for _, width, fov in camera_height.CAMERAS:
        d = camera_height.max_distance_mm(width, fov)
        view_mm = 2 * d * math.tan(math.radians(fov) / 2)
        card_px = camera_height.CARD_SHORT_MM * width / view_mm
        assert math.isclose(card_px, camera_height.MIN_CARD_PX)
        assert camera_height.pile_px(width, fov, d) >= 200


def test_diagonal_to_horizontal_field_of_view() -> None:
    # a 16:9 image: tan(h/2) = tan(d/2) * 16 / sqrt(16^2 + 9^2)
    h = camera_height.horizontal_fov(78.0)
    assert math.isclose(math.tan(math.radians(h) / 2),
                        math.tan(math.radians(39.0)) * 16 / math.hypot(16, 9))
    assert 0 < h < 78.0
