"""`dominocam serve … --event` tables and a `dominocam hub`, as the real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.event.conftest import PASSWORD, USER, wait_for

TOKEN = "hub-operator-token"


def _dominocam(args: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "dominocam", *args], stdout=subprocess.PIPE,
                            stderr=open(log, "ab"), text=True, env=env)  # noqa: SIM115


class TableProcess:
    def __init__(self, folder: Path, number: int, broker_url: str, record: Path, pace: float = 0.1):
        self.number = number
        self.db = folder / f"table{number}.db"
        self.log = folder / f"table{number}.log"
        (folder / "password").write_text(PASSWORD + "\n")
        self.args = ["serve", "--source", str(record), "--pace", str(pace), "--db", str(self.db), "--port", "0",
                     "--event", f"{broker_url}/cup", "--table", str(number), "--event-user", USER,
                     "--event-password-file", str(folder / "password")]
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.proc = _dominocam(self.args, self.log)
        self.url = self.proc.stdout.readline().split()[-1]  # "spectators: http://127.0.0.1:PORT/"

    def kill(self) -> None:
        """SIGKILL: no clean disconnect, no last words (the broker's will says offline)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class HubProcess:
    def __init__(self, folder: Path, broker_url: str, event: str = "cup"):
        env = dict(os.environ, DOMINOCAM_EVENT_PASSWORD=PASSWORD)
        self.log = folder / "hub.log"
        self.proc = _dominocam(["hub", "--broker", broker_url, "--event", event, "--db", str(folder / "hub.db"),
                                "--port", "0", "--token", TOKEN, "--event-user", USER], self.log, env)
        self.url = self.proc.stdout.readline().split()[-1].removesuffix("event")  # "tables: http://…/event"

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, event: dict) -> dict:
        req = urllib.request.Request(self.url.rstrip("/") + "/api/event/log", data=json.dumps(event).encode(),
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def rows(self, table: int) -> list[tuple]:
        return [(r["id"], r["ts"], r["source"], r["body"]) for r in self.get(f"/api/event/table/{table}/journal")["rows"]]

    def wait_ready(self) -> None:
        wait_for(lambda: self.get("/api/event/boards") is not None, 10, what="the hub's pages")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
