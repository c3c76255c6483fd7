"""Wiring a running table (`dominocam serve --event … --table N`) to its publisher.

The publisher listens to the table's journal hub (webui/hub.py) and reads the journal file; the
state it publishes is the table's own /api/state in short, with the camera's newest frame as a
thumbnail. A seating sent by the event's hub starts a new game with those players, once.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from flask import Flask

from webui.event.credentials import Credentials
from webui.event.publisher import PublisherConfig, TablePublisher
from webui.event.table_state import compact_state, thumbnail
from webui.event.topics import EventAddress
from webui.journal import JournalError, current_game

log = logging.getLogger(__name__)

SEAT_SETTING = "event_seat"


def seat_game(seat: dict[str, Any]) -> dict[str, Any] | None:
    """The `game` event a seating asks for, or None when it names no four players."""
    players = seat.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players) or len(players) < 2:
        return None
    return {"event": "game", "variant": str(seat.get("variant") or "bykovo"), "players": list(players),
            "options": dict(seat.get("options") or {})}


def apply_seat(live: Any, seat: dict[str, Any]) -> bool:
    """Start the game the hub's seating names, unless this table already plays with those players
    or already applied this very seating (it is retained, so every reconnect repeats it).
    Returns True when a game was started."""
    game = seat_game(seat)
    if game is None:
        return False
    key = f"{seat.get('round')}/{seat.get('table')}/{','.join(game['players'])}"
    if live.store.get_setting(SEAT_SETTING) == key:
        return False
    live.store.set_setting(SEAT_SETTING, key)
    current = current_game(live.store.entries()).game_event or {}
    if current.get("players") == game["players"] and current.get("variant") == game["variant"]:
        return False
    try:
        live.hub.append(game, "hub")
    except JournalError as exc:
        log.warning("the event's seating %s could not start a game: %s", key, exc)
        return False
    log.info("the event seats %s at this table (%s): a new game started", ", ".join(game["players"]),
             seat.get("table"))
    return True


def attach_publisher(app: Flask, address: EventAddress, table: int, credentials: Credentials,
                     url: str | None, config: PublisherConfig | None = None) -> TablePublisher:
    """Start publishing this app's journal and state; returns the running publisher."""
    live = app.extensions["dominocam"]
    thumb: dict[str, Any] = {"jpeg": None, "ts": None}

    def state(fresh_thumbnail: bool) -> dict[str, Any]:
        if fresh_thumbnail:
            jpeg = thumbnail(live.broadcaster.latest_frame())
            if jpeg:
                thumb.update(jpeg=jpeg, ts=time.time())
        return compact_state(live.hub.state(), table=table, url=url, thumb=thumb["jpeg"], thumb_ts=thumb["ts"],
                             now=time.time())

    publisher = TablePublisher(address, table, credentials, live.store.path, state, config=config,
                               on_seat=lambda seat: apply_seat(live, seat))
    live.hub.add_listener(publisher.notify, camera=True)
    publisher.start()
    return publisher
