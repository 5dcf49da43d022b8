"""Read the pin map back out of the documents that repeat it: the README's pin tables and the
Wokwi diagram's connections. tests/hardware compares both with firmware/config.py.

Pure parsing: text or parsed JSON in, {config key: GPIO number} out; ValueError names the
place that does not parse.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from boardspec import FUNCTION_KEYS

_GPIO_CELL = re.compile(r"^(?:GP|GPIO)(\d{1,2})$")


def readme_table_block(text: str, board: str) -> list[tuple[int, str]]:
    """The (line number, line) pairs between `<!-- pins:BOARD -->` and `<!-- /pins:BOARD -->`."""
    begin, end = f"<!-- pins:{board} -->", f"<!-- /pins:{board} -->"
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == begin]
    ends = [i for i, line in enumerate(lines) if line.strip() == end]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError(f"README: expected one '{begin}' ... '{end}' block")
    return [(n + 1, lines[n]) for n in range(starts[0] + 1, ends[0])]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def readme_rows(text: str, board: str) -> list[tuple[int, dict[str, str]]]:
    """The rows of the README pin table of `board` as (line number, {column name: cell})."""
    rows = [(n, line) for n, line in readme_table_block(text, board) if line.strip().startswith("|")]
    if len(rows) < 3:
        raise ValueError(f"README: the {board} pin table has no rows")
    header = [c.lower() for c in _cells(rows[0][1])]
    out = []
    for n, line in rows[2:]:  # rows[1] is the --- separator
        cells = _cells(line)
        if len(cells) != len(header):
            raise ValueError(f"README line {n}: {len(cells)} cells, the header has {len(header)}")
        out.append((n, dict(zip(header, cells))))
    return out


def readme_pins(text: str, board: str) -> dict[str, int]:
    """Parse the README pin table of `board` into {config key: GPIO}.

    The table's columns must include `config.py key` and `GPIO`; a key cell is the config key
    in backticks, a GPIO cell is `GP<n>` (Pico) or `GPIO<n>` (ESP32).
    """
    pins: dict[str, int] = {}
    for n, row in readme_rows(text, board):
        if "config.py key" not in row or "gpio" not in row:
            raise ValueError(f"README line {n}: the {board} pin table needs 'config.py key' and 'GPIO' columns")
        key = row["config.py key"].strip("`")
        match = _GPIO_CELL.match(row["gpio"])
        if not match:
            raise ValueError(f"README line {n}: GPIO cell {row['gpio']!r} is not GP<n>/GPIO<n>")
        if key in pins:
            raise ValueError(f"README line {n}: {key!r} appears twice in the {board} table")
        pins[key] = int(match.group(1))
    return pins


# --- Wokwi diagram.json -------------------------------------------------------------------

PICO_TYPES = ("wokwi-pi-pico", "board-pi-pico-w", "board-pi-pico")
_PICO_PIN = re.compile(r"^GP(\d{1,2})$")
_PICO_TESTPOINTS = {"TP4": 23, "TP5": 25}
# Two-terminal parts that a signal passes straight through (a series resistor on DIN, say).
_PASS_THROUGH = {"wokwi-resistor": ("1", "2")}
# Where each signal lands: (part type or None to match by id, part id or None, pins to look at).
_SIGNAL_ENDS: dict[str, tuple[str | None, str | None, tuple[str, ...]]] = {
    "ring": ("wokwi-led-ring", None, ("DIN",)),
    "tm1637_clk": ("wokwi-tm1637-7segment", None, ("CLK",)),
    "tm1637_dio": ("wokwi-tm1637-7segment", None, ("DIO",)),
    "buzzer": ("wokwi-buzzer", None, ("1", "2")),
}
_BUTTON_PINS = ("1.l", "1.r", "2.l", "2.r")


class Netlist:
    """The nets a diagram's `connections` make: endpoints "part:pin" joined by wires."""

    def __init__(self, diagram: dict[str, Any]):
        parts = diagram.get("parts")
        connections = diagram.get("connections")
        if not isinstance(parts, list) or not isinstance(connections, list):
            raise ValueError("diagram.json needs 'parts' and 'connections' lists")
        self.types: dict[str, str] = {}
        self.attrs: dict[str, dict[str, Any]] = {}
        for part in parts:
            self.types[part["id"]] = part["type"]
            self.attrs[part["id"]] = part.get("attrs", {})
        self._parent: dict[str, str] = {}
        for i, conn in enumerate(connections):
            if not (isinstance(conn, list) and len(conn) >= 2
                    and all(isinstance(e, str) and ":" in e for e in conn[:2])):
                raise ValueError(f"diagram.json connection {i}: expected [\"part:pin\", \"part:pin\", ...]")
            a, b = conn[0], conn[1]
            for end in (a, b):
                part_id = end.split(":", 1)[0]
                if not part_id.startswith("$") and part_id not in self.types:
                    raise ValueError(f"diagram.json connection {i}: no part {part_id!r}")
            self._union(a, b)
        for part_id, part_type in self.types.items():
            if part_type in _PASS_THROUGH:
                p, q = _PASS_THROUGH[part_type]
                self._union(f"{part_id}:{p}", f"{part_id}:{q}")

    def _find(self, x: str) -> str:
        self._parent.setdefault(x, x)
        while self._parent[x] != x:
            self._parent[x] = self._parent[self._parent[x]]
            x = self._parent[x]
        return x

    def _union(self, a: str, b: str) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self._parent[ra] = rb

    def net(self, endpoint: str) -> set[str]:
        root = self._find(endpoint)
        return {e for e in list(self._parent) if self._find(e) == root}

    def parts_of_type(self, part_type: str) -> list[str]:
        return [pid for pid, t in self.types.items() if t == part_type]

    def board_id(self) -> str:
        boards = [pid for pid, t in self.types.items() if t in PICO_TYPES]
        if len(boards) != 1:
            raise ValueError(f"diagram.json: expected one Pico part, found {len(boards)}")
        return boards[0]

    def gpios_on(self, endpoints: Iterable[str]) -> set[int]:
        """GPIO numbers of the Pico pins sharing a net with any of `endpoints`."""
        board = self.board_id()
        found: set[int] = set()
        for endpoint in endpoints:
            for e in self.net(endpoint):
                part_id, pin = e.split(":", 1)
                if part_id != board:
                    continue
                m = _PICO_PIN.match(pin)
                if m:
                    found.add(int(m.group(1)))
                elif pin in _PICO_TESTPOINTS:
                    found.add(_PICO_TESTPOINTS[pin])
        return found

    def board_pins_on(self, endpoint: str) -> set[str]:
        """Names of the Pico pins (GPn, 3V3, VBUS, GND.n ...) on the net of `endpoint`."""
        board = self.board_id()
        return {e.split(":", 1)[1] for e in self.net(endpoint) if e.split(":", 1)[0] == board}


