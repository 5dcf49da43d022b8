"""Frames: `$` BODY `*` CRC `\\n` (PROTOCOL.md), BODY = TYPE ( `,` FIELD )*.

`encode(fields)` builds one frame; `FrameReader` is the incremental decoder: feed it whatever
bytes arrived, get back the frames completed so far. It starts a frame at every `$` (so a
garbled or truncated line costs at most that line), drops lines that fail to parse, fail the
CRC or overflow MAX_LINE, and counts every drop by reason.
"""
from tablelink.crc import crc16

MAX_LINE = 160  # bytes, including the leading `$` and the trailing `\n`
_MAX_CONTENT = MAX_LINE - 2  # between `$` and `\n`: BODY `*` CRC (a `\r` counts too)

_DOLLAR = 0x24
_STAR = 0x2A
_COMMA = 0x2C


def field_ok(text: str) -> bool:
    """True if `text` (str) may be a field: printable ASCII without `$ * ,`; may be empty."""
    for ch in text:
        o = ord(ch)
        if o < 0x20 or o > 0x7E or o == _DOLLAR or o == _STAR or o == _COMMA:
            return False
    return True


def encode(fields: list) -> bytes:
    """One frame (bytes) for `fields` (a TYPE str then field values; ints are formatted).

    Raises ValueError for a field the protocol cannot carry or a frame over MAX_LINE.
    """
    parts = []
    for f in fields:
        s = f if isinstance(f, str) else str(f)
        if not field_ok(s):
            raise ValueError("field not allowed in a frame: %r" % (s,))
        parts.append(s)
    if not parts or not parts[0]:
        raise ValueError("frame needs a TYPE")
    body = ",".join(parts).encode()
    frame = b"$" + body + ("*%04X\n" % crc16(body)).encode()
    if len(frame) > MAX_LINE:
        raise ValueError("frame longer than %d bytes" % MAX_LINE)
    return frame


# decode() results that are not a frame
BAD_PARSE = 1
BAD_CRC = 2


def decode(content: bytes) -> "list[str] | int":
    """Fields (list of str) of one line's content between `$` and `\\n`, or BAD_PARSE / BAD_CRC.

    A single trailing `\\r` is tolerated (a terminal may add it); nothing else is.
    """
    n = len(content)
    if n and content[n - 1] == 0x0D:
        n -= 1
    if n < 6 or content[n - 5] != _STAR:
        return BAD_PARSE
    crc_text = content[n - 4:n]
    for b in crc_text:  # uppercase hex only: one spelling per CRC
        if not (0x30 <= b <= 0x39 or 0x41 <= b <= 0x46):
            return BAD_PARSE
    body = content[:n - 5]
    for b in body:
        if b < 0x20 or b > 0x7E or b == _DOLLAR or b == _STAR:
            return BAD_PARSE
    if crc16(body) != int(crc_text.decode(), 16):
        return BAD_CRC
    fields = body.decode().split(",")
    if not fields[0]:
        return BAD_PARSE
    return fields


class FrameReader:
    """Incremental frame decoder with drop counters.

    feed(data) -> list of frames (each a list of str fields, TYPE first).
    Counters: frames, bad_parse, bad_crc, overflow, resync (a frame cut short by a new `$`),
    noise (bytes outside any frame).
    """

    def __init__(self):
        self._buf = None  # bytearray while inside a frame, else None
        self.frames = 0
        self.bad_parse = 0
        self.bad_crc = 0
        self.overflow = 0
        self.resync = 0
        self.noise = 0

    @property
    def dropped(self) -> int:
        """Lines dropped for any reason."""
        return self.bad_parse + self.bad_crc + self.overflow + self.resync

    def reset(self) -> None:
        """Forget a partial frame (e.g. after the port was reopened)."""
        self._buf = None

    def feed(self, data: bytes) -> "list[list[str]]":
        if not isinstance(data, bytes):
            data = bytes(data)
        out = []
        i = 0
        n = len(data)
        while i < n:
            buf = self._buf
            if buf is None:
                j = data.find(b"$", i)
                if j < 0:
                    self.noise += n - i
                    break
                self.noise += j - i
                self._buf = bytearray()
                i = j + 1
                continue
            jd = data.find(b"$", i)
            jn = data.find(b"\n", i)
            if jn >= 0 and (jd < 0 or jn < jd):
                end = jn
            elif jd >= 0:
                end = jd
            else:
                end = n
            if len(buf) + (end - i) > _MAX_CONTENT:
                self.overflow += 1
                self._buf = None
                i = end  # a `$` there starts the next frame; a `\n` there is noise
                continue
            buf.extend(data[i:end])
            if end == n:
                break
            if end == jd:  # a new frame starts before this one ended
                self.resync += 1
                self._buf = bytearray()
                i = end + 1
                continue
            self._buf = None
            i = end + 1
            fields = decode(bytes(buf))
            if fields == BAD_PARSE:
                self.bad_parse += 1
            elif fields == BAD_CRC:
                self.bad_crc += 1
            else:
                self.frames += 1
                out.append(fields)
        return out
