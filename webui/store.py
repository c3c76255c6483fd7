"""The journal: every event, in order, in SQLite, written durably before anyone sees it.

The journal is append-only. Camera moves, operator corrections and undos are all rows; nothing is
ever updated or deleted (see webui/journal.py for how they fold into the game record).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Entry:
    id: int
    ts: float
    source: str  # "camera" | "operator" | "system" | "record"
    event: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "ts": self.ts, "source": self.source, "event": self.event}


_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ts REAL NOT NULL,
    source TEXT NOT NULL,
    body TEXT NOT NULL
)
"""
# Settings that are not part of any game (the operator's table calibration).
_SETTINGS = "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


class EventStore:
    """An append-only journal in one SQLite file (WAL, synchronous=FULL), cached in memory.

    Thread-safe. `append` returns only after the row is committed to disk.
    """

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(_SCHEMA)
            self._db.execute(_SETTINGS)
            rows = self._db.execute("SELECT id, ts, source, body FROM journal ORDER BY id").fetchall()
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{self.path}: not a dominocam journal ({exc}); pass another --db") from exc
        self._entries = [Entry(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def append(self, event: dict[str, Any], source: str, ts: float | None = None) -> Entry:
        body = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            ts = time.time() if ts is None else ts
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "INSERT INTO journal (ts, source, body) VALUES (?, ?, ?)", (ts, source, body)
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            entry = Entry(int(cur.lastrowid), ts, source, json.loads(body))
            self._entries.append(entry)
            return entry

    def entries(self, after: int = 0) -> list[Entry]:
        with self._lock:
            if after <= 0:
                return list(self._entries)
            return [e for e in self._entries if e.id > after]

    @property
    def last_id(self) -> int:
        with self._lock:
            return self._entries[-1].id if self._entries else 0

    def get_setting(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                             (key, json.dumps(value)))

    def close(self) -> None:
        with self._lock:
            self._db.close()
