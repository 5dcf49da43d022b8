"""Our TM1637 driver, checked by decoding the pin levels it produces back into bus transfers
(start/stop conditions, bits LSB first taken on CLK rising edges, the 9th ACK clock).
The decoder knows the bus, not the driver: it only sees (pin, level) pairs."""
from __future__ import annotations

import pytest

from tableboard.segments import encode, segment
from tableboard.tm1637 import TM1637


class RecordingPin:
    """Stands in for machine.Pin: records every level written; reading gives `reads`
    (0 = the chip pulls DIO low, i.e. acknowledges)."""

    def __init__(self, name: str, log: list, reads: int = 0) -> None:
        self.name, self.log, self.reads = name, log, reads

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.reads
        self.log.append((self.name, 1 if v else 0))
        return None


def decode_bus(log: list) -> list[bytes]:
    """Transfers seen on the wire, each as the bytes between a start and a stop."""
    clk = dio = 1
    transfers: list[bytes] = []
    bits: list[int] | None = None
    for name, level in log:
        if name == "clk":
            if level != clk and level == 1 and bits is not None:
                bits.append(dio)  # data is taken on the rising edge
            clk = level
            continue
        if level != dio and clk == 1:  # DIO moving while CLK is high: start or stop
            if level == 0:
                assert bits is None, "start inside a transfer"
                bits = []
            else:
                assert bits is not None
                # the stop condition's own CLK rise (with DIO low) is not a data bit
                assert len(bits) % 9 == 1 and bits[-1] == 0, bits
                bits.pop()
                out = bytearray()
                for k in range(0, len(bits), 9):
                    out.append(sum(b << i for i, b in enumerate(bits[k:k + 8])))
                    assert bits[k + 8] == 1, "master must release DIO for the ACK clock"
                transfers.append(bytes(out))
                bits = None
        dio = level
    assert bits is None, "transfer without a stop"
    return transfers


def driver(reads: int = 0, brightness: int = 3) -> tuple[TM1637, list]:
    log: list = []
    d = TM1637(RecordingPin("clk", log), RecordingPin("dio", log, reads), brightness)
    log.clear()
    return d, log


@pytest.mark.parametrize("text", ["  42", "LOSt", "ErrC", " -4", "PL 2", "----", "rOUL"])
def test_show_sends_data_command_address_digits_and_display_control(text: str) -> None:
    d, log = driver(brightness=5)
    d.show(text)
    assert decode_bus(log) == [b"\x40", b"\xc0" + encode(text), bytes([0x88 | 5])]
    assert d.nacks == 0


def test_missing_chip_is_counted_not_fatal() -> None:
    d, log = driver(reads=1)
    d.show("8888")
    assert d.nacks == 1 + 5 + 1
    assert decode_bus(log)[1] == b"\xc0" + b"\x7f" * 4


def test_segment_patterns() -> None:
    assert encode("0123") == bytes([0x3F, 0x06, 0x5B, 0x4F])
    assert encode("LOSt") == bytes([0x38, 0x3F, 0x6D, 0x78])
    assert encode("-4") == bytes([0x40, 0x66, 0, 0])  # padded to 4 on the right
    assert segment("e") == segment("E") and segment("?") == 0
