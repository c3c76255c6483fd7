"""How fast replay validates events: random legal games of every variant, replayed from events.

Run: .venv/bin/python benchmarks/bench_replay.py   (target: >= 50,000 events/s on this machine)
"""

from __future__ import annotations

import argparse
import json
import os
import time

from engine.record import dumps_event, parse_event
from engine.replay import replay_events
from engine.rules import VARIANTS
from engine.simulate import random_game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per variant")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    games = [random_game(v, seed=s) for v in VARIANTS for s in range(args.games)]
    games += [random_game(v, seed=s, camera=True) for v in VARIANTS for s in range(args.games)]
    lines = [[dumps_event(e) for e in g] for g in games]
    n_events = sum(len(g) for g in games)
    best = best_cpu = best_parsed = float("inf")
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        for g in games:
            replay_events(g)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
        t0 = time.perf_counter()
        for g in lines:
            replay_events([parse_event(line, i) for i, line in enumerate(g)])
        best_parsed = min(best_parsed, time.perf_counter() - t0)
    # The machine is shared: CPU time shows the engine's own speed, wall time what a user waits.
    report = {
        "games": len(games),
        "events": n_events,
        "events_per_s": round(n_events / best),
        "events_per_cpu_s": round(n_events / best_cpu),
        "events_per_s_with_json_parsing": round(n_events / best_parsed),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "target_events_per_s": 50000,
    }
    print(json.dumps(report))
    return 0 if report["events_per_s"] >= 50000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
