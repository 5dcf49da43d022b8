#!/usr/bin/env python3
"""Power budget of the board on one USB port, from firmware/config.py's BRIGHTNESS_CAP and
PIXEL_MA_FULL_WHITE.

    python hardware/power_budget.py            print the Markdown block
    python hardware/power_budget.py --write    put it into hardware/README.md (between markers)
    python hardware/power_budget.py --check    exit 1 if the README's block is out of date

The parts' own draws are not in config.py; they are the typical figures below, rounded up.
"""
from __future__ import annotations

import argparse
import math
import pathlib
import sys
from types import ModuleType
from typing import NamedTuple

import readme_blocks
from boardspec import README_PATH, load_config

USB_MA = 500          # what a USB 2.0 port promises after enumeration
RING_SIZES = (12, 16, 24)
# Typical draws, rounded up (mA). Not measured here: datasheet and common bench figures.
PIXEL_IDLE_MA = 1.0   # a WS2812's own logic, lit or dark
PICO_MA = 30.0        # Pico / Pico W running MicroPython, radio off
ESP32_MA = 80.0       # ESP32 DevKit with Wi-Fi off, including its USB-serial chip and regulator
DISPLAY_MA = 30.0     # TM1637 module showing "8888" at full brightness
BUZZER_MA = 30.0      # 5 V passive buzzer while it sounds (piezo driven from a pin: a few mA)
BOARD_MA = {"Pico": PICO_MA, "ESP32 DevKit": ESP32_MA}

BLOCK = "power-budget"
SCRIPT = "hardware/power_budget.py"
BEGIN, END = readme_blocks.markers(BLOCK, SCRIPT)


class Line(NamedTuple):
    pixels: int
    ring_ma: float     # every pixel full white at the cap
    idle_ma: float     # the pixels' own logic
    totals: dict[str, float]  # board name -> worst-case total
    max_cap: dict[str, int]   # board name -> highest cap that keeps the total within USB_MA


def ring_ma(pixels: int, cap: int, full_white_ma: float) -> float:
    """Current of `pixels` WS2812s all full white with every channel limited to `cap`/255."""
    return pixels * full_white_ma * cap / 255


def budget(config: ModuleType) -> list[Line]:
    cap = int(config.BRIGHTNESS_CAP)
    full = float(config.PIXEL_MA_FULL_WHITE)
    lines = []
    for pixels in RING_SIZES:
        ring = ring_ma(pixels, cap, full)
        idle = pixels * PIXEL_IDLE_MA
        rest = idle + DISPLAY_MA + BUZZER_MA
        totals = {name: ring + rest + board for name, board in BOARD_MA.items()}
        # Solve ring_ma(pixels, c) + rest + board <= USB_MA for the largest whole c (0..255).
        max_cap = {
            name: max(0, min(255, math.floor((USB_MA - rest - board) * 255 / (pixels * full))))
            for name, board in BOARD_MA.items()
        }
        lines.append(Line(pixels, ring, idle, totals, max_cap))
    return lines


def table_rows(config: ModuleType) -> list[list[str]]:
    """Header and rows of the budget table (the README shows exactly these cells)."""
    header = ["Ring", "Ring, all white at the cap", "Ring logic"]
    for name in BOARD_MA:
        header += [f"Total ({name})", f"Left of 500 mA ({name})", f"Highest cap ({name})"]
    rows = [header]
    for line in budget(config):
        row = [f"{line.pixels} pixels", f"{line.ring_ma:.1f} mA", f"{line.idle_ma:.1f} mA"]
        for name in BOARD_MA:
            total = line.totals[name]
            row += [f"{total:.1f} mA", f"{USB_MA - total:.1f} mA", str(line.max_cap[name])]
        rows.append(row)
    return rows


def markdown(config: ModuleType) -> str:
    cap = int(config.BRIGHTNESS_CAP)
    full = float(config.PIXEL_MA_FULL_WHITE)
    rows = table_rows(config)
    out = [
        BEGIN,
        f"Worst case: every pixel full white at `BRIGHTNESS_CAP` = {cap} "
        f"(ring = pixels × {full:g} mA × {cap}/255), plus each pixel's own logic "
        f"({PIXEL_IDLE_MA:g} mA), the board (Pico {PICO_MA:g} mA, ESP32 DevKit {ESP32_MA:g} mA), "
        f"the display ({DISPLAY_MA:g} mA) and the buzzer sounding ({BUZZER_MA:g} mA). "
        f"`PIXELS` in config.py is {config.PIXELS}.",
        "",
        "| " + " | ".join(rows[0]) + " |",
        "| " + " | ".join("---" for _ in rows[0]) + " |",
    ]
    out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    over = [(line.pixels, name) for line in budget(config)
            for name, total in line.totals.items() if total > USB_MA]
    out.append("")
    if over:
        out.append("Over 500 mA: " + ", ".join(f"{p} pixels on the {n}" for p, n in over)
                   + " — use a smaller ring, a lower cap (see the last columns) or a 1 A supply.")
    else:
        out.append("Every combination stays within 500 mA.")
    out.append(END)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="update hardware/README.md")
    group.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    args = parser.parse_args(argv)
    block = markdown(load_config())
    return readme_blocks.publish(README_PATH, BLOCK, SCRIPT, block, args.write, args.check, "power budget")


if __name__ == "__main__":
    sys.exit(main())
