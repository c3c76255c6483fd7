"""Benchmark: detection + reading + layout of a 1920x1080 frame with ~28 tiles (target <= 100 ms
median on the 2-core machine). Run: .venv/bin/python -m lab.benchmarks.bench_read [--repeats N]"""

from __future__ import annotations

import argparse
import json
import logging
import os

from lab.read.bench import TILE_PX, run_bench  # noqa: E402

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--frames", type=int, default=4)
    ap.add_argument("--model")
    ap.add_argument("--tile-px", type=float, nargs="+", default=list(TILE_PX))
    ap.add_argument("--no-slicing", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO)
    res = run_bench(args.repeats, args.frames, args.model, tuple(args.tile_px), not args.no_slicing)
    print(json.dumps(res))
    ok = res["total_ms"] <= 100.0 and res["detection_ms"] is not None
    print(("PASS" if ok else "CHECK") + f": total {res['total_ms']} ms per frame (target <= 100 ms), "
          f"load average {os.getloadavg()[0]:.1f}")
