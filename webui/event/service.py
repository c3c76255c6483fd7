"""The event hub's running part: subscribes to every table, stores and acknowledges entries,
keeps each table's board and enters the results the tables finish into the tournament.

Threads: paho's network thread only stores an entry (durably), acknowledges it (retained
`…/ack`) and marks the table dirty; one worker thread rebuilds the dirty tables' boards (at most
every `rebuild_s`) and feeds the tournament; pages wait on one condition variable.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from engine.tournament import TournamentError
from webui.event import calls, feed
from webui.event.board import board
from webui.event.connection import Connection
from webui.event.credentials import Credentials
from webui.event.hubstore import HubStore, LogEntry
from webui.event.rows import Row
from webui.event.topics import (
    Broker,
    EntryMessage,
    all_tables,
    decode_json,
    encode_json,
    parse_topic,
    table_topic,
)
from webui.state import build_state, replay

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HubConfig:
    rebuild_s: float = 0.1  # a busy table's board is rebuilt at most this often
    call_before_s: float = 600.0  # BAL-T: players are called ten minutes before their game


class EventHub:
    def __init__(self, store: HubStore, broker: Broker, event: str, credentials: Credentials,
                 config: HubConfig | None = None):
        self.store = store
        self.event = event
        self.config = config or HubConfig()
        self.conn = Connection(broker, credentials, f"dominocam-hub-{event}", who=f"hub of event {event}",
                               clean=False)
        self.conn.on_connected = self._connected
        self.conn.on_message = self._message
        self._cond = threading.Condition()
        self._version = 0
        self._dirty: set[int] = set(store.tables())
        self._online: dict[int, bool] = {}
        self._published: dict[int, dict[str, Any]] = {}
        self._boards: dict[int, dict[str, Any]] = {}
        self._tournament: tuple[int, dict[str, Any] | None, str | None] | None = None
        self._refused: set[str] = set()
        self._stop = threading.Event()
        self.received = 0  # entry messages taken from the broker (repeats included)
        self._worker = threading.Thread(target=self._work, name="event-hub-worker", daemon=True)

    # -- lifecycle
    def start(self) -> None:
        self._worker.start()
        self.conn.start()

    def stop(self) -> None:
        self._stop.set()
        self.shutdown()
        self._worker.join(5)
        self.conn.stop()

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    def shutdown(self) -> None:
        """Wake every waiting page so its stream ends."""
        with self._cond:
            self._version += 1
            self._cond.notify_all()

    # -- broker side (paho's thread)
    def _connected(self) -> None:
        for kind in ("events", "state", "status"):
            self.conn.subscribe(all_tables(self.event, kind))
        for table in self.store.tables():  # a restarted broker may have lost the retained acks
            self._ack(table)
        self.publish_seats()

    def _ack(self, table: int) -> None:
        self.conn.publish(table_topic(self.event, table, "ack"), encode_json({"id": self.store.acked(table)}),
                          retain=True)

    def _message(self, topic: str, payload: bytes) -> None:
        where = parse_topic(self.event, topic)
        if where is None:
            return
        table, kind = where
        if kind == "events":
            try:
                msg = EntryMessage.decode(payload)
            except ValueError as exc:
                log.warning("table %d sent an entry the hub cannot read (%s); ignored", table, exc)
                return
            if msg.table != table:
                log.warning("an entry for table %d came on table %d's topic; ignored", msg.table, table)
                return
            self.received += 1
            if self.store.add_entry(table, Row(msg.id, msg.ts, msg.source, msg.body)):
                self._mark(table)
            self._ack(table)
            return
        try:
            obj = decode_json(payload)
        except ValueError:
            return
        with self._cond:
            if kind == "state":
                self._published[table] = obj
            elif kind == "status":
                self._online[table] = bool(obj.get("online"))
            else:
                return
            self._dirty.add(table)
            self._cond.notify_all()

    def _mark(self, table: int) -> None:
        with self._cond:
            self._dirty.add(table)
            self._cond.notify_all()

    # -- the worker
    def _work(self) -> None:
        while not self._stop.is_set():
            with self._cond:
                while not self._dirty and not self._stop.is_set():
                    self._cond.wait(1.0)
                dirty, self._dirty = self._dirty, set()
            for table in sorted(dirty):
                try:
                    self._rebuild(table)
                except Exception:
                    log.exception("rebuilding table %d's board failed", table)
            with self._cond:
                self._version += 1
                self._cond.notify_all()
            self._stop.wait(self.config.rebuild_s)

    def _rebuild(self, table: int) -> None:
        closed = self.store.take_closed(table)
        entries = self.store.entries(table)
        state = build_state(entries, None)
        decl = feed.declaration(self.store.log_entries())
        if decl is not None:
            for game_entries in closed:  # games this table has moved on from: replayed once here
                game = feed.game(game_entries)
                if game is not None:
                    self._feed(table, decl, *game, None)
            game = feed.game(entries)
            if game is not None and not state.get("error"):
                self._feed(table, decl, *game, state)  # build_state has just replayed it
        label = calls.table_of(self.tournament(), state.get("players") or [])
        with self._cond:
            online = self._online.get(table, False)
            published = self._published.get(table)
        shown = board(table, state, online=online, published=published, tournament_table=label,
                      acked=self.store.acked(table), waiting=self.store.waiting(table))
        with self._cond:
            self._boards[table] = shown

    def _feed(self, table: int, decl: LogEntry, game_id: int, record: list[dict[str, Any]],
              result: dict[str, Any] | None) -> None:
        """Enter what this game gives the tournament (once: the log's key)."""
        if len(record) < 2:
            return
        if result is None:
            try:
                result = replay(record)
            except ValueError:
                return
        tournament = self.tournament()
        if tournament is None or tournament.get("finished"):
            return
        players = record[0].get("players") or []
        known = {e.key for e in self.store.log_entries() if e.key}
        for cand in feed.candidates(decl.event["format"], tournament, table, game_id, result, players):
            if cand.key in known or cand.key in self._refused:
                continue
            try:
                self.add(cand.line, f"table {table}", key=cand.key)
            except TournamentError as exc:
                self._refused.add(cand.key)
                log.warning("table %d's %s is not entered into the tournament: %s (enter it on /operator)",
                            table, cand.key, exc)
            tournament = self.tournament()

    # -- what pages read
    @property
    def version(self) -> int:
        with self._cond:
            return self._version

    def wait(self, seen: int, timeout: float) -> int:
        with self._cond:
            if self._version == seen:
                self._cond.wait(timeout)
            return self._version

    def boards(self) -> list[dict[str, Any]]:
        with self._cond:
            online = dict(self._online)
            boards = dict(self._boards)
        out = []
        for table in sorted(set(boards) | set(online)):
            b = boards.get(table) or board(table, {}, online=False, published=None, tournament_table=None,
                                                 acked=0, waiting=0)
            out.append(b | {"online": online.get(table, False)})
        return out

    def thumbnail(self, table: int) -> str | None:
        with self._cond:
            return (self._published.get(table) or {}).get("thumbnail")

    def tournament(self) -> dict[str, Any] | None:
        """The tournament's replay JSON (None before a declaration), cached per log entry."""
        log_entries = self.store.log_entries()
        last = log_entries[-1].id if log_entries else 0
        cached = self._tournament
        if cached and cached[0] == last:
            return cached[1]
        try:
            result, error = feed.replay(log_entries), None
        except TournamentError as exc:  # cannot happen for entries checked on the way in
            result, error = None, str(exc)
            log.error("the event's tournament does not replay: %s", exc)
        self._tournament = (last, result, error)
        return result

    def call_list(self, now: float | None = None) -> list[dict[str, Any]]:
        return calls.call_list(self.tournament(), self.store.log_entries(), self.boards(),
                               time.time() if now is None else now, self.config.call_before_s)

    def log_entries(self) -> list[LogEntry]:
        return self.store.log_entries()

    # -- operator writes (each checked against the whole event first)
    def add(self, event: dict[str, Any], source: str, key: str | None = None) -> LogEntry | None:
        """Append to the event's log. Raises TournamentError naming what is wrong."""
        if not isinstance(event, dict):
            raise TournamentError("an entry is a JSON object")
        kind = event.get("event")
        if kind in ("seat", "round"):
            calls.check(event, self.tournament())
        else:
            feed.check_new(self.store.log_entries(), event)
        entry = self.store.append_log(event, source, key=key)
        if entry is not None:
            log.info("event log #%d (%s): %s", entry.id, source, json.dumps(event, ensure_ascii=False))
            with self._cond:
                self._dirty.update(self.store.tables())
                self._version += 1
                self._cond.notify_all()
            if kind in ("round", "seat"):
                self.publish_seats()
        return entry

    def publish_seats(self) -> None:
        """Tell each table (retained `…/seat`) whom the started round seats there."""
        if not self.conn.connected:
            return
        tournament = self.tournament()
        fmt = (tournament or {}).get("format")
        for item in self.call_list():
            if item.get("at") and item.get("started"):
                seat = {"round": item["round"], "table": item["table"], "players": item["players"],
                        "variant": feed.VARIANT.get(fmt or "", "bykovo")}
                self.conn.publish(table_topic(self.event, item["at"], "seat"), encode_json(seat), retain=True)
