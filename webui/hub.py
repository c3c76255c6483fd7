"""The live hub: the journal, the camera's status and one condition variable that wakes every page.

All writes go through `Hub.append`: validate, commit to SQLite, then notify. Nothing is shown
before it is on disk. The hub holds the current game's engine state (`webui.state.LiveGame`):
an engine event is checked and taken by one `engine.game.apply`; only an undo or a correction
(they change earlier lines) folds the journal and replays the record again.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from engine.events import from_dict
from webui.i18n import gettext as _
from webui.journal import ENGINE_EVENTS, META_EVENTS, JournalError, check_meta, current_game
from webui.live_flags import arrange
from webui.localize import localize
from webui.state import (
    DEALS_PLACEHOLDER,
    MOVES_PLACEHOLDER,
    LiveGame,
    build_state,
    deals_json,
    live_state,
    replay,
)
from webui.store import Entry, EventStore

log = logging.getLogger(__name__)


def validate(event: dict[str, Any], entries: list[Entry]) -> None:
    """Raise JournalError (message for the operator) unless `event` may be appended to `entries`."""
    if not isinstance(event, dict):
        raise JournalError(_("An event is a JSON object."))
    kind = event.get("event")
    if kind in META_EVENTS:
        check_meta(event, entries)
    elif kind in ENGINE_EVENTS:
        from engine.record import parse_event

        try:
            parse_event(json.dumps(event, ensure_ascii=False), 0)
        except ValueError as exc:
            raise JournalError(str(exc), engine=True) from None
        if kind != "game" and current_game(entries).game_event is None:
            raise JournalError(_("No game yet: start one with the New game form first."))
    else:
        raise JournalError(_("Unknown event %(kind)s: use the operator page's forms.", kind=repr(kind)))
    replay_with(event, entries)


def replay_with(event: dict[str, Any], entries: list[Entry]) -> None:
    """Raise JournalError unless the engine replays the current game with `event` appended."""
    next_id = (entries[-1].id if entries else 0) + 1
    game = current_game([*entries, Entry(next_id, time.time(), "check", event)])
    try:
        replay(game.record)
    except ValueError as exc:  # the engine refuses the record (unknown player, bad tile...)
        raise JournalError(str(exc), engine=True) from None


class Hub:
    def __init__(self, store: EventStore):
        self.store = store
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._notify_lock = threading.Lock()
        self._version = 0
        self._camera: dict[str, Any] = {"state": "none", "message": "no camera connected", "fps": 0.0}
        self._live_flags: list[dict[str, Any]] = []
        self._to_confirm: list[dict[str, Any]] = []
        self._cached: tuple[tuple[int, int], dict[str, Any], dict[str | None, str], dict[str, str]] | None = None
        self._listeners: list[Any] = []
        self._game = LiveGame(store.entries())  # the one full replay at start
        self.closed = False

    def shutdown(self) -> None:
        """Wake every waiting page so its stream ends (server shutdown)."""
        with self._cond:
            self.closed = True
            self._version += 1
            self._cond.notify_all()

    @property
    def version(self) -> int:
        with self._cond:
            return self._version

    def add_listener(self, callback, camera: bool = False) -> None:
        """callback(record) after each change to the journal (e.g. the pipeline's resume);
        `camera=True`: also after the camera's own events (e.g. the tournament feed)."""
        self._listeners.append((callback, camera))

    def append(self, event: dict[str, Any], source: str) -> Entry:
        """Validate, store durably, then wake the pages. Raises JournalError for a refused event."""
        handed_over = time.time()  # the entry's ts: when the pipeline or operator handed it over
        with self._write_lock:
            step = self._check(event)
            entry = self.store.append(event, source, ts=handed_over)
            if step is None:
                self._game.refold(self.store.entries())
            else:
                self._game.extend(entry, step)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("journal #%d (%s): %s", entry.id, source, json.dumps(event, ensure_ascii=False))
        with self._cond:
            self._version += 1
            self._cond.notify_all()
        listeners = [cb for cb, camera in self._listeners if camera or source != "camera"]
        if listeners:
            # Not under the write lock: the pipeline may hold its own lock while it appends.
            # The notify lock makes the last caller hand over the newest record.
            with self._notify_lock:
                with self._write_lock:
                    record = list(self._game.record)
                for callback in listeners:
                    try:
                        callback(record)
                    except Exception:
                        log.exception("a journal listener failed")
        return entry

    def _check(self, event: dict[str, Any]):
        """`validate` against the held game: the engine step of an engine event (one apply), or
        None where the game must be folded again (an undo, a correction, or a held record the
        engine refused at start). Raises JournalError as `validate`."""
        if not isinstance(event, dict):
            raise JournalError(_("An event is a JSON object."))
        kind = event.get("event")
        game = self._game
        if kind in ENGINE_EVENTS and (kind == "game" or game.state is not None or not game.started):
            try:
                typed = from_dict(event)
            except ValueError:
                try:  # as the journal stores it (JSON: a tuple is a list there), as `validate` checks it
                    typed = from_dict(json.loads(json.dumps(event, ensure_ascii=False)))
                except ValueError as exc:
                    raise JournalError(str(exc), engine=True) from None
            if kind != "game" and not game.started:
                raise JournalError(_("No game yet: start one with the New game form first."))
            try:
                return game.step(typed)
            except ValueError as exc:  # the engine refuses the record (unknown player, bad tile...)
                raise JournalError(str(exc), engine=True) from None
        validate(event, self.store.entries())
        return None

    def set_camera(self, status: dict[str, Any]) -> None:
        with self._cond:
            if status == self._camera:
                return
            self._camera = dict(status)
            self._version += 1
            self._cond.notify_all()

    @property
    def camera(self) -> dict[str, Any]:
        with self._cond:
            return dict(self._camera)

    def set_live_flags(self, flags: list[dict[str, Any]]) -> None:
        """The camera's flags (take-backs, misreads...): the pages get them with the next state."""
        arranged = arrange(flags)
        with self._cond:
            if arranged == self._live_flags:
                return
            self._live_flags = arranged
            self._version += 1
            self._cond.notify_all()

    @property
    def live_flags(self) -> list[dict[str, Any]]:
        with self._cond:
            return list(self._live_flags)

    def set_to_confirm(self, items: list[dict[str, Any]]) -> None:
        """The pipeline's tiles to confirm (`pipeline.to_confirm()`): the pages get them with the
        next state; only a change wakes them."""
        with self._cond:
            if items == self._to_confirm:
                return
            self._to_confirm = [dict(i) for i in items]
            self._version += 1
            self._cond.notify_all()

    @property
    def to_confirm(self) -> list[dict[str, Any]]:
        with self._cond:
            return [dict(i) for i in self._to_confirm]

    def _camera_side(self) -> dict[str, Any]:
        """What the camera adds to the state beside the record: its flags, its tiles to confirm."""
        with self._cond:
            return {"live_flags": list(self._live_flags), "to_confirm": [dict(i) for i in self._to_confirm]}

    def wait(self, seen_version: int, timeout: float) -> int:
        """Block until the version moves past `seen_version` or `timeout` passes; return the version."""
        with self._cond:
            if self._version == seen_version:
                self._cond.wait(timeout)
            return self._version

    def state(self, at: int | None = None, lang: str | None = None) -> dict[str, Any]:
        """The state (`at`: as it was after record line `at`); `lang`: with the words of that
        language added (webui/localize.py)."""
        if at is not None:
            state = build_state(self.store.entries(), self.camera, at=at) | self._camera_side()
            return localize(state, lang) if lang else state
        with self._write_lock:
            state = live_state(self._game, self.camera) | self._camera_side()
        return localize(state, lang) if lang else state

    def state_json(self, lang: str | None = None) -> str:
        """The live state as JSON, computed once per change and language however many pages ask.
        The moves are written once each (`LiveGame.move_json`) and spliced in."""
        with self._cond:
            key = (self.store.last_id, self._version)
            cached = self._cached
            camera = dict(self._camera)
            side = self._camera_side()
        if cached and cached[0] == key:
            state, texts, moves = cached[1], cached[2], cached[3]
            if lang in texts:
                return texts[lang]
        else:
            with self._write_lock:  # the held game is consistent between appends
                state = live_state(self._game, camera, moves=False) | side
                moves = {_MOVES_JSON: "[" + ",".join(self._game.move_json) + "]"}
                if "deals" in state:  # not when the engine refused the stored record
                    moves[_DEALS_JSON] = deals_json(self._game, state["deals"])
            texts = {}
        shown = localize(state, lang) if lang else state
        body = shown | {"deals": DEALS_PLACEHOLDER} if _DEALS_JSON in moves else shown
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        if all(text.count(mark) == 1 for mark in moves):
            for mark, part in moves.items():
                text = text.replace(mark, part, 1)
        else:  # a name or note holding a placeholder itself: write it all out
            text = json.dumps(shown | {"moves": json.loads(moves[_MOVES_JSON])}, ensure_ascii=False,
                              separators=(",", ":"))
        with self._cond:
            if self._cached and self._cached[0] == key:
                self._cached[2][lang] = text
            else:
                self._cached = (key, state, {**texts, lang: text}, moves)
        return text


_MOVES_JSON, _DEALS_JSON = json.dumps(MOVES_PLACEHOLDER), json.dumps(DEALS_PLACEHOLDER)
