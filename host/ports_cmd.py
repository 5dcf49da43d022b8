"""`tableref ports`: list serial ports and mark the ones that are likely boards."""
from __future__ import annotations

import argparse
import json
from typing import Iterable

from .link.discovery import PortInfo, board_kind


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object per port")


def port_record(port: PortInfo) -> dict:
    kind = board_kind(port)
    return {
        "device": port.device,
        "vid_pid": None if port.vid is None or port.pid is None else f"{port.vid:04X}:{port.pid:04X}",
        "serial": port.serial_number,
        "description": port.description,
        "board": kind.label if kind else None,
        "likely": bool(kind and kind.usable),
    }


def format_table(records: Iterable[dict]) -> list[str]:
    rows = list(records)
    if not rows:
        return ["no serial ports found (is the board plugged in with a data cable?)"]
    lines = []
    for r in rows:
        mark = "*" if r["likely"] else " "
        ids = r["vid_pid"] or "-"
        extra = f"  {r['board']}" if r["board"] else ""
        serial = f"  serial {r['serial']}" if r["serial"] else ""
        lines.append(f"{mark} {r['device']:<22} {ids:<9}{serial}  {r['description'] or ''}{extra}".rstrip())
    if not any(r["likely"] for r in rows):
        lines.append("no likely board among them (* marks a Pico/ESP32 running MicroPython)")
    else:
        lines.append("* = likely board; use --port auto, --port auto:<serial> or --port <device>")
    return lines


def run(args: argparse.Namespace) -> int:
    from serial.tools import list_ports  # the only I/O: the OS's port list

    records = [port_record(p) for p in sorted(list_ports.comports(), key=lambda p: p.device)]
    if args.json:
        for r in records:
            print(json.dumps(r))
    else:
        for line in format_table(records):
            print(line)
    return 0
