"""`--port` values: `auto`, `auto:<serial>`, `sim://`, any pyserial URL, or a device path (pure)."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError

# URL schemes pyserial's serial_for_url understands (serial/urlhandler/protocol_*.py).
PYSERIAL_SCHEMES = ("loop", "socket", "rfc2217", "spy", "hwgrep", "alt", "cp2110")


@dataclass(frozen=True)
class PortSpec:
    kind: str  # "auto" | "sim" | "url" | "device"
    target: str  # the URL or device path; "" for auto and sim
    serial: str | None = None  # auto:<serial>: the board's USB serial number

    def describe(self) -> str:
        if self.kind == "auto":
            return f"auto (serial {self.serial})" if self.serial else "auto"
        if self.kind == "sim":
            return "sim://"
        return self.target


def parse_port_spec(spec: str) -> PortSpec:
    s = spec.strip()
    if not s:
        raise UserError("empty --port; use auto, sim://, a device such as /dev/ttyACM0, or a pyserial URL")
    if s.lower() == "auto":
        return PortSpec("auto", "")
    if s.lower().startswith("auto:"):
        serial = s[5:].strip()
        if not serial:
            raise UserError(f"--port {spec}: give the board's USB serial number after auto:")
        return PortSpec("auto", "", serial)
    if "://" in s:
        scheme = s.split("://", 1)[0].lower()
        if scheme == "sim":
            if s.rstrip("/").lower() != "sim:":
                raise UserError(f"--port {spec}: sim:// takes no host or options")
            return PortSpec("sim", "")
        if scheme not in PYSERIAL_SCHEMES:
            known = ", ".join(f"{x}://" for x in ("sim",) + PYSERIAL_SCHEMES)
            raise UserError(f"--port {spec}: unknown URL scheme {scheme}:// (known: {known})")
        return PortSpec("url", s)
    return PortSpec("device", s)
