"""A venue under load: N simulated tables (default 50), each journaling R records a second
(default 2), through one private Mosquitto to one `tableref scoreboard`, on loopback.

    .venv/bin/python bench/bench_scoreboard.py                 # the issue's figure: 5 minutes
    .venv/bin/python bench/bench_scoreboard.py --seconds 60    # a shorter run

Prints: whether every record of every game arrived exactly once and in order (the scoreboard's
SQLite against each journal); p95 and max from the journal write (fsync done) to the
scoreboard's page (its server-sent event showing that index), also as a ratio of a bare
MQTT publish -> subscriber p95 measured in the same run; the scoreboard's CPU (share of one
core, and against the broker's) and its memory (peak RSS against its idle RSS at start).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from typing import Any

from tableref.feed import TableUpdate
from tableref.mqtt.mosquitto import Broker
from tableref.mqtt.sim_table import SimTable
from tableref.record import read_record

TABLEREF = str(pathlib.Path(sys.executable).parent / "tableref")
TICKS = os.sysconf("SC_CLK_TCK")


class WriteTimes:
    """An output of each table's feed: when each record was handed on (just after its fsync)."""

    def __init__(self, times: dict[tuple[str, int], float]) -> None:
        self.times = times

    def update(self, u: TableUpdate) -> None:
        now = time.time()
        for index, _ in u.new_records:
            self.times[(u.game_id, index)] = now

    def notice(self, text: str) -> None:
        pass


class PageWatcher(threading.Thread):
    """Reads the scoreboard page's event stream; notes when each (game, index) first shows."""

    def __init__(self, page: str) -> None:
        super().__init__(daemon=True)
        u = urllib.parse.urlsplit(page)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
        self.shown: dict[str, tuple[int, float]] = {}    # game -> (highest index, when)
        self.arrivals: dict[tuple[str, int], float] = {}
        self.lock = threading.Lock()

    def run(self) -> None:
        self.conn.request("GET", "/events")
        resp = self.conn.getresponse()
        while True:
            line = resp.readline()
            if not line:
                return
            if not line.startswith(b"data: "):
                continue
            now = time.time()
            for key, view in json.loads(line[6:]).items():
                if key.startswith("table:") and isinstance(view, dict):
                    self._seen(view["game_id"], view["index"], now)

    def _seen(self, game: str, index: int, now: float) -> None:
        with self.lock:
            last = self.shown.get(game, (0, 0.0))[0]
            for i in range(last + 1, index + 1):  # a burst applied at once shows its last index only
                self.arrivals[(game, i)] = now
            if index > last:
                self.shown[game] = (index, now)


def cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")


def bare_mqtt_p95(broker: Broker, n: int = 300) -> float:
    """Publish -> subscriber latency of the broker alone (the baseline)."""
    import paho.mqtt.client as mqtt
    got: dict[int, float] = {}
    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    sub.on_message = lambda c, u, m: got.setdefault(int(m.payload.split(b" ")[0]), time.time())
    sub.connect("127.0.0.1", broker.port)
    sub.subscribe("bench/ping", qos=1)
    sub.loop_start()
    pub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    pub.connect("127.0.0.1", broker.port)
    pub.loop_start()
    time.sleep(0.5)
    sent: dict[int, float] = {}
    for i in range(n):
        sent[i] = time.time()
        pub.publish("bench/ping", f"{i} x".encode(), qos=1)
        time.sleep(0.01)
    deadline = time.monotonic() + 10
    while len(got) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    for c in (pub, sub):
        c.disconnect()
        c.loop_stop()
    return p95([got[i] - sent[i] for i in got])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rate", type=float, default=2.0, help="records a second per table")
    ap.add_argument("--seconds", type=float, default=300.0, help="length of the load (default 300)")
    args = ap.parse_args()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-scoreboard-"))
    try:
        broker = Broker(tmp).start()
    except RuntimeError as exc:
        print(f"bench_scoreboard: {exc}", file=sys.stderr)
        return 1
    board = subprocess.Popen([TABLEREF, "scoreboard", broker.url("venue"), "--web", "127.0.0.1:0",
                              "--db", str(tmp / "sb.sqlite")], stderr=subprocess.PIPE, text=True)
    try:
        page = board.stderr.readline().split(" page ")[1].split()[0]  # type: ignore[union-attr]
        baseline = bare_mqtt_p95(broker)
        watcher = PageWatcher(page)
        watcher.start()
        time.sleep(1.0)
        idle_rss = rss_mb(board.pid)
        times: dict[tuple[str, int], float] = {}
        games: list[tuple[str, pathlib.Path, str]] = []   # (table, journal, game id)
        quiet = lambda text: None  # noqa: E731

        def new_game(i: int, output: Any = None) -> SimTable:
            journal = tmp / f"t{i:02d}-{len([g for g in games if g[0] == f't{i:02d}'])}.jsonl"
            t = SimTable(output or broker.url(f"venue/t{i:02d}"), journal, seed=1000 * i + len(games),
                         names=[f"p{i}-{s}" for s in range(4)], say=quiet)
            t.ctrl.feed.subscribe(WriteTimes(times))
            games.append((f"t{i:02d}", journal, t.ctrl.game_id))
            return t

        tables = [new_game(i) for i in range(args.tables)]
        period = 1.0 / args.rate
        start = time.monotonic()
        due = [start + period * i / args.tables for i in range(args.tables)]   # staggered
        cpu0, broker_cpu0 = cpu_seconds(board.pid), cpu_seconds(broker.proc.pid)  # type: ignore[union-attr]
        peak_rss, next_sample = idle_rss, start
        while time.monotonic() - start < args.seconds:
            now = time.monotonic()
            for i, t in enumerate(tables):
                if now >= due[i]:
                    if t.finished:
                        t.close(output=False)
                        t = tables[i] = new_game(i, t.output)
                    t.step()
                    due[i] += period
            if now >= next_sample:
                peak_rss, next_sample = max(peak_rss, rss_mb(board.pid)), now + 1.0
            time.sleep(max(0.0, min(due) - time.monotonic()))
        load_s = time.monotonic() - start
        cpu = cpu_seconds(board.pid) - cpu0
        broker_cpu = cpu_seconds(broker.proc.pid) - broker_cpu0  # type: ignore[union-attr]
        for t in tables:
            t.close()
        expected = {g: len(read_record(j)[1]) for _, j, g in games}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(watcher.shown.get(g, (0, 0))[0] < n for g, n in expected.items() if n):
            time.sleep(0.2)
        board.terminate()
        stopped = board.communicate(timeout=30)[1].strip().splitlines()
        db = sqlite3.connect(str(tmp / "sb.sqlite"))
        exact = True
        for table, journal, game in games:
            kept = [json.loads(r) for (r,) in db.execute(
                "SELECT record FROM records WHERE tbl=? AND game=? ORDER BY idx", (table, game))]
            exact &= kept == read_record(journal)[1]
        db.close()
        lat = [watcher.arrivals[k] - times[k] for k in times if k in watcher.arrivals]
        total = sum(expected.values())
        print(f"{args.tables} tables x {args.rate:g} records/s for {load_s:.0f} s: {total} records in {len(games)} games")
        print(f"every record exactly once and in order at the scoreboard (SQLite == journals): {'yes' if exact else 'NO'}"
              f"; {len(lat)}/{len(times)} records seen on the page; {stopped[-1] if stopped else ''}")
        print(f"journal write -> scoreboard page: p95 {p95(lat) * 1000:.0f} ms, max {max(lat) * 1000:.0f} ms"
              f" ({p95(lat) / baseline:.1f}x the bare MQTT publish -> subscriber p95 of {baseline * 1000:.1f} ms)")
        print(f"scoreboard CPU: {cpu / load_s:.1%} of one core ({cpu / max(broker_cpu, 1e-9):.1f}x the broker's "
              f"{broker_cpu / load_s:.1%}); memory: peak RSS {peak_rss:.0f} MB ({peak_rss / idle_rss:.2f}x its "
              f"{idle_rss:.0f} MB idle at start)")
        return 0 if exact and len(lat) == len(times) else 1
    finally:
        if board.poll() is None:
            board.kill()
        broker.kill()


if __name__ == "__main__":
    sys.exit(main())
