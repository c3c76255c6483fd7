"""Append-only records: each result is fsynced; a restart mid-event loses nothing."""

from __future__ import annotations

import os

import pytest

from engine.tournament import TournamentError, replay_file, store

DECL = {"event": "tournament", "format": "bykovo-micro", "players": ["A", "B", "C", "D", "E"], "seed": 3}


def test_restart_mid_event_loses_nothing(tmp_path):
    path = tmp_path / "event.jsonl"
    live = store.create(path, DECL)
    results = []
    for points in ([0, 9, 14, 20], [3, 0, 8, 30], [11, 2, 0, 5]):
        seated = live["next_seated"]
        rec = {"event": "result", "points": dict(zip(seated, points, strict=True))}
        live = store.append(path, rec)
        results.append(rec)
    # "Restart": nothing in memory survives; the state comes back from the file alone.
    assert replay_file(path) == live
    assert store.load(path).to_json() == live
    assert len(path.read_text().splitlines()) == 1 + len(results)
    # ... and the event goes on from where it was.
    seated = live["next_seated"]
    after = store.append(path, {"event": "result", "points": {p: 1 for p in seated}})
    assert len(after["deals"]) == 4


def test_every_append_is_fsynced(tmp_path, monkeypatch):
    path = tmp_path / "event.jsonl"
    state = store.create(path, DECL)
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    for _ in range(3):
        state = store.append(path, {"event": "result", "points": {p: 2 for p in state["next_seated"]}})
    assert len(calls) == 3


def test_rejected_records_leave_the_file_untouched(tmp_path):
    path = tmp_path / "event.jsonl"
    store.create(path, DECL)
    before = path.read_bytes()
    for bad in ({"event": "result", "points": {"Z": 1}}, {"event": "tournament"}, {"points": {}}):
        with pytest.raises(TournamentError):
            store.append(path, bad)
    assert path.read_bytes() == before
    with pytest.raises(TournamentError, match="already exists"):
        store.create(path, DECL)
    with pytest.raises(TournamentError, match="4 to 7"):
        store.create(tmp_path / "other.jsonl", {**DECL, "players": ["A", "B"]})
    assert not (tmp_path / "other.jsonl").exists()
