"""The event hub's own SQLite: every table's journal entries and the event's own log.

- `entries`: one row per (table, journal id), exactly the table's `ts`, `source` and JSON `body`.
  Storing is idempotent: a repeat of the same entry is ignored, so a duplicate never doubles a
  move. What the hub acknowledges to a table is the highest id up to which it holds every entry.
- `log`: the event's own append-only entries (the tournament's declaration, results the tables
  finished or the operator entered, no-shows, corrections, seatings, round starts). A `key`
  makes an automatic entry idempotent (a finished game is entered once, whatever replays).

WAL, synchronous=FULL: an entry is on disk before the hub acknowledges it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webui.event.rows import Row
from webui.store import Entry

log = logging.getLogger(__name__)

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS entries (
        table_no INTEGER NOT NULL, id INTEGER NOT NULL, ts REAL NOT NULL, source TEXT NOT NULL,
        body TEXT NOT NULL, received REAL NOT NULL, PRIMARY KEY (table_no, id)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS log (
        id INTEGER PRIMARY KEY AUTOINCREMENT, ts REAL NOT NULL, source TEXT NOT NULL,
        body TEXT NOT NULL, key TEXT UNIQUE)""",
)


@dataclass(frozen=True)
class LogEntry:
    id: int
    ts: float
    source: str  # "operator" | "table N"
    event: dict[str, Any]
    key: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "ts": self.ts, "source": self.source, "event": self.event, "key": self.key}


class _Table:
    """One table in memory: how far its entries are held without a gap, what came in ahead of a
    gap, and only the current game's entries (so the hub's memory stays flat over an event).

    The current game starts at the last `game` entry: a table's journal never undoes a game
    (webui/journal.py), so nothing before it changes the current game. A game superseded by a
    new one waits in `closed` until the hub has entered what it gives the tournament."""

    def __init__(self) -> None:
        self.acked = 0
        self.ahead: dict[int, Row] = {}
        self.current: list[Entry] = []
        self.closed: list[list[Entry]] = []

    def add(self, row: Row) -> None:
        self.ahead[row.id] = row
        while self.acked + 1 in self.ahead:
            r = self.ahead.pop(self.acked + 1)
            self.acked = r.id
            entry = Entry(r.id, r.ts, r.source, json.loads(r.body))
            if entry.event.get("event") == "game" and self.current:
                self.closed.append(self.current)
                self.current = []
            self.current.append(entry)


class HubStore:
    """Thread-safe. `add_entry` returns only after a new row is committed."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            for statement in _SCHEMA:
                self._db.execute(statement)
            rows = self._db.execute("SELECT table_no, id, ts, source, body FROM entries ORDER BY table_no, id")
            self._tables: dict[int, _Table] = {}
            for table_no, *row in rows:
                self._tables.setdefault(int(table_no), _Table()).add(Row(int(row[0]), float(row[1]), row[2], row[3]))
            logs = self._db.execute("SELECT id, ts, source, body, key FROM log ORDER BY id").fetchall()
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{self.path}: not a dominocam hub database ({exc}); pass another --db") from exc
        self._log = [LogEntry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in logs]

    # -- table entries
    def add_entry(self, table: int, row: Row) -> bool:
        """Store one entry of a table's journal; False when it is already stored (nothing written)."""
        with self._lock:
            held = self._tables.setdefault(table, _Table())
            if row.id <= held.acked or row.id in held.ahead:
                known = held.ahead.get(row.id) or self._row(table, row.id)
                if known != row:
                    log.warning("table %d sent journal entry %d again with other content; the first is kept "
                                "(was its journal replaced? give the table a fresh number)", table, row.id)
                return False
            self._db.execute(
                "INSERT OR IGNORE INTO entries (table_no, id, ts, source, body, received) VALUES (?, ?, ?, ?, ?, ?)",
                (table, row.id, row.ts, row.source, row.body, time.time()),
            )
            held.add(row)
            return True

    def _row(self, table: int, id: int) -> Row | None:
        r = self._db.execute("SELECT id, ts, source, body FROM entries WHERE table_no = ? AND id = ?",
                             (table, id)).fetchone()
        return Row(int(r[0]), float(r[1]), r[2], r[3]) if r else None

    def tables(self) -> list[int]:
        with self._lock:
            return sorted(self._tables)

    def acked(self, table: int) -> int:
        """The highest journal id up to which every entry of the table is stored."""
        with self._lock:
            held = self._tables.get(table)
            return held.acked if held else 0

    def rows(self, table: int) -> list[Row]:
        """The table's stored entries up to the first gap, in journal order (read from disk)."""
        with self._lock:
            held = self._tables.get(table)
            if held is None:
                return []
            found = self._db.execute(
                "SELECT id, ts, source, body FROM entries WHERE table_no = ? AND id <= ? ORDER BY id",
                (table, held.acked)).fetchall()
        return [Row(int(r[0]), float(r[1]), r[2], r[3]) for r in found]

    def entries(self, table: int) -> list[Entry]:
        """The current game's journal entries (webui.store.Entry), from its `game` entry on."""
        with self._lock:
            held = self._tables.get(table)
            return list(held.current) if held else []

    def take_closed(self, table: int) -> list[list[Entry]]:
        """The games superseded since the last call (each from its `game` entry), handed over once."""
        with self._lock:
            held = self._tables.get(table)
            if held is None:
                return []
            closed, held.closed = held.closed, []
            return closed

    def waiting(self, table: int) -> int:
        """Entries held beyond a gap (received out of order, waiting for the missing one)."""
        with self._lock:
            held = self._tables.get(table)
            return len(held.ahead) if held else 0

    # -- the event's own log
    def append_log(self, event: dict[str, Any], source: str, key: str | None = None) -> LogEntry | None:
        """Append to the event's log; None when `key` is already there (nothing written)."""
        body = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            if key is not None and any(e.key == key for e in self._log):
                return None
            ts = time.time()
            cur = self._db.execute("INSERT INTO log (ts, source, body, key) VALUES (?, ?, ?, ?)", (ts, source, body, key))
            entry = LogEntry(int(cur.lastrowid), ts, source, json.loads(body), key)
            self._log.append(entry)
            return entry

    def log_entries(self) -> list[LogEntry]:
        with self._lock:
            return list(self._log)

    def close(self) -> None:
        with self._lock:
            self._db.close()
