"""tablelink: the sans-I/O board link protocol shared by the host and the board (PROTOCOL.md).

Runs unchanged on CPython and MicroPython: no dataclasses, enum or typing at runtime, no I/O,
clocks are passed in as integer milliseconds.

- `crc`      CRC-16/CCITT-FALSE
- `frame`    frame encode/decode and the incremental `FrameReader`
- `messages` HI, ACK, BTN, WHO, SNAP (`Snapshot`), BACK
- `board`    `BoardSession`, the board side of the protocol
- `show`     what the board shows for a snapshot (ring, digits, cues)
"""

from tablelink.messages import PROTO  # noqa: F401  (protocol version, 1)
