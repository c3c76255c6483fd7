"""Run every benchmark once, in turn, and print what each measured (`make bench`).

    .venv/bin/python -m lab.benchmarks.run_all [--only NAME ...] [--list]

Each benchmark is its own module of lab/benchmarks/ (see its docstring for the target and the flags); this runs them
as subprocesses with the settings below, so one that fails does not stop the rest, prints each
one's last JSON object, and exits 1 if any failed to run. Timings need a quiet machine: stop other
work (a training run: `kill -STOP PID`, then `kill -CONT PID`) while it runs.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("benchmarks")

# name: (module of lab/benchmarks/, arguments, what it measures)
BENCHES: dict[str, tuple[str, list[str], str]] = {
    "read": ("bench_read", ["--repeats", "3"], "1920x1080 frame, ~28 tiles: detection + reading + layout"),
    "replay": ("bench_replay", [], "events per second replayed"),
    "append": ("bench_append", [], "ms to append an event at the 10th and the 2,000th of a game"),
    "synth": ("bench_synth", ["--n", "20"], "rendered 1280x960 images per second"),
    "live": ("bench_live", ["--reader", "model", "--frames", "200"], "live pipeline frames per second"),
    "web": ("bench_web", ["--seconds", "30", "--baseline", "10", "--clients", "20"],
            "frame rate and memory with spectators"),
}


def last_json(text: str) -> dict | None:
    """The last JSON object in `text` that starts a line (one line or indented over several)."""
    decoder = json.JSONDecoder()
    lines = text.splitlines(keepends=True)
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith("{"):
            try:
                return decoder.raw_decode("".join(lines[i:]))[0]  # the text after it is ignored
            except json.JSONDecodeError:
                continue
    return None


def run_one(name: str) -> tuple[bool, dict | None, float]:
    module, args, what = BENCHES[name]
    log.info("%s: %s (%s)", name, what, " ".join([module, *args]))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", f"lab.benchmarks.{module}", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - t0
    result = last_json(proc.stdout)
    if result is None:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        log.error("%s printed no result (exit %d): %s", name, proc.returncode, " | ".join(tail))
        return False, None, seconds
    for line in proc.stdout.splitlines():
        if line.startswith(("PASS", "CHECK", "FAIL")):
            log.info("%s: %s", name, line)
    return True, result, seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="+", choices=sorted(BENCHES), help="run only these")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if args.list:
        for name, (module, extra, what) in BENCHES.items():
            print(f"{name:8} {what}  ({' '.join([module, *extra])})")
        return 0
    failed = []
    for name in args.only or list(BENCHES):
        ok, result, seconds = run_one(name)
        if not ok:
            failed.append(name)
            continue
        print(json.dumps({"bench": name, "seconds": round(seconds, 1), "result": result}), flush=True)
    if failed:
        log.error("failed to run: %s", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
