"""Hypothesis strategies for valid protocol messages."""
from __future__ import annotations

from hypothesis import strategies as st

from tablelink.messages import (BUTTONS, COLOURS, PRESSES, Ack, Back, Btn, Hi, Snapshot,
                                Who)

hex8 = st.text("0123456789abcdef", min_size=8, max_size=8)
# card codes as the wire carries them: a lower-case letter, then letters, digits, - and _
codes = st.builds(lambda head, rest: head + rest, st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
                  st.text("abcdefghijklmnopqrstuvwxyz0123456789-_", max_size=23))


@st.composite
def buttons(draw: st.DrawFn) -> Btn:
    button, press = draw(st.sampled_from(BUTTONS)), draw(st.sampled_from(PRESSES))
    args = st.sampled_from(COLOURS) if (button, press) == ("COLOUR", "long") else codes
    return Btn(draw(hex8), draw(st.integers(1, 10**6)), button, press, draw(st.one_of(st.none(), args)))


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    players = draw(st.integers(2, 10))
    seat = st.integers(0, players - 1)
    pend = draw(st.one_of(st.none(), st.just("r"),
                          st.builds(lambda k, c: f"{c}{k}", st.integers(1, 99),
                                    st.sampled_from("pd"))))
    mode = draw(st.sampled_from(["play", "ask", "over"]))
    offer = draw(st.lists(codes, max_size=2)) if mode == "ask" else []
    return Snapshot(draw(hex8), draw(st.integers(1, 10**6)), players,
                    draw(st.one_of(st.none(), seat)), draw(st.sampled_from(["cw", "ccw"])),
                    draw(st.integers(0, (1 << players) - 1)),
                    draw(st.one_of(st.none(), st.integers(-999, 9999))), pend,
                    draw(st.one_of(st.none(), st.sampled_from(COLOURS))),
                    draw(st.integers(0, 1000)), draw(st.one_of(st.none(), seat)),
                    mode, draw(st.one_of(st.none(), seat)), tuple(offer))


messages = st.one_of(
    snapshots(),
    st.builds(Hi, hex8, st.sampled_from(["rp2", "esp32", "unix"]), st.sampled_from([12, 16, 24]),
              st.just("0.1.0")),
    st.builds(Ack, hex8, st.integers(0, 10**6)),
    buttons(),
    st.builds(Back, hex8, st.integers(1, 10**6)),
    st.just(Who()),
)
