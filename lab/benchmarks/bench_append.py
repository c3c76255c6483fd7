"""What appending one event costs at the 10th and at the 2,000th event of a long game: the
journal (the hub's check and store), the web's state, and the pipeline's record, as in a live
game (a script, not a timed test).

    .venv/bin/python -m lab.benchmarks.bench_append [--at 10 2000] [--window 10] [--deals 80]

A long bykovo session (80 deals, about 2,600 events, camera mode: no hands in the deal events)
is played by the engine (engine.simulate). For each position, the journal (SQLite in memory: the
disk's fsync is the same at any length) and the pipeline are brought to the event before the
window (the pipeline by `resume`, as the web does at start), then each event of the window goes
through the pipeline as the tracker hands it over (`_emit`: pass guessing, the journal's
`Hub.append`, the record), the tracker's questions on the next frame (who moves, the open ends),
and one page's state (`Hub.state_json`). Prints one JSON object: per position the median of the
window in milliseconds of this thread's CPU (the machine is shared), for the whole append and for
the page state alone, and the wall-clock median of the whole append.

Measured on the shared 2-core machine (load about 14), niced, `--repeat 2`, medians of 19 and 21
events, milliseconds of CPU (append: everything; page: its state alone):
- before (commit 3ae660d: full replays of the record per event, in the pipeline's pass guessing,
  `Hub.validate`, `build_state`): append 1.607 at event 10, 106.7 at 2,000 (x66); page 0.687 and
  39.63; wall 15.3 and 1,801.
- after (one engine state each, advanced by apply; each move's and committed deal's JSON written
  once): append 0.181 at event 10, 0.244 at 2,000 (x1.35); page 0.087 and 0.176 (what grows is
  joining the page's text, 277 kB of moves at 2,000 events); wall 0.193 and 0.246.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time

from engine.simulate import random_game
from vision.live.pipeline import LivePipeline
from webui.hub import Hub
from webui.store import EventStore


def session(deals: int, seed: int = 1) -> list[dict]:
    """A long game: `deals` deals of bykovo, the target out of reach so the game goes on."""
    return random_game("bykovo", seed=seed, deals=deals, options={"target": 10**6}, camera=True)


def pipeline(game: dict) -> LivePipeline:
    """The live pipeline with no camera: only its record is used here."""
    return LivePipeline(lambda: None, None, list(game["players"]), variant=game["variant"], game=game)


def window(record: list[dict], at: int, half: int) -> dict:
    """Milliseconds per event around event `at` (1-based), median over 2 * half + 1 events."""
    start = max(1, at - half - 1)  # events before the window, taken as a stored game
    store = EventStore(":memory:")
    for event in record[:start]:
        store.append(event, "camera")
    hub = Hub(store)
    pipe = pipeline(record[0])
    pipe.resume(record[:start])
    pipe.on_events(lambda e: hub.append(e, "camera"))
    appends, pages, walls = [], [], []
    clock = time.thread_time  # this thread's CPU: what the work costs, whatever else runs
    for k in range(start, min(len(record), at + half)):
        w0, t0 = time.perf_counter(), clock()
        pipe._emit(record[k], float(k))
        pipe._to_move()
        pipe._open_ends()
        t1 = clock()
        hub.state_json()
        t2, w2 = clock(), time.perf_counter()
        appends.append(1000 * (t2 - t0))
        pages.append(1000 * (t2 - t1))
        walls.append(1000 * (w2 - w0))
    assert len(hub.store.entries()) == min(len(record), at + half), "the journal refused an event"
    return {"events": len(appends), "append_cpu_ms": round(statistics.median(appends), 3),
            "page_state_cpu_ms": round(statistics.median(pages), 3),
            "append_wall_ms": round(statistics.median(walls), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0].strip())
    parser.add_argument("--at", type=int, nargs="+", default=[10, 2000], help="event positions (1-based)")
    parser.add_argument("--window", type=int, default=10, help="events each side of a position")
    parser.add_argument("--deals", type=int, default=80, help="deals in the session")
    parser.add_argument("--repeat", type=int, default=2, help="runs per position; the last counts "
                        "(the first warms the caches)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    record = session(args.deals)
    if max(args.at) + args.window > len(record):
        print(f"bench_append: the session has {len(record)} events; give more --deals", file=sys.stderr)
        return 2
    out = {"events_in_session": len(record), "at": {}}
    for at in args.at:
        for _ in range(args.repeat):
            out["at"][str(at)] = window(record, at, args.window)
    first, last = (out["at"][str(a)]["append_cpu_ms"] for a in (min(args.at), max(args.at)))
    out["growth"] = round(last / first, 2) if first else None
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
