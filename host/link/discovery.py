"""Which serial ports are likely tableref boards: pure filtering of list_ports entries.

`serial.tools.list_ports.comports()` is only called by the callers (the `ports` command and
`auto` port resolution); everything here takes any object with ListPortInfo's attributes so
that it can be tested with plain fakes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol, Sequence

from ..errors import UserError


class PortInfo(Protocol):
    """The ListPortInfo attributes we read (pyserial fills missing ones with None)."""

    @property
    def device(self) -> str: ...
    @property
    def vid(self) -> int | None: ...
    @property
    def pid(self) -> int | None: ...
    @property
    def serial_number(self) -> str | None: ...
    @property
    def description(self) -> str | None: ...


@dataclass(frozen=True)
class BoardKind:
    label: str
    rank: int  # lower = more certainly a MicroPython board; used to order `auto` choices
    usable: bool = True  # False: recognised, but not running MicroPython (hint only)


# Exact USB ids. Native MicroPython ids first; then the USB-serial bridge chips that ESP32
# dev boards carry (those also sit on other gadgets, hence the lower rank).
KNOWN_IDS: dict[tuple[int, int], BoardKind] = {
    (0x2E8A, 0x0005): BoardKind("Raspberry Pi Pico (MicroPython)", 0),
    (0xF055, 0x9802): BoardKind("MicroPython board", 0),
    (0x303A, 0x1001): BoardKind("ESP32 native USB (USB-Serial/JTAG)", 1),
    (0x303A, 0x4001): BoardKind("ESP32 native USB (MicroPython)", 1),
    (0x10C4, 0xEA60): BoardKind("ESP32 dev board? (CP210x USB-serial)", 2),
    (0x1A86, 0x7523): BoardKind("ESP32 dev board? (CH340 USB-serial)", 2),
    (0x1A86, 0x55D4): BoardKind("ESP32 dev board? (CH9102 USB-serial)", 2),
    (0x1A86, 0x55D3): BoardKind("ESP32 dev board? (CH343 USB-serial)", 2),
    (0x0403, 0x6001): BoardKind("ESP32 dev board? (FTDI USB-serial)", 2),
    (0x0403, 0x6015): BoardKind("ESP32 dev board? (FTDI USB-serial)", 2),
    # A Pico running something else over USB CDC (e.g. a C SDK program): not usable as is.
    (0x2E8A, 0x000A): BoardKind("Raspberry Pi Pico, not running MicroPython (run tableref flash after installing MicroPython)", 9, usable=False),
}
ESPRESSIF_VID = 0x303A


def board_kind(port: PortInfo) -> BoardKind | None:
    """What board this port probably is, or None for ports with no known USB id."""
    if port.vid is None or port.pid is None:
        return None
    kind = KNOWN_IDS.get((port.vid, port.pid))
    if kind is None and port.vid == ESPRESSIF_VID:
        kind = BoardKind("ESP32 native USB", 1)
    return kind


def _serial_matches(port: PortInfo, serial: str | None) -> bool:
    return serial is None or (port.serial_number or "").lower() == serial.lower()


def likely_boards(ports: Iterable[PortInfo], serial: str | None = None) -> list[tuple[PortInfo, BoardKind]]:
    """Usable boards, most likely first (then by device name, for a stable order).

    With `serial`, only the port whose USB serial number equals it (case-insensitive).
    """
    found = [(p, k) for p in ports if (k := board_kind(p)) is not None and k.usable and _serial_matches(p, serial)]
    return sorted(found, key=lambda pk: (pk[1].rank, pk[0].device))


def choose_auto(ports: Sequence[PortInfo], serial: str | None = None) -> str:
    """The device to use for `--port auto` / `auto:<serial>`; UserError when none or ambiguous."""
    found = likely_boards(ports, serial)
    if not found:
        what = f"with USB serial number {serial}" if serial else "(no Pico/ESP32 USB serial port)"
        hint = "; `tableref ports` lists what is connected"
        raise UserError(f"no board found {what}{hint}")
    best_rank = found[0][1].rank
    best = [p for p, k in found if k.rank == best_rank]
    if len(best) > 1:
        names = ", ".join(f"{p.device} (serial {p.serial_number or '?'})" for p in best)
        raise UserError(f"several boards found: {names}; choose one with --port auto:<serial> or --port <device>")
    return best[0].device
