#!/usr/bin/env python3
"""Draw the wiring diagrams from firmware/config.py.

    python hardware/make_wiring.py          write hardware/wiring-pico.svg and wiring-esp32.svg
    python hardware/make_wiring.py --check  exit 1 if the committed SVGs differ from config.py

The drawing is a schematic with net names: every wire labelled 5V, 3V3 or GND joins the board
pin of that name. Output is deterministic (no dates), so the committed files can be compared.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
from types import ModuleType
from xml.sax.saxutils import escape

from boardspec import BOARD_NAMES, FUNCTIONS, HERE, PICO_GND, PICO_POWER, load_config, physical_pin, pin_label

OUTPUTS = {"rp2": HERE / "wiring-pico.svg", "esp32": HERE / "wiring-esp32.svg"}
WIDTH, HEIGHT = 900, 800
MCU_X, MCU_RIGHT = 30, 270          # board block; its pins sit on the right edge
WIRE = 'stroke="#222" stroke-width="2" fill="none"'

# y of each signal's wire (bands: ring, display, buzzer, buttons)
SIGNAL_Y = {
    "ring": 110, "tm1637_clk": 250, "tm1637_dio": 280, "buzzer": 440,
    "btn_draw": 550, "btn_pass": 590, "btn_undo": 630, "btn_colour": 670,
}
POWER_Y = {"5V": 715, "3V3": 740, "GND": 765}


class Svg:
    def __init__(self) -> None:
        self.items: list[str] = []

    def line(self, *points: tuple[float, float], attrs: str = WIRE) -> None:
        pts = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.items.append(f'<polyline points="{pts}" {attrs}/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "#fff", rx: float = 0) -> None:
        self.items.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" '
                          f'fill="{fill}" stroke="#222" stroke-width="2"/>')

    def circle(self, x: float, y: float, r: float, fill: str = "#fff", stroke: str = "#222") -> None:
        self.items.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>')

    def text(self, x: float, y: float, s: str, size: int = 13, anchor: str = "start",
             weight: str = "normal", fill: str = "#222") -> None:
        self.items.append(f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
                          f'font-weight="{weight}" fill="{fill}">{escape(s)}</text>')

    def polygon(self, *points: tuple[float, float], fill: str = "#222") -> None:
        pts = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.items.append(f'<polygon points="{pts}" fill="{fill}" stroke="#222" stroke-width="1"/>')

    def render(self, title: str) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
                f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">\n'
                f'<title>{escape(title)}</title>\n'
                f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fcfcf7"/>\n')
        return head + "\n".join(self.items) + "\n</svg>\n"


def resistor(svg: Svg, x0: float, y: float, label: str) -> float:
    """A resistor from x0 (IEC box, 60 px long); returns its right end."""
    svg.rect(x0, y - 8, 60, 16)
    svg.text(x0 + 30, y - 14, label, size=12, anchor="middle")
    return x0 + 60


def net_flag(svg: Svg, x: float, y: float, name: str) -> None:
    """End a wire at (x, y) on the named net."""
    colour = {"5V": "#c0392b", "3V3": "#d35400", "GND": "#222"}[name]
    svg.line((x, y), (x + 18, y))
    svg.rect(x + 18, y - 10, 42, 20, fill="#fff", rx=4)
    svg.text(x + 39, y + 5, name, size=12, anchor="middle", weight="bold", fill=colour)


def draw_board(svg: Svg, board: str, pins: dict[str, int]) -> None:
    top, bottom = 60, HEIGHT - 20
    svg.rect(MCU_X, top, MCU_RIGHT - MCU_X, bottom - top, fill="#e8f1e4", rx=8)
    name = "Raspberry Pi Pico" if board == "rp2" else "ESP32 DevKit"
    svg.text((MCU_X + MCU_RIGHT) / 2, top + 24, name, size=16, anchor="middle", weight="bold")
    sub = "(or Pico W)" if board == "rp2" else "(WROOM-32)"
    svg.text((MCU_X + MCU_RIGHT) / 2, top + 42, sub, size=12, anchor="middle")
    for f in FUNCTIONS:
        y = SIGNAL_Y[f.key]
        gpio = pins[f.key]
        svg.circle(MCU_RIGHT, y, 4, fill="#222")
        label = f"{pin_label(board, gpio)}  ({physical_pin(board, gpio)})" if board == "rp2" \
            else pin_label(board, gpio)
        svg.text(MCU_RIGHT - 10, y + 4, label, anchor="end", weight="bold")
    if board == "rp2":
        power = {"5V": f"VBUS  (pin {PICO_POWER['VBUS']})",
                 "3V3": f"3V3(OUT)  (pin {PICO_POWER['3V3(OUT)']})",
                 "GND": f"GND  (pin {PICO_GND[-1]} or any GND)"}
    else:
        power = {"5V": "5V / VIN", "3V3": "3V3", "GND": "GND (any)"}
    for net, y in POWER_Y.items():
        svg.circle(MCU_RIGHT, y, 4, fill="#222")
        svg.text(MCU_RIGHT - 10, y + 4, power[net], anchor="end")
        net_flag(svg, MCU_RIGHT, y, net)


def draw_ring(svg: Svg, y: int, pixels: int) -> None:
    import math
    x = resistor(svg, 330, y, "330–470 Ω")
    svg.line((MCU_RIGHT, y), (330, y))
    cx, cy, r = 650, y + 10, 62
    svg.line((x, y), (cx - r - 14, y))
    svg.text(cx - r - 16, y - 6, "DIN", size=12, anchor="end")
    svg.circle(cx, cy, r + 10, fill="#333")
    svg.circle(cx, cy, r - 10, fill="#fcfcf7")
    for i in range(pixels):
        a = 2 * math.pi * i / pixels - math.pi / 2
        svg.circle(round(cx + r * math.cos(a), 1), round(cy + r * math.sin(a), 1), 5, fill="#f7dc6f", stroke="#555")
    svg.text(cx, cy + 4, f"{pixels} px", size=13, anchor="middle", weight="bold")
    svg.text(cx, cy + r + 30, f"WS2812 ring, {pixels} pixels", size=13, anchor="middle", weight="bold")
    # 5V and GND leave the ring on the right, with the 1000 µF capacitor across them.
    svg.line((cx + r + 10, cy - 30), (800, cy - 30))
    svg.line((cx + r + 10, cy + 30), (800, cy + 30))
    net_flag(svg, 800, cy - 30, "5V")
    net_flag(svg, 800, cy + 30, "GND")
    cap_x = 770
    svg.line((cap_x, cy - 30), (cap_x, cy - 5))
    svg.line((cap_x - 12, cy - 5), (cap_x + 12, cy - 5))
    svg.line((cap_x - 12, cy + 5), (cap_x + 12, cy + 5))
    svg.line((cap_x, cy + 5), (cap_x, cy + 30))
    svg.text(cap_x + 16, cy + 4, "1000 µF", size=11)
    svg.text(cap_x - 16, cy - 8, "+", size=12)


def draw_display(svg: Svg, y_clk: int, y_dio: int) -> None:
    box_x, box_y = 520, y_clk - 30
    for y, name in ((y_clk, "CLK"), (y_dio, "DIO")):
        svg.line((MCU_RIGHT, y), (box_x, y))
        svg.text(box_x + 8, y + 4, name, size=12)
    svg.rect(box_x, box_y, 180, 90, fill="#eef")
    svg.text(box_x + 110, box_y + 40, "8.8.:8.8.", size=22, anchor="middle", fill="#c0392b", weight="bold")
    svg.text(box_x + 110, box_y + 70, "TM1637 4-digit", size=12, anchor="middle")
    svg.line((box_x + 180, y_clk), (760, y_clk))
    svg.line((box_x + 180, y_dio), (760, y_dio))
    svg.text(box_x + 186, y_clk - 4, "VCC", size=11)
    svg.text(box_x + 186, y_dio - 4, "GND", size=11)
    net_flag(svg, 760, y_clk, "3V3")
    net_flag(svg, 760, y_dio, "GND")


def draw_buzzer(svg: Svg, y: int) -> None:
    svg.line((MCU_RIGHT, y), (330, y))
    x = resistor(svg, 330, y, "1 kΩ")
    base_x = 450
    svg.line((x, y), (base_x, y))
    svg.line((base_x, y - 18), (base_x, y + 18), attrs='stroke="#222" stroke-width="4"')
    cx = 480  # collector / emitter leg
    svg.line((base_x, y - 8), (cx, y - 26), (cx, y - 44))
    svg.line((base_x, y + 8), (cx, y + 26), (cx, y + 50))
    svg.polygon((cx, y + 26), (cx - 11, y + 23), (cx - 5, y + 16))  # emitter arrow (NPN)
    svg.text(cx + 12, y + 4, "NPN 2N2222 / S8050", size=12)
    svg.text(base_x - 6, y - 24, "B", size=10, anchor="end")
    net_flag(svg, cx, y + 50, "GND")
    # buzzer between collector and 5V, diode across it (cathode to 5V) for a magnetic buzzer
    bz_y = y - 62
    svg.circle(cx, bz_y, 16, fill="#ddd")
    svg.text(cx, bz_y + 4, "BZ", size=11, anchor="middle", weight="bold")
    svg.line((cx, y - 44), (cx, bz_y + 16))
    svg.line((cx, bz_y - 16), (cx, bz_y - 34))
    svg.text(cx - 10, bz_y - 20, "+", size=12, anchor="end")
    net_flag(svg, cx, bz_y - 34, "5V")
    dx = cx + 130
    svg.line((cx, bz_y - 26), (dx, bz_y - 26), (dx, bz_y - 8))
    svg.polygon((dx - 8, bz_y + 8), (dx + 8, bz_y + 8), (dx, bz_y - 6), fill="#fff")
    svg.line((dx - 9, bz_y - 7), (dx + 9, bz_y - 7))
    svg.line((dx, bz_y + 8), (dx, bz_y + 26), (cx, bz_y + 26))
    svg.text(dx + 14, bz_y + 4, "1N4148 (magnetic buzzer only)", size=11)
    svg.text(cx - 24, bz_y + 4, "passive buzzer", size=12, anchor="end")


def draw_buttons(svg: Svg) -> None:
    for f in FUNCTIONS:
        if not f.key.startswith("btn_"):
            continue
        y = SIGNAL_Y[f.key]
        svg.line((MCU_RIGHT, y), (480, y))
        svg.circle(484, y, 4)
        svg.circle(524, y, 4)
        svg.line((487, y - 3), (522, y - 16))
        svg.line((528, y), (560, y))
        net_flag(svg, 560, y, "GND")
        svg.text(640, y + 5, f.label.replace(" button", ""), size=14, weight="bold")
    svg.text(480, SIGNAL_Y["btn_draw"] - 24, "12 mm push buttons (internal pull-ups: no resistors)", size=12)


def render(board: str, config: ModuleType) -> str:
    pins = dict(config.PINS[board])
    svg = Svg()
    title = f"tableref board wiring: {BOARD_NAMES[board]}"
    svg.text(20, 28, title, size=18, weight="bold")
    svg.text(20, 48, "Generated from firmware/config.py by hardware/make_wiring.py. "
             "Wires ending in 5V / 3V3 / GND go to the board pin of that name.", size=12)
    draw_board(svg, board, pins)
    draw_ring(svg, SIGNAL_Y["ring"], int(config.PIXELS))
    draw_display(svg, SIGNAL_Y["tm1637_clk"], SIGNAL_Y["tm1637_dio"])
    draw_buzzer(svg, SIGNAL_Y["buzzer"])
    draw_buttons(svg)
    return svg.render(title)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed SVG is stale")
    args = parser.parse_args(argv)
    config = load_config()
    stale = []
    for board, path in OUTPUTS.items():
        svg = render(board, config)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                stale.append(path)
        else:
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path.relative_to(pathlib.Path.cwd()) if path.is_relative_to(pathlib.Path.cwd()) else path}")
    for path in stale:
        print(f"{path}: out of date with firmware/config.py; run python hardware/make_wiring.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
