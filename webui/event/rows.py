"""The table's journal rows exactly as SQLite holds them (read-only; webui/store.py writes them).

The publisher reads the file, not the in-memory cache, so what goes over the wire is the stored
text byte for byte, and an entry is published only once it is committed.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    id: int
    ts: float
    source: str
    body: str


class JournalRows:
    """One read-only connection to a table's journal; use it from one thread."""

    def __init__(self, path: str):
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
        return self._db

    def after(self, last_id: int, limit: int) -> list[Row]:
        """Up to `limit` rows with id > last_id, in id order."""
        rows = self._conn().execute(
            "SELECT id, ts, source, body FROM journal WHERE id > ? ORDER BY id LIMIT ?", (last_id, limit)
        ).fetchall()
        return [Row(int(r[0]), float(r[1]), str(r[2]), str(r[3])) for r in rows]

    def last_id(self) -> int:
        row = self._conn().execute("SELECT MAX(id) FROM journal").fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
