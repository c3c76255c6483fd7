"""A table publishes its journal to the event (issue 27). The SQLite journal stays the source of
truth: the table plays on while the broker is away, and on every (re)connect it publishes from
the last entry the hub acknowledged (the hub's retained `…/ack`).

Flow, on one thread of its own (the broker's callbacks only set flags and wake it):
- entries: rows with id > cursor, QoS 1, at most `window` unacknowledged at a time. After a
  reconnect, and whenever the hub's ack has not moved for `resend_s` while entries are owed, the
  cursor goes back to the ack (the hub stores by table and journal id, so a repeat is harmless).
- state: retained, at most every `state_min_s` after a change, and every `state_every_s`;
  `state(fresh_thumbnail)` builds it (a fresh thumbnail every `state_every_s`).
- status: retained {"online": true} on connect; the last will (and a clean stop) say offline.
- seat: the hub's retained seating for this table is handed to `on_seat` (on this thread).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from webui.event.connection import Connection, Will
from webui.event.credentials import Credentials
from webui.event.rows import JournalRows
from webui.event.topics import EntryMessage, EventAddress, decode_json, encode_json, table_topic

log = logging.getLogger(__name__)

OFFLINE = encode_json({"online": False})


@dataclass(frozen=True)
class PublisherConfig:
    resend_s: float = 3.0  # the hub's ack has not moved this long: publish again from it
    ack_grace_s: float = 0.5  # after connecting, wait this long for the retained ack
    window: int = 256  # entries published and not yet acknowledged, at most
    state_min_s: float = 0.5
    state_every_s: float = 3.0  # a fresh thumbnail this often


class TablePublisher:
    def __init__(self, address: EventAddress, table: int, credentials: Credentials, db_path: str,
                 state: Callable[[bool], dict[str, Any]], *, config: PublisherConfig | None = None,
                 on_seat: Callable[[dict[str, Any]], None] | None = None):
        if table < 1:
            raise ValueError(f"--table must be a table number from 1, got {table}")
        self.address = address
        self.table = table
        self.config = config or PublisherConfig()
        self._state = state
        self._on_seat = on_seat
        self._rows = JournalRows(db_path)
        self._topic = {k: table_topic(address.event, table, k) for k in ("events", "state", "status", "ack", "seat")}
        self.conn = Connection(address.broker, credentials, f"dominocam-{address.event}-table-{table}",
                               who=f"event {address.event}, table {table}",
                               will=Will(self._topic["status"], OFFLINE))
        self.conn.on_connected = self._connected
        self.conn.on_message = self._message
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._acked = -1  # -1: not heard from the hub since this process started
        self._cursor = 0
        self._progress_at = time.monotonic()
        self._ready_at: float | None = None  # connected, waiting for the retained ack until then
        self._seat: dict[str, Any] | None = None
        self._state_dirty = True
        self._state_at = 0.0
        self._thumb_at = 0.0
        self.published = 0  # entry messages handed to the broker (repeats included)
        self._thread = threading.Thread(target=self._run, name=f"event-table-{table}", daemon=True)

    # -- lifecycle
    def start(self) -> None:
        self.conn.start()
        self._thread.start()
        log.info("table %d publishes to %s", self.table, self.address)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(5)
        self.conn.stop(last=(self._topic["status"], OFFLINE))

    def notify(self, *_: Any) -> None:
        """The journal changed (a webui.hub.Hub listener)."""
        with self._lock:
            self._state_dirty = True
        self._wake.set()

    @property
    def acked(self) -> int:
        with self._lock:
            return max(0, self._acked)

    # -- broker callbacks (paho's thread): flags only
    def _connected(self) -> None:
        self.conn.subscribe(self._topic["ack"])
        self.conn.subscribe(self._topic["seat"])
        self.conn.publish(self._topic["status"], encode_json({"online": True, "table": self.table}), retain=True)
        with self._lock:
            self._cursor = max(0, self._acked)
            self._ready_at = time.monotonic() + self.config.ack_grace_s
            self._progress_at = time.monotonic()
            self._state_dirty = True
            self._thumb_at = 0.0
        self._wake.set()

    def _message(self, topic: str, payload: bytes) -> None:
        try:
            obj = decode_json(payload)
        except ValueError:
            log.warning("table %d: ignored a malformed message on %s", self.table, topic)
            return
        if topic == self._topic["ack"]:
            try:
                acked = int(obj.get("id", 0))
            except (TypeError, ValueError):
                return
            with self._lock:
                if acked > self._acked:
                    self._acked = acked
                    self._progress_at = time.monotonic()
                self._cursor = max(self._cursor, acked)
                if self._ready_at is not None:
                    self._ready_at = min(self._ready_at, time.monotonic())
            self._wake.set()
        elif topic == self._topic["seat"]:
            with self._lock:
                self._seat = obj
            self._wake.set()

    # -- the publisher's own thread
    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.25)
            self._wake.clear()
            try:
                self._hand_over_seat()
                if self.conn.connected:
                    self._pump()
                    self._maybe_state()
            except Exception:
                log.exception("table %d: publishing failed; retrying", self.table)
                self._stop.wait(1.0)
        self._rows.close()

    def _hand_over_seat(self) -> None:
        with self._lock:
            seat, self._seat = self._seat, None
        if seat and self._on_seat is not None:
            self._on_seat(seat)

    def _pump(self) -> None:
        now = time.monotonic()
        with self._lock:
            if self._ready_at is None or now < self._ready_at:
                return
            acked = max(0, self._acked)
            if self._cursor <= acked:
                self._progress_at = now  # nothing owed: the wait for the next ack starts now
            elif now - self._progress_at > self.config.resend_s:
                log.info("table %d: the hub has acknowledged up to %d of %d; publishing again from there",
                         self.table, acked, self._cursor)
                self._cursor = acked
                self._progress_at = now
            room = self.config.window - (self._cursor - acked)
            cursor = self._cursor
        if room <= 0:
            return
        rows = self._rows.after(cursor, room)
        for row in rows:
            if not self.conn.connected:
                break
            msg = EntryMessage(self.table, row.id, row.ts, row.source, row.body)
            self.conn.publish(self._topic["events"], msg.encode(), qos=1)
            self.published += 1
            with self._lock:
                self._cursor = max(self._cursor, row.id)
        if rows and len(rows) == room:
            self._wake.set()  # more to send once acks come in

    def _maybe_state(self) -> None:
        now = time.monotonic()
        with self._lock:
            due_thumb = now - self._thumb_at >= self.config.state_every_s
            due = due_thumb or (self._state_dirty and now - self._state_at >= self.config.state_min_s)
            if not due:
                return
            self._state_dirty = False
            self._state_at = now
            if due_thumb:
                self._thumb_at = now
        message = self._state(due_thumb)
        self.conn.publish(self._topic["state"], encode_json(message), qos=0, retain=True)
