"""Fixtures for the web tests: an app on a temp journal, a controllable fake pipeline, a real
waitress server on a free port, and games played by the engine (never hand-written results)."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from tests.chromium import browser  # noqa: F401 - the browser fixture of the browser tests
from vision.live.protocol import LIVE, FrameUpdate, SourceStatus
from webui.app import create_app
from webui.server import make_server

TOKEN = "test-operator-token"


class FakePipeline:
    """A pipeline the test drives: `push(frame, status)` and `emit(event)`; or `auto_frames` for a
    steady picture. Implements vision.live.protocol.Pipeline."""

    def __init__(self, auto_fps: float | None = 20.0, size=(320, 240)):
        self.updates: queue.Queue = queue.Queue()
        self.sink = None
        self.closed = threading.Event()
        self.auto_fps = auto_fps
        self.size = size
        self.status = SourceStatus(LIVE, "fake camera")
        self.resumed: list[list[dict]] = []
        self.frame_no = 0

    def on_events(self, sink) -> None:
        self.sink = sink

    def on_flags(self, sink) -> None:
        self.flag_sink = sink
        self.raised: list[dict] = []

    def raise_flag(self, kind: str, message: str, rule: str, tile=None, player=None) -> None:
        """A flag as vision.live's pipeline raises one (take-back, misread...)."""
        self.raised.append({"kind": kind, "rule": rule, "t": float(len(self.raised)), "message": message,
                            "tile": tile, "player": player, "n": len(self.raised) + 1})
        self.flag_sink(list(self.raised))

    def resume(self, record) -> None:
        self.resumed.append(list(record))

    def emit(self, event: dict):
        return self.sink(event)

    def push(self, frame, status: SourceStatus | None = None) -> None:
        self.updates.put(FrameUpdate(frame, status or self.status))

    def make_frame(self) -> np.ndarray:
        w, h = self.size
        img = np.zeros((h, w, 3), np.uint8)
        img[:, :, 1] = 90
        img[10:30, 10 + (self.frame_no % (w - 40)) : 30 + (self.frame_no % (w - 40))] = 255
        self.frame_no += 1
        return img

    def frames(self) -> Iterator[FrameUpdate]:
        period = 1.0 / self.auto_fps if self.auto_fps else None
        while not self.closed.is_set():
            try:
                yield self.updates.get(timeout=period or 0.05)
                continue
            except queue.Empty:
                pass
            if period:
                yield FrameUpdate(self.make_frame(), self.status)

    def close(self) -> None:
        self.closed.set()


@pytest.fixture
def make_app(tmp_path):
    apps = []

    def make(**overrides):
        config = {"DB_PATH": str(tmp_path / "journal.db"), "OPERATOR_TOKEN": TOKEN,
                  "PLAYERS": ["Anna", "Boris", "Vera", "Gleb"], "SSE_KEEPALIVE_S": 0.2} | overrides
        app = create_app(config)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["dominocam"].close()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


BEARER = {"Authorization": f"Bearer {TOKEN}"}


class ServerThread:
    """A real waitress server for an app, on a free port, in a thread."""

    def __init__(self, app, port: int = 0):
        self.app = app
        self.server = make_server(app, "127.0.0.1", port)
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.app.extensions["dominocam"].stop_streams()  # end open SSE / MJPEG responses
        self.server.close()
        self.thread.join(5)


@pytest.fixture
def serve():
    servers = []

    def start(app, port: int = 0) -> ServerThread:
        s = ServerThread(app, port)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


def engine_game(seed: int = 1, deals: int = 1, variant: str = "bykovo", camera: bool = False) -> list[dict]:
    """A legal game played by the engine's own random players."""
    from engine.simulate import random_game

    return random_game(variant, seed=seed, deals=deals, camera=camera)


def wait_for(predicate, timeout: float = 5.0, interval: float = 0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout} s")


class SSEReader:
    """Reads Server-Sent Events from a real server on a thread; `.events` is a queue of
    (event, id, data) tuples."""

    def __init__(self, url: str, last_event_id: int | None = None, query: str = ""):
        import http.client
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", "/api/events" + query, headers=headers)
        self.response = self.conn.getresponse()
        self.events: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        kind, eid, data = "message", None, []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if data:
                        self.events.put((kind, eid, "\n".join(data)))
                    kind, eid, data = "message", None, []
                elif line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("id:"):
                    eid = int(line[3:].strip())
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
        except Exception:
            pass

    def next(self, kind: str, timeout: float = 5.0):
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind!r} event within {timeout} s")
            try:
                got = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if got[0] == kind:
                return got

    def until(self, kind: str, predicate, timeout: float = 5.0) -> dict:
        """The first `kind` event whose JSON data satisfies `predicate`."""
        end = time.monotonic() + timeout
        while True:
            data = json.loads(self.next(kind, max(0.01, end - time.monotonic()))[2])
            if predicate(data):
                return data

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.sock.shutdown(2)
        self.conn.close()
