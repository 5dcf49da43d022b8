"""Runs the firmware's pure modules on fixed inputs and prints the results as one JSON
document. The tests run it under CPython and under the real MicroPython unix port and
require identical output, so the shared modules really behave the same on both.
    MICROPYPATH=firmware/lib:firmware micropython tests/firmware/mp_pure.py
"""
import json

from tablelink import show
from tablelink.board import BoardSession
from tablelink.frame import FrameReader
from tablelink.messages import Back, Snapshot, Who
from tableboard.debounce import Debouncer
from tableboard.tm1637 import TM1637
from tableboard.tones import ToneSequencer

SNAPS = [
    ["SNAP", "0a1b2c3d", "1", "4", "1", "cw", "0", "42", "-", "-", "0", "-", "play"],
    ["SNAP", "0a1b2c3d", "2", "4", "2", "cw", "0", "91", "p2", "-", "0", "-", "play"],
    ["SNAP", "0a1b2c3d", "3", "4", "3", "cw", "4", "95", "-", "-", "5", "-", "ask"],
    ["SNAP", "0a1b2c3d", "4", "5", "-", "ccw", "1e", "-", "d4", "green", "0", "0", "over"],
    ["SNAP", "cafe0001", "1", "10", "9", "ccw", "3", "-7", "r", "blue", "0", "-", "play"],
    ["SNAP", "cafe0001", "2", "4", "1", "cw", "0", "-", "-", "red", "0", "-", "ask", "-", "red-6/wild_draw4"],
    ["SNAP", "cafe0001", "3", "4", "1", "cw", "0", "12", "-", "-", "0", "-", "ask", "2", "num-10"],
]
# every kind of code card_text spells, and some it does not
CODES = ["red-7", "yellow-skip", "green-reverse", "blue-draw2", "red-draw4", "blue-skip_all",
         "green-discard_all", "wild", "wild_draw10", "wild_reverse_draw4", "num-0", "num-10",
         "minus10", "ono99", "reverse", "hold", "double_play", "play2", "pink-5", "red-10",
         "num-x", "joker"]


class Pin:
    def __init__(self, name, log):
        self.name = name
        self.log = log

    def value(self, v=None):
        if v is None:
            return 0
        self.log.append(self.name + str(v))


def run():
    out = {}
    snaps = [Snapshot.from_fields(f) for f in SNAPS]
    views = []
    prev = None
    for s in snaps:
        for t in (0, 450, 1000, 12345):
            for lost in (False, True):
                views.append([show.digits(s, t, lost), show.ring(s, t, 16, lost)])
        views.append(show.ring(s, 700, 12, False, "yellow"))
        views.append(show.cues(prev, s))
        prev = s
    out["views"] = views
    out["cards"] = [show.card_text(c) for c in CODES]
    out["answers"] = [[s.answer(b, p) for b, p in (("PASS", "short"), ("COLOUR", "short"), ("PASS", "long"))]
                      for s in snaps]
    out["taken"] = show.digits(snaps[-2], 1000, False, "wild_draw4")
    b = BoardSession("b00710ad", "unix", 12, "0.1.0", 0)
    wire = []
    wire.append(b.tick(0))
    stream = b"junk$SNAP,bad*0000\n" + b"".join(s.encode() for s in snaps) + Who().encode()
    wire.append(b.feed(stream[:37], 100))
    wire.append(b.feed(stream[37:], 200))
    wire.append(b.press("COLOUR", "long", "red", 300))
    wire.append(b.tick(800))
    wire.append(b.feed(Back("b00710ad", 1).encode(), 900))
    wire.append(b.tick(2000))
    out["wire"] = [w.decode() for w in wire]
    out["lost"] = [b.lost(t) for t in (3000, 3899, 3900)]
    r = b.reader
    out["reader"] = [r.frames, r.bad_parse, r.bad_crc, r.overflow, r.resync, r.noise]
    fr = FrameReader()
    got = fr.feed(b"$$$\n\n$" + b"x" * 400 + b"\n" + snaps[0].encode())
    out["reader2"] = [got, fr.overflow, fr.resync, fr.bad_parse, fr.noise]
    d = Debouncer(30, 800)
    levels = [0] * 5 + [1, 0, 1] + [1] * 20 + [0] * 10 + [1] * 100 + [0] * 5
    out["buttons"] = [[i * 10, e] for i, lv in enumerate(levels)
                      for e in [d.update(bool(lv), i * 10)] if e]
    seq = ToneSequencer()
    seq.start("win", 0)
    out["tone"] = [seq.freq(t) for t in range(0, 800, 50)]
    log = []
    TM1637(Pin("c", log), Pin("d", log)).show(" -4 ")
    out["tm1637"] = "".join(log)
    return out


if __name__ == "__main__":
    print(json.dumps(run()))
