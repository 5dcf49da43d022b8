"""Golden frames: our encoder, decoder and CRC against literal frames whose CRCs are checked
against CPython's binascii.crc_hqx (the oracle PROTOCOL.md names)."""
from __future__ import annotations

import binascii
import json
import pathlib

import pytest
from hypothesis import given, settings, strategies as st

import mp_vectors
from tablelink.crc import crc16
from tablelink.frame import MAX_LINE, FrameReader, encode

VECTORS = pathlib.Path(__file__).with_name("vectors.json")


def _vectors() -> dict:
    return json.loads(VECTORS.read_text())


def test_golden_crcs_match_the_binascii_oracle() -> None:
    v = _vectors()
    for _fields, frame in v["frames"]:
        body, crc = frame[1:-1].split("*")
        assert f"{binascii.crc_hqx(body.encode(), 0xFFFF):04X}" == crc
    for text, crc in v["crc_check"]:
        assert f"{binascii.crc_hqx(text.encode(), 0xFFFF):04X}" == crc


def test_golden_vectors_pass_on_cpython() -> None:
    v = _vectors()
    assert mp_vectors.check(str(VECTORS)) == len(v["crc_check"]) + len(v["frames"]) + len(
        v["rejected"])


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 0xFFFF))
def test_crc_equals_crc_hqx(data: bytes, init: int) -> None:
    assert crc16(data, init) == binascii.crc_hqx(data, init)


def test_max_line_is_enforced_both_ways() -> None:
    # "$" + "X," + filler + "*CRC\n": find the longest body that still fits
    fits = encode(["X", "a" * (MAX_LINE - 9)])
    assert len(fits) == MAX_LINE
    with pytest.raises(ValueError):
        encode(["X", "a" * (MAX_LINE - 8)])
    # a hand-built frame one byte too long is dropped as an overflow even with a good CRC
    body = b"X," + b"a" * (MAX_LINE - 8)
    line = b"$" + body + b"*%04X\n" % binascii.crc_hqx(body, 0xFFFF)
    assert len(line) == MAX_LINE + 1
    r = FrameReader()
    assert r.feed(line + fits) == [["X", "a" * (MAX_LINE - 9)]]
    assert r.overflow == 1


@pytest.mark.parametrize("bad", ["a$b", "a*b", "a,b", "tab\there", "é", "\n"])
def test_encode_refuses_fields_the_protocol_cannot_carry(bad: str) -> None:
    with pytest.raises(ValueError):
        encode(["X", bad])
