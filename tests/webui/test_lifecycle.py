"""A club night's start and stop: the referee's link survives a restart, Ctrl-C with a page open
stops quickly and quietly, a killed server leaves no process behind, a camera that is not there
is reported as missing, and command errors are one plain line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.webui.conftest import wait_for
from webui.app import create_app
from webui.source_pipeline import pipeline_for_source

ROOT = Path(__file__).resolve().parents[2]


class Serve:
    """`dominocam serve` in a process of its own, with what it printed."""

    def __init__(self, db: Path, *args: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dominocam", "serve", "--port", "0", "--db", str(db), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.lines = [self.proc.stdout.readline() for _ in range(3)]
        assert self.lines[0].startswith("spectators: "), f"serve printed {self.lines!r} {self.proc.stderr.read()}"
        self.url = self.lines[0].split(": ", 1)[1].strip()
        self.operator = self.lines[2].split(": ", 1)[1].strip()

    @property
    def token(self) -> str:
        return self.operator.split("token=", 1)[1]

    def interrupt(self, timeout: float = 10.0) -> tuple[float, str]:
        """SIGINT (Ctrl-C); the seconds it took to exit and its stderr."""
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return time.monotonic() - t0, self.proc.stderr.read()


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (children, their children...), from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_operator_link_survives_a_restart_on_the_same_journal(tmp_path):
    db = tmp_path / "club.db"
    first = Serve(db, "--source", "none")
    first.interrupt()
    second = Serve(db, "--source", "none")
    try:
        assert second.token == first.token  # the same link works after a restart
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # keeps the session
        with browser.open(second.operator, timeout=5) as r:
            assert "csrf-token" in r.read().decode()  # logged in: the operator page itself
    finally:
        second.interrupt()
    renewed = Serve(db, "--source", "none", "--new-token")
    renewed.interrupt()
    assert renewed.token != first.token
    given = Serve(db, "--source", "none", "--token", "club-secret")
    given.interrupt()
    assert given.token == "club-secret"
    kept = Serve(db, "--source", "none")
    kept.interrupt()
    assert kept.token == "club-secret"


def test_ctrl_c_with_a_page_open_stops_within_two_seconds_without_a_traceback(tmp_path):
    server = Serve(tmp_path / "j.db", "--source", "none")
    opened = threading.Event()

    def live_page() -> None:  # an open spectator page: its Server-Sent Events stream
        try:
            with urllib.request.urlopen(server.url + "api/events", timeout=30) as r:
                opened.set()
                while r.read(64):
                    pass
        except OSError:
            pass

    threading.Thread(target=live_page, daemon=True).start()
    assert opened.wait(5)
    time.sleep(0.3)
    seconds, stderr = server.interrupt()
    assert server.proc.returncode == 0
    assert seconds < 2.0, f"took {seconds:.1f} s to stop"
    assert "Traceback" not in stderr and "still running" not in stderr, stderr


@pytest.mark.slow
def test_after_sigkill_no_process_of_the_server_remains(tmp_path):
    """The demo reads in worker processes (forkserver, workers, resource tracker): all go with it."""
    server = Serve(tmp_path / "demo.db", "--source", "demo")
    try:
        helpers = wait_for(lambda: descendants(server.proc.pid) if len(descendants(server.proc.pid)) >= 3 else None,
                           timeout=60, interval=0.25)
        time.sleep(0.5)
        helpers |= descendants(server.proc.pid)
    finally:
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(5)
    try:
        wait_for(lambda: not any(running(p) for p in helpers), timeout=5)
    finally:
        for p in helpers:
            if running(p):
                os.kill(p, signal.SIGKILL)


def test_a_camera_that_is_not_there_is_reported_as_missing(tmp_path):
    pipeline = pipeline_for_source("/dev/video9", variant="bykovo", players=["Anna", "Boris", "Vera", "Gleb"])
    app = create_app({"DB_PATH": str(tmp_path / "j.db"), "OPERATOR_TOKEN": "t", "PIPELINE": pipeline})
    try:
        client = app.test_client()
        camera = wait_for(lambda: (c := client.get("/api/state?lang=en").get_json()["camera"])["state"] == "missing"
                          and c, timeout=5)
        assert camera["message"] == "no camera at /dev/video9"
        assert camera["hint"].startswith("No camera at /dev/video9:")
        assert camera["retry_in"] > 0  # still looked for, with back-off
        russian = client.get("/api/state?lang=ru").get_json()["camera"]
        assert russian["text"] == "камеры нет · ищем снова" and "/dev/video9" in russian["hint"]
    finally:
        app.extensions["dominocam"].close()


def test_a_command_error_is_one_plain_line(tmp_path):
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    done = subprocess.run([sys.executable, "-m", "dominocam", "read", str(empty)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"dominocam: {empty}: empty file"]
    verbose = subprocess.run([sys.executable, "-m", "dominocam", "-v", "read", str(empty)], capture_output=True,
                             text=True, cwd=ROOT, timeout=120)
    assert " ERROR dominocam.read: " in verbose.stderr  # timestamps and names only under --verbose


def test_on_every_address_the_terminal_and_the_qr_code_give_the_lan_address(make_app, monkeypatch):
    import segno

    import webui.security
    import webui.server
    import webui.views_spectator
    from webui.server import lan_urls, make_server, server_url

    monkeypatch.setattr(webui.security, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    monkeypatch.setattr(webui.server, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    monkeypatch.setattr(webui.views_spectator, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    app = make_app(BIND_HOST="0.0.0.0", PORT=8765)
    server = make_server(app, "127.0.0.1", 0)  # bound here to loopback: only the printed words are checked
    try:
        port = server.effective_port
        assert server_url(server, "0.0.0.0") == f"http://192.168.1.20:{port}/"
        assert lan_urls(server, "0.0.0.0") == [f"http://192.168.1.20:{port}/", f"http://10.0.0.5:{port}/"]
        assert server_url(server, "127.0.0.1") == f"http://127.0.0.1:{port}/"
    finally:
        server.close()
    seen: list[str] = []
    real = segno.make
    monkeypatch.setattr(segno, "make", lambda url, **kw: (seen.append(url), real(url, **kw))[1])
    page = app.test_client().get("/", headers={"Host": "127.0.0.1:8765"}).get_data(as_text=True)
    assert "http://192.168.1.20:8765/" in page  # the address under the QR code
    assert seen == ["http://192.168.1.20:8765/"]  # and the QR code's own
