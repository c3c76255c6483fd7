"""Kill the real server with SIGKILL mid-deal, start it again: the same state and record."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from engine.record import dumps_event
from tests.webui.conftest import engine_game, wait_for

ENGINE_KEYS = ("variant", "flags", "deals", "totals", "finished", "loser", "standings", "layout", "to_move")


class Server:
    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dominocam", "serve", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        line = self.proc.stdout.readline()  # "spectators: http://127.0.0.1:PORT/"
        assert line.startswith("spectators: "), f"serve printed {line!r}"
        self.url = line.split(": ", 1)[1].strip().rstrip("/")

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=5) as r:
            return r.read()

    def record(self) -> list[dict]:
        return [json.loads(line) for line in self.get("/api/record").decode().splitlines()]

    def state(self) -> dict:
        return json.loads(self.get("/api/state"))

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def game_file(tmp_path):
    events = engine_game(seed=21, deals=1)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(dumps_event(e) + "\n" for e in events))
    return path, events


@pytest.mark.slow
def test_sigkill_mid_deal_then_restart_gives_the_same_state_and_record(tmp_path, game_file):
    path, events = game_file
    db = str(tmp_path / "live.db")
    first = Server("--source", str(path), "--pace", "0.05", "--moves", "9", "--db", db)
    try:
        wait_for(lambda: len(first.record()) == 10, timeout=20)
        before_record, before_state = first.record(), first.state()
        assert first.state()["camera"]["state"] == "live"  # still running, mid-deal
        assert before_state["deals"][-1]["end"] == "unfinished"
        first.kill()
    finally:
        first.stop()
    second = Server("--source", "none", "--db", db)
    try:
        assert second.record() == before_record == events[:10]
        after = second.state()
        for key in ENGINE_KEYS:
            assert after[key] == before_state[key], key
        assert after["moves"] == before_state["moves"]
    finally:
        second.stop()


@pytest.mark.slow
def test_sigkill_while_moves_stream_in_loses_nothing_that_was_shown(tmp_path, game_file):
    path, events = game_file
    db = str(tmp_path / "busy.db")
    first = Server("--source", str(path), "--pace", "0.02", "--db", db)
    try:
        wait_for(lambda: len(first.record()) >= 8, timeout=20)
        shown = first.record()
        first.kill()  # while the replay keeps writing
    finally:
        first.stop()
    second = Server("--source", "none", "--db", db)
    try:
        after = second.record()
        assert after[: len(shown)] == shown  # everything a page saw survived
        assert after == events[: len(after)]  # and nothing half-written or out of order
    finally:
        second.stop()
