"""How fast replay validates events: random legal games of every variant, replayed from events.

Run: .venv/bin/python -m lab.benchmarks.bench_replay   (target: >= 50,000 events/s on this machine)
Prints wall-clock and CPU rates for event dicts (as the web replays them) and for files (as
`dominocam replay` does, JSON parsing included); exits 1 below the target CPU rate.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time

from engine.record import dumps_event, read_record
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
    tmp = tempfile.mkdtemp(prefix="bench-replay-")
    files = []
    for i, g in enumerate(games):
        path = os.path.join(tmp, f"game{i}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(dumps_event(e) + "\n" for e in g))
        files.append(path)
    n_events = sum(len(g) for g in games)
    best = best_cpu = best_parsed = float("inf")
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        for g in games:
            replay_events(g)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
        t0 = time.perf_counter()
        for path in files:  # what `dominocam replay FILE` does
            replay_events(read_record(path), path=path, checked=True)
        best_parsed = min(best_parsed, time.perf_counter() - t0)
    # The machine is shared: CPU time shows the engine's own speed, wall time what a user waits.
    report = {
        "games": len(games),
        "events": n_events,
        "events_per_s": round(n_events / best),
        "events_per_cpu_s": round(n_events / best_cpu),
        "events_per_s_from_files": round(n_events / best_parsed),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "target_events_per_s": 50000,
    }
    shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(report))
    # Judged on CPU time: wall time on this shared 2-core machine depends on the other jobs.
    return 0 if report["events_per_cpu_s"] >= 50000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
