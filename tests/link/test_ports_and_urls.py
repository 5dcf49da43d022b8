"""--port parsing, USB discovery filtering (fake ListPortInfo objects), `tableref ports`."""
# pyright: reportOptionalMemberAccess=false, reportOptionalSubscript=false
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

import pytest

from tableref.errors import UserError
from tableref.link.discovery import board_kind, choose_auto, likely_boards
from tableref.link.urls import parse_port_spec
from tableref.ports_cmd import format_table, port_record


@dataclass(frozen=True)
class FakePort:
    """The ListPortInfo attributes discovery reads."""

    device: str
    vid: int | None
    pid: int | None
    serial_number: str | None
    description: str | None


def port(device: str, vid: int | None = None, pid: int | None = None, serial: str | None = None, desc: str = "n/a") -> FakePort:
    return FakePort(device, vid, pid, serial, desc)


PICO = port("/dev/ttyACM0", 0x2E8A, 0x0005, "E6614C311B4A8F2D", "Board in FS mode")
PICO2 = port("/dev/ttyACM1", 0x2E8A, 0x0005, "E66138935F2C9B2A", "Board in FS mode")
CP210X = port("/dev/ttyUSB0", 0x10C4, 0xEA60, "0001", "CP2102 USB to UART Bridge Controller")
ESP_NATIVE = port("/dev/ttyACM2", 0x303A, 0x8000, "84:F7:03", "ESP32-S2")
MOUSE_UART = port("/dev/ttyUSB3", 0x1234, 0x5678, None, "something else")
BUILTIN = port("/dev/ttyS0")
PICO_SDK = port("/dev/ttyACM5", 0x2E8A, 0x000A, "X", "Pico")


@pytest.mark.parametrize("spec,kind,target,serial", [
    ("auto", "auto", "", None),
    ("AUTO", "auto", "", None),
    ("auto:E6614C311B4A8F2D", "auto", "", "E6614C311B4A8F2D"),
    ("sim://", "sim", "", None),
    ("/dev/ttyACM0", "device", "/dev/ttyACM0", None),
    ("COM3", "device", "COM3", None),
    ("loop://", "url", "loop://", None),
    ("socket://localhost:7777", "url", "socket://localhost:7777", None),
    ("rfc2217://localhost:4000", "url", "rfc2217://localhost:4000", None),
])
def test_parse_port_spec(spec: str, kind: str, target: str, serial: str | None) -> None:
    ps = parse_port_spec(spec)
    assert (ps.kind, ps.target, ps.serial) == (kind, target, serial)


@pytest.mark.parametrize("spec,needle", [("", "empty"), ("auto:", "serial number"), ("ftp://x", "unknown URL scheme"), ("sim://x", "sim://")])
def test_bad_port_specs_are_one_clear_error(spec: str, needle: str) -> None:
    with pytest.raises(UserError, match=needle):
        parse_port_spec(spec)


def test_board_kinds() -> None:
    assert board_kind(PICO).rank == 0 and "Pico" in board_kind(PICO).label
    assert board_kind(ESP_NATIVE).label.startswith("ESP32")  # any Espressif native USB pid
    assert board_kind(CP210X).rank == 2
    assert board_kind(MOUSE_UART) is None and board_kind(BUILTIN) is None
    assert not board_kind(PICO_SDK).usable


def test_likely_boards_order_and_serial_filter() -> None:
    found = likely_boards([CP210X, MOUSE_UART, PICO2, BUILTIN, PICO, PICO_SDK])
    assert [p.device for p, _ in found] == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyUSB0"]
    only = likely_boards([PICO, PICO2], serial="e66138935f2c9b2a")
    assert [p.device for p, _ in only] == ["/dev/ttyACM1"]


def test_choose_auto() -> None:
    assert choose_auto([BUILTIN, CP210X, PICO]) == "/dev/ttyACM0"  # a Pico beats a bridge chip
    assert choose_auto([CP210X, BUILTIN]) == "/dev/ttyUSB0"
    assert choose_auto([PICO, PICO2], "E6614C311B4A8F2D") == "/dev/ttyACM0"
    with pytest.raises(UserError, match="several boards.*ttyACM0.*ttyACM1"):
        choose_auto([PICO, PICO2])
    with pytest.raises(UserError, match="no board found"):
        choose_auto([BUILTIN, MOUSE_UART, PICO_SDK])
    with pytest.raises(UserError, match="serial number NOPE"):
        choose_auto([PICO], "NOPE")


def test_ports_table_marks_boards() -> None:
    lines = format_table(port_record(p) for p in [BUILTIN, PICO])
    assert lines[0].startswith("  /dev/ttyS0")
    assert lines[1].startswith("* /dev/ttyACM0") and "2E8A:0005" in lines[1] and "E6614C311B4A8F2D" in lines[1]
    assert "likely board" in lines[-1]
    assert "no likely board" in format_table([port_record(BUILTIN)])[-1]
    assert "no serial ports" in format_table([])[0]


def test_ports_command_runs_for_real_and_emits_json_lines() -> None:
    from serial.tools import list_ports

    proc = subprocess.run([sys.executable, "-m", "tableref", "ports", "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert sorted(r["device"] for r in rows) == sorted(p.device for p in list_ports.comports())
    assert all(set(r) == {"device", "vid_pid", "serial", "description", "board", "likely"} for r in rows)
