"""The event hub under load (issue 27): N tables publishing R journal entries a second each for
S seconds through a real mosquitto to a real `dominocam hub`.

    .venv/bin/python -m lab.benchmarks.bench_event [--tables 16] [--rate 2] [--seconds 300]

Each table is a real TablePublisher on its own SQLite journal, fed with the engine's own games
(one after another) at the given rate; the hub is the `dominocam hub` process. Measured:
- latency: from the moment an entry is committed at its table to the moment the multi-board's
  stream (/api/event/stream, what /event draws) first shows that table at or past it;
- backlog: entries committed at the tables and not yet acknowledged by the hub, every 10 s;
- the hub's resident memory, every 10 s.
Needs Debian's mosquitto (`make mosquitto`). Prints one JSON object last.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from engine.simulate import random_game  # noqa: E402
from webui.event.credentials import Credentials  # noqa: E402
from webui.event.publisher import PublisherConfig, TablePublisher  # noqa: E402
from webui.event.topics import EventAddress  # noqa: E402
from webui.store import EventStore  # noqa: E402

log = logging.getLogger("bench_event")
USER, PASSWORD = "bench", "bench-password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_broker(folder: Path) -> tuple[subprocess.Popen, int]:
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(mosquitto).exists():
        raise SystemExit("bench_event: Debian's mosquitto is missing: run `make mosquitto`")
    port = free_port()
    subprocess.run([passwd, "-b", "-c", str(folder / "pw"), USER, PASSWORD], check=True, capture_output=True)
    (folder / "m.conf").write_text(f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {folder / 'pw'}\n"
                                   "user root\npersistence false\nlog_dest stderr\nlog_type error\n")
    proc = subprocess.Popen([mosquitto, "-c", str(folder / "m.conf")], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    raise SystemExit("bench_event: mosquitto did not start")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class BenchTable:
    """A table's journal fed with engine games at `rate` entries a second, and its publisher."""

    def __init__(self, folder: Path, number: int, address: EventAddress, rate: float):
        self.number = number
        self.store = EventStore(folder / f"table{number}.db")
        self.rate = rate
        self.appended: dict[int, float] = {}  # journal id -> time.time() when committed
        names = [f"T{number}P{i}" for i in range(1, 5)]
        self.players = names
        self.publisher = TablePublisher(
            address, number, Credentials(USER, PASSWORD), self.store.path,
            lambda fresh: {"table": number, "online": True, "players": names, "ts": time.time()},
            config=PublisherConfig())
        self._games = (self._renamed(random_game("bykovo", seed=1000 * number + g, deals=3)) for g in range(10**6))

    def _renamed(self, events):
        text = json.dumps(events)
        for a, b in zip(events[0]["players"], self.players, strict=True):
            text = text.replace(json.dumps(a), json.dumps(b))
        return json.loads(text)

    def events(self):
        for game in self._games:
            yield from game

    def run(self, stop: threading.Event, start: float) -> None:
        period = 1.0 / self.rate
        due = start + (self.number % 16) * period / 16  # spread the tables over the period
        for event in self.events():
            wait = due - time.monotonic()
            if stop.wait(max(0.0, wait)):
                return
            entry = self.store.append(event, "camera")
            self.appended[entry.id] = time.time()
            self.publisher.notify()
            due += period


def watch(url: str, tables: dict[int, BenchTable], latencies: list[float], acked: dict[int, int],
          stop: threading.Event) -> None:
    host, port = url.split("//")[1].split("/")[0].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", "/api/event/stream", headers={"Accept": "text/event-stream"})
    resp = conn.getresponse()
    shown = {n: 0 for n in tables}
    data: list[str] = []
    for raw in resp:
        if stop.is_set():
            break
        line = raw.decode().rstrip("\r\n")
        if line.startswith("data:"):
            data.append(line[5:])
        elif not line and data:
            now = time.time()
            snap = json.loads("".join(data))
            data = []
            for b in snap["boards"]:
                n, last = b["table"], b["last_id"]
                acked[n] = last
                if n in tables and last > shown[n]:
                    times = tables[n].appended
                    latencies.extend(now - times[i] for i in range(shown[n] + 1, last + 1) if i in times)
                    shown[n] = last


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--rate", type=float, default=2.0, help="entries a second per table")
    ap.add_argument("--seconds", type=float, default=300.0)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    folder = Path(tempfile.mkdtemp(prefix="bench-event-"))
    broker, port = start_broker(folder)
    env = dict(os.environ, DOMINOCAM_EVENT_PASSWORD=PASSWORD)
    hub = subprocess.Popen([sys.executable, "-m", "dominocam", "hub", "--broker", f"mqtt://127.0.0.1:{port}",
                            "--event", "bench", "--db", str(folder / "hub.db"), "--port", "0", "--event-user", USER],
                           stdout=subprocess.PIPE, stderr=open(folder / "hub.log", "wb"), text=True, env=env)  # noqa: SIM115
    url = hub.stdout.readline().split()[-1]
    address = EventAddress.parse(f"mqtt://127.0.0.1:{port}/bench")
    tables = {n: BenchTable(folder, n, address, args.rate) for n in range(1, args.tables + 1)}
    for t in tables.values():
        t.publisher.start()
    latencies: list[float] = []
    acked: dict[int, int] = {}
    stop, stop_watch = threading.Event(), threading.Event()
    threading.Thread(target=watch, args=(url, tables, latencies, acked, stop_watch), daemon=True).start()
    time.sleep(1.0)
    start = time.monotonic()
    feeders = [threading.Thread(target=t.run, args=(stop, start), daemon=True) for t in tables.values()]
    for f in feeders:
        f.start()
    samples = []
    try:
        while time.monotonic() - start < args.seconds:
            time.sleep(min(10.0, max(0.1, args.seconds - (time.monotonic() - start))))
            committed = {n: t.store.last_id for n, t in tables.items()}
            backlog = {n: committed[n] - acked.get(n, 0) for n in tables}
            samples.append({"t": round(time.monotonic() - start), "hub_rss_mb": round(rss_mb(hub.pid), 1),
                            "backlog_total": sum(backlog.values()), "backlog_max": max(backlog.values()),
                            "entries": sum(committed.values())})
            log.warning("%s", samples[-1])
        stop.set()
        drained_at = time.monotonic()
        while any(t.store.last_id > acked.get(n, 0) for n, t in tables.items()) and time.monotonic() - drained_at < 30:
            time.sleep(0.1)
        drain_s = time.monotonic() - drained_at
    finally:
        stop_watch.set()
        for t in tables.values():
            t.publisher.stop()
        hub.terminate()
        hub.wait(20)
        broker.terminate()
        broker.wait(10)
    total = sum(t.store.last_id for t in tables.values())
    result = {
        "benchmark": "event",
        "tables": args.tables, "rate_per_table": args.rate, "seconds": args.seconds,
        "entries": total, "entries_per_s": round(total / args.seconds, 1),
        "latency_ms": {"p50": round(1000 * percentile(latencies, 0.5)), "p95": round(1000 * percentile(latencies, 0.95)),
                       "max": round(1000 * max(latencies, default=float("nan"))), "samples": len(latencies)},
        "backlog_after_stop_drained_s": round(drain_s, 2),
        "hub_rss_mb": {"first": samples[0]["hub_rss_mb"], "last": samples[-1]["hub_rss_mb"],
                       "max": max(s["hub_rss_mb"] for s in samples)},
        "backlog_max_seen": max(s["backlog_max"] for s in samples),
        "samples": samples,
    }
    print(json.dumps(result, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
