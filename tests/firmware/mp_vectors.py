"""Golden-vector check of the tablelink codec, runnable under CPython and MicroPython:
    micropython tests/firmware/mp_vectors.py tests/firmware/vectors.json
Prints "vectors ok <n>" or raises AssertionError."""
import json
import sys

from tablelink.crc import crc16
from tablelink.frame import FrameReader, decode, encode, BAD_CRC, BAD_PARSE
from tablelink.messages import parse


def check(path):
    with open(path) as f:
        v = json.load(f)
    n = 0
    for text, crc in v["crc_check"]:
        assert "%04X" % crc16(text.encode()) == crc, text
        n += 1
    reader = FrameReader()
    for fields, frame in v["frames"]:
        raw = frame.encode()
        assert encode(fields) == raw, (fields, encode(fields), raw)
        assert decode(raw[1:-1]) == fields, frame
        got = reader.feed(raw)
        assert got == [fields], (frame, got)
        msg = parse(fields)
        if msg is None:
            assert fields[0] == "ZZZ", fields
        else:
            assert msg.to_fields() == fields, (msg, fields)
            assert msg.encode() == raw
        n += 1
    for line, why in v["rejected"]:
        raw = line.encode()
        want = BAD_CRC if why == "crc" else BAD_PARSE
        assert decode(raw[1:-1]) == want, (line, decode(raw[1:-1]))
        assert reader.feed(raw) == [], line
        n += 1
    assert reader.frames == len(v["frames"]), reader.frames
    assert reader.dropped == len(v["rejected"]), reader.dropped
    return n


if __name__ == "__main__":
    print("vectors ok %d" % check(sys.argv[1]))
