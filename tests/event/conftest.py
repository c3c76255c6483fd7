"""Real parts for the event tests: Debian's mosquitto broker (installed by `make test`'s set-up,
`make mosquitto`) started on a free port with a password file, real tables and a real hub.
Nothing is mocked between a table and the hub."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from engine.simulate import random_game
from webui.event.credentials import Credentials

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
USER, PASSWORD = "club", "s3cret-for-tests"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.05, what: str = "condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"{what} not met within {timeout} s")


class Mosquitto:
    """One mosquitto process on a fixed free port; `stop()` / `start()` again keep the port."""

    def __init__(self, folder: Path):
        if not Path(MOSQUITTO).exists():
            raise RuntimeError("Debian's mosquitto is missing: run `make mosquitto` (apt-get install mosquitto)")
        self.port = free_port()
        self.folder = folder
        self.passwords = folder / "passwords"
        subprocess.run([MOSQUITTO_PASSWD, "-b", "-c", str(self.passwords), USER, PASSWORD], check=True,
                       capture_output=True)
        self.passwords.chmod(0o600)
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous false\npassword_file {self.passwords}\n"
            "user root\npersistence false\nlog_dest stderr\nlog_type error\nlog_type warning\n"
        )
        self.proc: subprocess.Popen | None = None
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.folder / "mosquitto.log", "ab"))  # noqa: SIM115
        wait_for(self._listening, 10, what="mosquitto listening")

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


@pytest.fixture
def broker(tmp_path):
    b = Mosquitto(tmp_path)
    b.start()
    yield b
    b.stop()


@pytest.fixture
def credentials() -> Credentials:
    return Credentials(USER, PASSWORD)


def renamed(events: list[dict], names: list[str]) -> list[dict]:
    """An engine game with its players renamed (the game's seat order = `names`)."""
    old = events[0]["players"]
    text = json.dumps(events, ensure_ascii=False)
    for a, b in zip(old, names, strict=True):
        text = text.replace(json.dumps(a), json.dumps(b))
    return json.loads(text)


def baltic_game(names: list[str], seed: int) -> list[dict]:
    """A whole Baltic game (to 151, BAL-6) played by the engine's random players."""
    return renamed(random_game("baltic", seed=seed), names)


def write_record(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
    return path


def journal_rows(db: Path) -> list[tuple]:
    import sqlite3

    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT id, ts, source, body FROM journal ORDER BY id").fetchall()
