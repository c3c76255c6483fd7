"""Benchmark of the web side under load (a script, not a timed test).

Starts `dominocam serve` in a subprocess, measures the pipeline's frame rate with N spectators
(N MJPEG viewers + N SSE pages, default 50 each) for 60 s while the demo deal is played, then
the same pipeline alone, and reports:
- the pipeline's frame rate before and during the load, and the drop (target < 10 %);
- the server's resident memory every 5 s during the load (target: flat);
- tile-stable-to-page latency: from the moment the pipeline hands a new event to the journal
  (the entry's `ts`, taken when the sink is called, i.e. when the tile became stable) to the
  moment an SSE page receives the state that contains it (target: median < 0.5 s).

MJPEG viewers and most SSE pages are `curl` processes (cheap readers, like browsers); a few
Python SSE readers time the latency.

    .venv/bin/python -m lab.benchmarks.bench_web [--source demo] [--clients 50] [--seconds 60]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start_server(source: str, db: str, pace: float) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "dominocam", "serve", "--source", source, "--db", db, "--port", "0",
         "--pace", str(pace)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )
    line = proc.stdout.readline()
    if not line.startswith("spectators: "):
        proc.kill()
        raise SystemExit(f"dominocam serve did not start: {line!r}")
    return proc, line.split(": ", 1)[1].strip().rstrip("/")


def health(url: str) -> dict:
    with urllib.request.urlopen(url + "/api/health", timeout=5) as r:
        return json.loads(r.read())


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def sample_fps(url: str, seconds: float) -> list[float]:
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out.append(health(url)["fps"])
        time.sleep(1.0)
    return out


class LatencyProbe(threading.Thread):
    """An SSE page that notes, for each new journal entry, how long after its ts the state came."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        host, port = url.split("//", 1)[1].split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=30)
        self.latencies: list[float] = []
        self.stop = threading.Event()
        self.pending: dict[int, float] = {}

    def run(self) -> None:
        self.conn.request("GET", "/api/events")
        response = self.conn.getresponse()
        kind, data = None, []
        for raw in response:
            if self.stop.is_set():
                break
            line = raw.decode().rstrip("\r\n")
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif not line and data:
                now = time.time()
                body = json.loads("\n".join(data))
                if kind == "entry" and body["source"] == "camera":
                    self.pending[body["id"]] = body["ts"]
                elif kind == "state":
                    for eid in [i for i in self.pending if i <= body["last_event_id"]]:
                        self.latencies.append(now - self.pending.pop(eid))
                kind, data = None, []

    def close(self) -> None:
        self.stop.set()
        with contextlib.suppress(Exception):
            self.conn.sock.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", default="demo")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--baseline", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds for the pipeline to start up")
    ap.add_argument("--pace", type=float, default=1.0, help="seconds between moves of a replayed game")
    ap.add_argument("--probes", type=int, default=5, help="how many of the SSE pages time the latency")
    args = ap.parse_args()
    if not shutil.which("curl"):
        raise SystemExit("this benchmark needs curl for its viewers: apt-get install curl")

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(args.source, f"{tmp}/bench.db", args.pace)
        viewers: list[subprocess.Popen] = []
        probes: list[LatencyProbe] = []
        try:
            time.sleep(args.warmup)  # the pipeline calibrates and fills its window first
            # Load first, while the demo deal is being played (moves to time), then the same
            # pipeline alone: the demo keeps reading its looping video at the source's rate.
            rss0 = rss_mb(proc.pid)
            for _ in range(args.clients):
                viewers.append(subprocess.Popen(["curl", "-s", "-N", "-o", "/dev/null", url + "/stream.mjpg"]))
            for _ in range(args.clients - args.probes):
                viewers.append(subprocess.Popen(["curl", "-s", "-N", "-o", "/dev/null", url + "/api/events"]))
            for _ in range(args.probes):
                probe = LatencyProbe(url)
                probe.start()
                probes.append(probe)
            time.sleep(2)
            h = health(url)
            loaded, rss = [], []
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                loaded += sample_fps(url, 5.0)
                rss.append(round(rss_mb(proc.pid), 1))
            h_end = health(url)
            for v in viewers:
                v.terminate()
            for p in probes:
                p.close()
            time.sleep(3)
            base = sample_fps(url, args.baseline)
        finally:
            for v in viewers:
                v.terminate()
            for p in probes:
                p.close()
            proc.terminate()
            proc.wait(10)

    latencies = sorted(x for p in probes for x in p.latencies)
    fps0, fps1 = statistics.mean(base), statistics.mean(loaded)
    report = {
        "source": args.source,
        "clients": {"mjpeg": args.clients, "sse": args.clients, "viewers_seen_by_server": h["viewers"]},
        "fps_alone": round(fps0, 2),
        "fps_loaded": round(fps1, 2),
        "fps_drop_pct": round(100 * (fps0 - fps1) / fps0, 1) if fps0 else None,
        "rss_mb_before_load": round(rss0, 1),
        "rss_mb_every_5s": rss,
        "rss_growth_mb": round(rss[-1] - rss[0], 1) if rss else None,
        "frames_encoded_during_load": h_end["encoded"] - h["encoded"],
        "events_during_load": h_end["last_event_id"] - h["last_event_id"],
        "dropped_viewers": h_end["dropped_viewers"],
        "latency_s": {
            "samples": len(latencies),
            "median": round(statistics.median(latencies), 4) if latencies else None,
            "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 4) if latencies else None,
            "max": round(latencies[-1], 4) if latencies else None,
        },
    }
    print(json.dumps(report, indent=2))
    ok = (report["fps_drop_pct"] is not None and report["fps_drop_pct"] < 10
          and latencies and statistics.median(latencies) < 0.5)
    print("targets met" if ok else "TARGETS MISSED", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
