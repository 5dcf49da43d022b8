"""Corruption fuzz of the FrameReader: random garbage, bit flips, dropped and duplicated bytes.

Properties: feeding never raises; every frame returned is one that was sent (so a corrupted
frame is never accepted); every frame that came through untouched is returned, whatever
garbage preceded it (the reader resyncs at the next `$`, i.e. within one frame); splitting
the stream into arbitrary chunks changes nothing.

derandomize=True: a CRC-16 lets about 1 in 65536 corrupted frames through by chance, so the
examples are fixed rather than drawn afresh on every run (no flaky failures).
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from strategies import messages
from tablelink.frame import FrameReader
from tablelink.messages import parse

FUZZ = settings(max_examples=250, deadline=None, derandomize=True)


def feed_chunks(reader: FrameReader, data: bytes, cuts: list[int]) -> list[list[str]]:
    out: list[list[str]] = []
    prev = 0
    for c in sorted(set(min(c, len(data)) for c in cuts)) + [len(data)]:
        out.extend(reader.feed(data[prev:c]))
        prev = c
    return out


@FUZZ
@given(st.binary(max_size=2000), st.lists(st.integers(0, 2000), max_size=20))
def test_garbage_never_raises_and_yields_only_what_is_in_it(data: bytes, cuts: list[int]) -> None:
    r = FrameReader()
    for fields in feed_chunks(r, data, cuts):
        try:
            parse(fields)  # a known TYPE with bad fields may only raise ValueError
        except ValueError:
            pass
        assert ("$" + ",".join(fields)).encode() in data


mutation = st.tuples(st.sampled_from(["flip", "drop", "dup", "insert"]),
                     st.integers(0, 10**6), st.integers(0, 7), st.binary(min_size=1, max_size=8))


def mutate(frame: bytes, kind: str, pos: int, bit: int, junk: bytes) -> bytes:
    i = pos % len(frame)
    if kind == "flip":
        return frame[:i] + bytes([frame[i] ^ (1 << bit)]) + frame[i + 1:]
    if kind == "drop":
        return frame[:i] + frame[i + 1:]
    if kind == "dup":
        return frame[:i + 1] + frame[i:]
    return frame[:i] + junk + frame[i:]


@FUZZ
@given(st.lists(st.tuples(messages, st.one_of(st.none(), mutation),
                          st.binary(max_size=12)), min_size=1, max_size=12),
       st.lists(st.integers(0, 3000), max_size=10))
def test_corruption_is_dropped_and_intact_frames_survive(
        plan: list, cuts: list[int]) -> None:
    sent: list[list[str]] = []
    intact: list[list[str]] = []
    stream = b""
    for msg, mut, garbage in plan:
        frame = msg.encode()
        wire = frame if mut is None else mutate(frame, *mut)
        fields = msg.to_fields()
        sent.append(fields)
        if wire == frame:
            intact.append(fields)
        stream += garbage + wire
    r = FrameReader()
    got = feed_chunks(r, stream, cuts)
    for fields in got:
        assert fields in sent  # never a corrupted frame
    # every untouched frame arrives, in order (garbage can add nothing valid)
    it = iter(got)
    for fields in intact:
        assert any(g == fields for g in it), (fields, got)


@FUZZ
@given(st.lists(messages, min_size=1, max_size=8), st.lists(st.integers(0, 1500), max_size=30))
def test_clean_stream_decodes_exactly_in_any_chunking(msgs: list, cuts: list[int]) -> None:
    stream = b"".join(m.encode() for m in msgs)
    r = FrameReader()
    got = feed_chunks(r, stream, cuts)
    assert [parse(f) for f in got] == msgs
    assert r.dropped == 0 and r.noise == 0
