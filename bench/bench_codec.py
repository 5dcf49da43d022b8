"""tablelink codec figures: bytes per snapshot (typical and worst case), encode/decode rates
on CPython, our CRC against binascii.crc_hqx (C) as a baseline, and the same codec timed
under the MicroPython unix port when its executable is installed.

    .venv/bin/python bench/bench_codec.py [--seconds S]
"""
from __future__ import annotations

import argparse
import binascii
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIB = ROOT / "firmware" / "lib"
sys.path.insert(0, str(LIB))

from tablelink.crc import crc16  # noqa: E402
from tablelink.frame import MAX_LINE, FrameReader  # noqa: E402
from tablelink.messages import Ack, Snapshot  # noqa: E402

TYPICAL = Snapshot("0a1b2c3d", 57, 4, 2, "cw", 0, 42)
UNO = Snapshot("0a1b2c3d", 812, 6, 3, "ccw", 0b100, None, "d4", "yellow", 0)
# every field at its longest legal spelling
WORST = Snapshot("0a1b2c3d", 999999999, 10, 9, "ccw", 0x3FF, -999999, "d9999", "yellow",
                 999999999, 9, "play")


def rate(fn, seconds: float) -> float:
    """Calls per second of fn() over about `seconds`."""
    n, t0 = 0, time.perf_counter()
    batch = 1
    while True:
        for _ in range(batch):
            fn()
        n += batch
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n / dt
        batch = min(batch * 2, 4096)


MP_SCRIPT = r"""
import time
from tablelink.messages import Snapshot
from tablelink.frame import FrameReader
from tablelink.crc import crc16
s = Snapshot("0a1b2c3d", 57, 4, 2, "cw", 0, 42)
frame = s.encode()
def timed(fn, n):
    t0 = time.ticks_us()
    for _ in range(n):
        fn()
    return n * 1000000 / max(1, time.ticks_diff(time.ticks_us(), t0))
r = FrameReader()
stream = frame * 50
def dec():
    r.feed(stream)
data = bytes(range(256)) * 4
print(timed(s.encode, N), timed(dec, max(1, N // 50)) * 50, timed(lambda: crc16(data), max(1, N // 20)) * 1024)
"""


def micropython_figures(n: int) -> list[float] | None:
    exe = pathlib.Path(sys.executable).parent / "micropython"
    exe_s = str(exe) if exe.exists() else shutil.which("micropython")
    if not exe_s:
        return None
    r = subprocess.run([exe_s, "-c", MP_SCRIPT.replace("N)", f"{n})").replace("N //", f"{n} //")],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, MICROPYPATH=str(LIB)))
    if r.returncode != 0:
        print("micropython run failed:", r.stderr.strip().splitlines()[-1:])
        return None
    return [float(x) for x in r.stdout.split()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = ap.parse_args()
    figures: dict[str, float] = {}
    for name, s in (("typical", TYPICAL), ("uno", UNO), ("worst", WORST)):
        figures[f"bytes_per_snapshot_{name}"] = len(s.encode())
    ack = len(Ack("0a1b2c3d", 57).encode())
    figures["bytes_per_ack"] = ack
    print(f"bytes per SNAP frame: typical {figures['bytes_per_snapshot_typical']}, "
          f"UNO {figures['bytes_per_snapshot_uno']}, worst case "
          f"{figures['bytes_per_snapshot_worst']} (limit {MAX_LINE})")
    print(f"heartbeat traffic: {figures['bytes_per_snapshot_typical'] + ack} B/s "
          f"(SNAP + ACK once a second)")

    frame = TYPICAL.encode()
    stream = frame * 100
    enc = rate(TYPICAL.encode, args.seconds)
    reader = FrameReader()
    dec = rate(lambda: reader.feed(stream), args.seconds) * 100
    assert reader.dropped == 0
    data = os.urandom(4096)
    ours = rate(lambda: crc16(data), args.seconds) * len(data)
    oracle = rate(lambda: binascii.crc_hqx(data, 0xFFFF), args.seconds / 4) * len(data)
    figures.update(encode_per_s=enc, decode_per_s=dec, crc_bytes_per_s=ours,
                   crc_hqx_bytes_per_s=oracle)
    print(f"CPython {sys.version.split()[0]}: encode {enc:,.0f} snapshots/s, "
          f"decode {dec:,.0f} frames/s ({dec * len(frame) / 1e6:.2f} MB/s)")
    print(f"CRC: ours {ours / 1e6:.2f} MB/s, binascii.crc_hqx {oracle / 1e6:.1f} MB/s "
          f"(ours is {oracle / ours:.0f}x slower than C; irrelevant at "
          f"{figures['bytes_per_snapshot_typical'] + ack} B/s)")
    mp = micropython_figures(2000)
    if mp is None:
        print("MicroPython unix port not installed: no MicroPython figures")
    else:
        figures.update(mp_encode_per_s=mp[0], mp_decode_per_s=mp[1], mp_crc_bytes_per_s=mp[2])
        print(f"MicroPython unix port: encode {mp[0]:,.0f} snapshots/s, "
              f"decode {mp[1]:,.0f} frames/s, CRC {mp[2] / 1e3:,.0f} kB/s "
              f"(decode {dec / mp[1]:.1f}x slower than CPython)")
    print(json.dumps({k: round(v, 1) for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
