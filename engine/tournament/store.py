"""Append-only tournament records on disk: one JSON line per result, fsynced before returning.

A line is only appended after the whole record, with it, replays cleanly, so a stored record is
always valid; a restart replays the file and loses nothing that was acknowledged.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from pathlib import Path

from engine.tournament import replay_lines, replay_state
from engine.tournament.errors import TournamentError
from engine.tournament.records import parse_lines, read_lines

_lock = threading.Lock()  # one writer at a time inside this process; flock covers other processes


def dumps(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


def _write_line(path: Path, line: str, *, create: bool) -> None:
    flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT | os.O_EXCL if create else 0)
    fd = os.open(path, flags, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, (line + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    if create:
        # The new name itself must survive a crash, not only the file's bytes.
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def create(path: str | Path, declaration: dict) -> dict:
    """Start a new record with its declaration line; refuses to overwrite an existing event.
    Returns the replay JSON of the empty event. Raises TournamentError."""
    path = Path(path)
    line = dumps(declaration)
    lines = parse_lines(line)
    result = replay_lines(lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _lock:
        try:
            _write_line(path, line, create=True)
        except FileExistsError:
            raise TournamentError("already exists; pick another event name", path=str(path)) from None
    return result


def append(path: str | Path, record: dict) -> dict:
    """Validate `record` against the stored event, then append and fsync it.
    Returns the replay JSON with the record applied. Raises TournamentError (nothing written)."""
    path = Path(path)
    with _lock:
        lines = read_lines(path)
        lineno = lines[-1][0] + 1
        new = record
        if not isinstance(new, dict) or not isinstance(new.get("event"), str):
            raise TournamentError('a record line needs an "event" key', path=str(path), lineno=lineno)
        if new["event"] == "tournament":
            raise TournamentError("the event is already declared; append results only", path=str(path), lineno=lineno)
        try:
            result = replay_lines([*lines, (lineno, new)])
        except TournamentError as exc:
            raise exc.at(path=str(path)) from None
        _write_line(path, dumps(new), create=False)
    return result


def load(path: str | Path):
    """Replay a stored record into its state object (after a restart, for instance)."""
    lines = read_lines(path)
    try:
        return replay_state(lines)
    except TournamentError as exc:
        raise exc.at(path=str(path)) from None
