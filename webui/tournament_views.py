"""Tournament pages (issue 6): the spectator `/standings` page, its JSON, and operator writes.

Records are the append-only JSON Lines files of engine.tournament.store, one per event, kept in
the folder `TOURNAMENT_DIR` (else `DATA_DIR`, else a `tournaments/` folder beside the SQLite
journal `DB_PATH`). Each write is validated against the whole event and fsynced before the reply,
so a restarted server shows exactly what was acknowledged.

  GET  /standings[?event=NAME]            spectator page (read-only; refreshes itself)
  GET  /api/standings[?event=NAME]        the event's replay JSON (+ move timers, call list)
  GET  /api/tournament/events             the stored events, newest first
  POST /api/tournament/start              {"name": NAME, "declaration": {...}}     (operator)
  POST /api/tournament/result             {"event": NAME, "record": {...}}         (operator)
  GET  /operator/tournament[?event=NAME]   operator forms for the two writes (login at /operator)
"""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request

from engine.tournament import TournamentError, store
from webui.i18n import gettext, request_lang
from webui.i18n import gettext as _
from webui.security import csrf_token, is_operator, operator_required

log = logging.getLogger(__name__)
bp = Blueprint("tournament", __name__, template_folder="templates")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def record_dir() -> Path:
    return record_dir_for(current_app.config)


def record_dir_for(cfg) -> Path:
    folder = cfg.get("TOURNAMENT_DIR") or cfg.get("DATA_DIR")
    if folder:
        return Path(folder)
    db = cfg.get("DB_PATH")
    return Path(db).resolve().parent / "tournaments" if db and db != ":memory:" else Path("tournaments")


def _path(name: str) -> Path:
    if not isinstance(name, str) or not NAME.match(name) or name.endswith(".jsonl"):
        abort(400, description=_("Name the event with 1-64 Latin letters, digits, '_', '-' or '.', e.g. club-2026-11-30."))
    return record_dir() / f"{name}.jsonl"


def event_names() -> list[str]:
    folder = record_dir()
    if not folder.is_dir():
        return []
    files = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    return [p.stem for p in files]


def _chosen_event() -> str | None:
    name = request.args.get("event")
    if name:
        return name
    names = event_names()
    return names[0] if names else None


def standings_json(name: str | None) -> dict:
    """The replay JSON of one stored event, with the move timers at the server's clock."""
    if name is None:
        return {"ok": True, "event": None, "events": [], "standings": None}
    path = _path(name)
    if not path.exists():
        abort(404, description=_("There is no tournament %(name)s: start it first.", name=repr(name)))
    try:
        state = store.load(path)
    except TournamentError as exc:
        log.error("stored tournament record is unreadable: %s", exc)
        abort(500, description=f"the stored record does not replay: {exc}")
    now = time.time()
    data = state.to_json(now=now) if hasattr(state, "move_seconds") else state.to_json()
    return {"ok": True, "event": name, "events": event_names(), "now": now, "standings": data}


@bp.get("/standings")
def standings_page():
    data = standings_json(_chosen_event())
    template = "tournament_body.html" if request.args.get("fragment") else "tournament_standings.html"
    return render_template(template, data=data, s=data["standings"], **_words())


@bp.get("/api/standings")
def standings_api():
    return jsonify(standings_json(_chosen_event()))


@bp.get("/api/tournament/events")
def events_api():
    return jsonify(ok=True, events=event_names())


def _body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, description=_("Send the form again: the request was not a JSON object."))
    return body


def _error(exc: TournamentError):
    return jsonify(ok=False, error=str(exc), status=400), 400


@bp.post("/api/tournament/start")
@operator_required
def start_event():
    body = _body()
    path = _path(body.get("name"))
    declaration = body.get("declaration")
    if not isinstance(declaration, dict):
        abort(400, description=_('Write the declaration as the first record line, e.g. {"event": "tournament", ...}.'))
    try:
        data = store.create(path, declaration)
    except TournamentError as exc:
        exc.path = path.name
        return _error(exc)
    log.info("tournament %s started (%s)", path.stem, data["format"])
    return jsonify(ok=True, event=path.stem, standings=data), 201


@bp.post("/api/tournament/result")
@operator_required
def add_record():
    """A deal result (or a no-show, or a sport move start); also what a live table posts."""
    body = _body()
    path = _path(body.get("event"))
    if not path.exists():
        abort(404, description=_("There is no tournament %(name)s: start it first.", name=repr(body.get("event"))))
    record = body.get("record")
    if not isinstance(record, dict):
        abort(400, description=_('Write one record line, e.g. {"event": "result", "points": {...}}.'))
    try:
        data = store.append(path, record)
    except TournamentError as exc:
        exc.path = path.name
        return _error(exc)
    return jsonify(ok=True, event=path.stem, standings=data)


@bp.get("/operator/tournament")
def operator_page():
    """Forms to start an event and enter results; the operator logs in at /operator first."""
    if not is_operator():
        return redirect("/operator")
    data = standings_json(_chosen_event())
    return render_template("tournament_operator.html", data=data, s=data["standings"], csrf=csrf_token(), **_words())


def _words() -> dict:
    """The page's language for the templates (also where the app has no Flask-Babel)."""
    lang = request_lang()
    return {"_": gettext, "lang": lang, "other_lang": "en" if lang == "ru" else "ru"}
