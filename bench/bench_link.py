"""Board link round trip: host snapshot -> board ACK, and bytes per snapshot.

Two boards in one run:
  sim://  the in-process simulated board (same tablelink code, no OS I/O): the baseline
  pty     the real firmware on the MicroPython unix port, behind a pty relay, host on pyserial

    .venv/bin/python bench/bench_link.py [--n 200]

Prints median and p99 round-trip times per board, the pty/sim ratio, and frame sizes.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "link"))  # the pty relay + firmware runner

from harness import Firmware, Relay, skip_reason  # noqa: E402

from tableref.link import BoardLink  # noqa: E402
from tablelink.host import UNSTAMPED_EPOCH, UNSTAMPED_SEQ
from tablelink.messages import Ack, Snapshot  # noqa: E402


def snapshots(n: int) -> list[Snapshot]:
    """A plausible game: 99-game totals climbing with turns going round, some obligations."""
    out = []
    for i in range(n):
        if i % 2:
            out.append(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 4, turn=i % 4, direction="ccw" if i % 7 == 0 else "cw",
                                total=(i * 7) % 99, pend="p2" if i % 5 == 0 else None, err=i if i % 11 == 0 else 0))
        else:
            out.append(Snapshot(UNSTAMPED_EPOCH, UNSTAMPED_SEQ, 6, turn=i % 6, colour=("red", "yellow", "green", "blue")[i % 4],
                                pend="d4" if i % 3 == 0 else None, elim=0b100000 if i > n // 2 else 0))
    return out


def percentile(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def round_trips(link: BoardLink, snaps: list[Snapshot], wait_s: float) -> tuple[list[float], list[int]]:
    rtts, sizes = [], []
    for snap in snaps:
        link.poll()
        t0 = time.perf_counter()
        link.show(snap)
        deadline = t0 + 30
        while not link.session.acked:
            link.poll(timeout_s=wait_s)
            if time.perf_counter() > deadline:
                raise SystemExit("no ACK within 30 s: the board is not answering")
        rtts.append((time.perf_counter() - t0) * 1000)
        assert link.session.current is not None
        sizes.append(len(link.session.current.encode()))
    return rtts, sizes


def report(name: str, rtts: list[float]) -> float:
    med = statistics.median(rtts)
    print(f"{name:<5} round trip snapshot->ACK over {len(rtts)} snapshots: median {med:.3f} ms, "
          f"p99 {percentile(rtts, 99):.3f} ms, max {max(rtts):.3f} ms")
    return med


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="snapshots per board (default 200)")
    args = ap.parse_args()
    snaps = snapshots(args.n)

    sim = BoardLink.open("sim://")
    sim_rtts, sizes = round_trips(sim, snaps, 0.0)
    sim.close()
    sim_med = report("sim", sim_rtts)

    reason = skip_reason()
    if reason:
        print(f"pty   skipped: {reason}")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            relay = Relay(pathlib.Path(tmp))
            fw = Firmware(relay.board_tty)
            link = BoardLink.open(relay.host_path)
            try:
                t0 = time.monotonic()
                while link.session.board is None and time.monotonic() - t0 < 30:
                    link.poll(timeout_s=0.02)
                pty_rtts, _ = round_trips(link, snaps, 0.002)
            finally:
                link.close()
                fw.stop()
                relay.close()
        pty_med = report("pty", pty_rtts)
        print(f"ratio pty/sim median: {pty_med / sim_med:.0f}x")

    ack = len(Ack("0123abcd", 123).encode())
    print(f"bytes per snapshot: SNAP mean {statistics.mean(sizes):.1f} (min {min(sizes)}, max {max(sizes)}), ACK {ack}; "
          f"idle heartbeat ~{statistics.mean(sizes) + ack:.0f} B/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
