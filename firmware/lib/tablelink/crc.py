"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

Table-driven: a bitwise loop costs about 8x more per byte under MicroPython, and the table is
only 256 small ints.
"""


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return tuple(table)


_TABLE = _make_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of `data` (bytes-like); same result as binascii.crc_hqx(data, crc)."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc
