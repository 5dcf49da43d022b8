"""Benchmark of the rules engine: replay long simulated games through the Referee.

For every game id, the simulator (tableref.simulate) plays seeded random games until about
--events observable events are collected; then only those events are timed through
`Referee.push` (and, as the app does for the board, `push` + reading `state`). Figures are
events per second per game and overall, peak memory (tracemalloc during a replay, and the
process's ru_maxrss), and a baseline measured in the same run on the same events: parsing
them from JSON Lines (what reading a game record costs anyway) and a bare loop over them.

    python bench/bench_rules.py                 # default: 20000 events per game, < 2 minutes
    python bench/bench_rules.py --events 5000   # quicker
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import tracemalloc
from typing import Any, Callable

from tableref.referee import Referee
from tableref.simulate import GAMES, SimGame, simulate_game

SEATS = {"ono99_classic": 4, "ono99_2022": 5, "uno": 4, "uno_no_mercy": 4, "ena": 4}


def collect(game: str, events: int, seed: int) -> list[SimGame]:
    """Seeded games of `game` until about `events` events (each game complete unless cut)."""
    games: list[SimGame] = []
    total = 0
    while total < events:
        g = simulate_game(game, SEATS[game], seed + len(games), misplay_rate=0.05,
                          max_events=min(20000, events - total))
        g.truth = []  # only the observable events are replayed; free the simulator's truth
        games.append(g)
        total += len(g.events)
    return games


def replay(games: list[SimGame], read_state: bool) -> None:
    for g in games:
        h = g.header
        ref = Referee(h["game"], h["players"], h["options"])
        for ev in g.events:
            ref.push(ev)
            if read_state:
                ref.state  # noqa: B018 - the app reads it after every event


def parse(lines: list[list[str]]) -> None:
    for game_lines in lines:
        for line in game_lines:
            json.loads(line)


def bare(games: list[SimGame]) -> None:
    n = 0
    for g in games:
        for ev in g.events:
            n += len(ev)


def best_of(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def engine_has(game: str) -> bool:
    try:
        Referee(game, 2).state
    except NotImplementedError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Benchmark of the rules engine over simulated games")
    ap.add_argument("--events", type=int, default=20000, help="events per game id (default 20000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs, best kept (default 3)")
    args = ap.parse_args(argv)

    print(f"python {sys.version.split()[0]}; {args.events} events per game, seed {args.seed}, "
          f"best of {args.repeat}")
    print(f"{'game':15} {'games':>5} {'events':>7} {'push ev/s':>11} {'push+state ev/s':>16} "
          f"{'json ev/s':>11} {'push/json':>9} {'push/bare':>9} {'peak KiB':>9}")
    rss_start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    tot_events = 0
    tot_push = tot_state = tot_json = tot_bare = 0.0
    peak_all = 0
    for game in GAMES:
        if not engine_has(game):
            print(f"{game:15} (no ruleset in the engine yet)")
            continue
        games = collect(game, args.events, args.seed)
        n = sum(len(g.events) for g in games)
        lines = [[json.dumps(e) for e in g.events] for g in games]
        t_push = best_of(lambda: replay(games, False), args.repeat)
        t_state = best_of(lambda: replay(games, True), args.repeat)
        # the baselines are cheap and noisy on a busy machine: more runs, best kept
        t_json = best_of(lambda: parse(lines), max(5, 3 * args.repeat))
        t_bare = best_of(lambda: bare(games), max(5, 3 * args.repeat))
        tracemalloc.start()
        replay(games, True)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        peak_all = max(peak_all, peak)
        tot_events += n
        tot_push += t_push
        tot_state += t_state
        tot_json += t_json
        tot_bare += t_bare
        print(f"{game:15} {len(games):5d} {n:7d} {n / t_push:11.0f} {n / t_state:16.0f} "
              f"{n / t_json:11.0f} {t_push / t_json:9.1f} {t_push / t_bare:9.1f} {peak / 1024:9.0f}")
    if tot_events:
        print(f"{'overall':15} {'':5} {tot_events:7d} {tot_events / tot_push:11.0f} "
              f"{tot_events / tot_state:16.0f} {tot_events / tot_json:11.0f} "
              f"{tot_push / tot_json:9.1f} {tot_push / tot_bare:9.1f} {peak_all / 1024:9.0f}")
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS (ru_maxrss) {rss_kib / 1024:.1f} MiB for the whole run "
          f"({rss_start / 1024:.1f} MiB after imports; the rest includes the simulated games); "
          "'peak KiB' is tracemalloc's peak while replaying that game's events once "
          "(referee + its undo history)")
    print("push/json: time to referee the events / time to json-parse them from a record; "
          "push/bare: / a bare Python loop touching each event")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