def _signal_part(netlist: Netlist, key: str) -> tuple[str, tuple[str, ...]]:
    if key in _SIGNAL_ENDS:
        part_type, _, pins = _SIGNAL_ENDS[key]
        assert part_type is not None
        found = netlist.parts_of_type(part_type)
        if len(found) != 1:
            raise ValueError(f"diagram.json: expected one {part_type}, found {len(found)}")
        return found[0], pins
    if key.startswith("btn_"):
        if netlist.types.get(key) != "wokwi-pushbutton":
            raise ValueError(f"diagram.json: no wokwi-pushbutton with id {key!r}")
        return key, _BUTTON_PINS
    raise ValueError(f"no rule for signal {key!r}")


def wokwi_pins(diagram: dict[str, Any]) -> dict[str, int]:
    """Parse the diagram into {config key: GPIO} by following each signal's wire to the Pico."""
    netlist = Netlist(diagram)
    pins: dict[str, int] = {}
    for key in FUNCTION_KEYS:
        part_id, part_pins = _signal_part(netlist, key)
        gpios = netlist.gpios_on(f"{part_id}:{p}" for p in part_pins)
        if len(gpios) != 1:
            raise ValueError(f"diagram.json: {key} ({part_id}) reaches GPIOs {sorted(gpios) or 'none'}, "
                             "expected exactly one")
        pins[key] = gpios.pop()
    return pins


def wokwi_ring_pixels(diagram: dict[str, Any]) -> int:
    netlist = Netlist(diagram)
    rings = netlist.parts_of_type("wokwi-led-ring")
    if len(rings) != 1:
        raise ValueError(f"diagram.json: expected one wokwi-led-ring, found {len(rings)}")
    # Wokwi's default ring has 16 pixels when the attribute is absent.
    return int(netlist.attrs[rings[0]].get("pixels", 16))
