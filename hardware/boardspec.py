"""What the hardware documents know about the boards: the firmware's pin map, loaded straight
from firmware/config.py, and the facts about the Pico and ESP32 DevKit headers that the pin
map does not say (physical pin numbers, power pins, pins that must not be used).

Pure data and one loader; the scripts in this folder and tests/hardware build on it.
"""
from __future__ import annotations

import importlib.util
import pathlib
from types import ModuleType
from typing import NamedTuple

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
CONFIG_PATH = ROOT / "firmware" / "config.py"
README_PATH = HERE / "README.md"
WOKWI_DIR = HERE / "wokwi"


class Function(NamedTuple):
    key: str      # key in config.PINS[board]
    label: str    # what a maker reads
    part: str     # the part it wires to
    part_pin: str  # the part's terminal


# The eight signals the firmware drives or reads, in the order the documents list them.
FUNCTIONS: tuple[Function, ...] = (
    Function("ring", "Ring data", "WS2812 ring", "DIN"),
    Function("tm1637_clk", "Display clock", "TM1637 display", "CLK"),
    Function("tm1637_dio", "Display data", "TM1637 display", "DIO"),
    Function("buzzer", "Buzzer (PWM)", "buzzer driver", "base resistor"),
    Function("btn_draw", "DRAW button", "DRAW button", "leg 1"),
    Function("btn_pass", "PASS button", "PASS button", "leg 1"),
    Function("btn_undo", "UNDO button", "UNDO button", "leg 1"),
    Function("btn_colour", "COLOUR button", "COLOUR button", "leg 1"),
)
FUNCTION_KEYS = tuple(f.key for f in FUNCTIONS)
BOARDS = ("rp2", "esp32")
BOARD_NAMES = {"rp2": "Raspberry Pi Pico / Pico W", "esp32": "ESP32 DevKit (WROOM-32)"}

# Raspberry Pi Pico header: GPIO number -> physical pin (1..40, pin 1 next to the USB socket).
PICO_PHYSICAL = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12,
    10: 14, 11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22,
    18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
PICO_POWER = {"VBUS": 40, "VSYS": 39, "3V3(OUT)": 36, "3V3_EN": 37, "RUN": 30, "ADC_VREF": 35}
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)
# GPIOs wired inside the board: not on the header, or taken by the Pico W's radio.
PICO_INTERNAL = {
    23: "Pico: regulator power-save / Pico W: radio power (WL_ON)",
    24: "Pico: VBUS sense / Pico W: radio data (WL_D)",
    25: "Pico: on-board LED / Pico W: radio chip select (WL_CS)",
    29: "Pico: VSYS/3 ADC / Pico W: radio clock (WL_CLK)",
}

# ESP32-WROOM-32 DevKit: pins to keep clear of for our signals.
ESP32_STRAPPING = {0: "boot mode", 2: "boot mode", 5: "SDIO timing", 12: "flash voltage", 15: "boot log"}
ESP32_FLASH = {n: "internal SPI flash" for n in range(6, 12)}
ESP32_INPUT_ONLY = {n: "input only, no pull-up" for n in (34, 35, 36, 37, 38, 39)}
ESP32_UART0 = {1: "UART0 TX (USB serial / REPL)", 3: "UART0 RX (USB serial / REPL)"}
ESP32_VALID = set(range(0, 40)) - {20, 24, 28, 29, 30, 31}


def load_config(path: pathlib.Path = CONFIG_PATH) -> ModuleType:
    """Import firmware/config.py from its file (it is not part of an installed package)."""
    spec = importlib.util.spec_from_file_location("tableref_firmware_config", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pin_label(board: str, gpio: int) -> str:
    """The name printed next to the pin on the board."""
    return f"GP{gpio}" if board == "rp2" else f"GPIO{gpio}"


def physical_pin(board: str, gpio: int) -> str:
    """Where to find the pin: the Pico's header number, or the DevKit's silkscreen."""
    if board == "rp2":
        return f"pin {PICO_PHYSICAL[gpio]}"
    return f"D{gpio} / IO{gpio}"


def pin_problems(board: str, gpio: int, key: str) -> list[str]:
    """Electrical reasons why `gpio` is a poor choice for signal `key` on `board` (empty = fine)."""
    problems: list[str] = []
    if board == "rp2":
        if gpio in PICO_INTERNAL:
            problems.append(f"GP{gpio} is used inside the board ({PICO_INTERNAL[gpio]})")
        elif gpio not in PICO_PHYSICAL:
            problems.append(f"GP{gpio} is not on the Pico's header")
    elif board == "esp32":
        for table in (ESP32_STRAPPING, ESP32_FLASH, ESP32_UART0):
            if gpio in table:
                problems.append(f"GPIO{gpio}: {table[gpio]}")
        if gpio in ESP32_INPUT_ONLY:
            problems.append(f"GPIO{gpio}: {ESP32_INPUT_ONLY[gpio]} (every signal here needs an output or a pull-up)")
        if gpio not in ESP32_VALID:
            problems.append(f"GPIO{gpio} does not exist on the ESP32")
    else:
        problems.append(f"unknown board {board!r}")
    return problems
