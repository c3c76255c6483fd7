"""The event's operator: declare the tournament, seat tables, start a round (players are called
ten minutes before it, BAL-T), replace a no-show, enter or correct a result. Every action is one
new entry of the hub's log, checked against the whole event first (webui/event/feed.py); nothing
is edited.

  GET  /operator[?token=T]          log in, then the forms
  POST /operator/<action>           the forms (session + CSRF), back to /operator
  POST /api/event/log               {"event": ...} for scripts (Authorization: Bearer TOKEN)
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from engine.tournament import TournamentError
from webui.event.context import hub
from webui.security import csrf_token, is_operator, login, operator_required

log = logging.getLogger(__name__)
bp = Blueprint("event_operator", __name__)


def _page(error: str | None = None, status: int = 200):
    h = hub()
    return render_template("event_operator.html", event=h.event, csrf=csrf_token(), t=h.tournament(),
                           calls=h.call_list(), boards=h.boards(), log=h.log_entries()[-30:][::-1],
                           error=error, now=time.time()), status


@bp.get("/operator")
def page():
    token = request.args.get("token")
    if token is not None:
        if login(token):
            return redirect(url_for("event_operator.page"))
        return render_template("event_login.html", error="Wrong operator token: copy the link dominocam hub printed."), 401
    if not is_operator():
        return render_template("event_login.html", error=None)
    return _page()


@bp.post("/operator/login")
def do_login():
    if login(request.form.get("token")):
        return redirect(url_for("event_operator.page"))
    return render_template("event_login.html", error="Wrong operator token."), 401


def _json_field(name: str) -> Any:
    text = request.form.get(name, "")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TournamentError(f"{name}: not valid JSON ({exc.msg} at column {exc.colno})") from None


def _form_event(action: str) -> dict[str, Any]:
    f = request.form
    if action == "declare":
        return _json_field("declaration")
    if action == "round":
        minutes = float(f.get("minutes") or 10)
        return {"event": "round", "round": f.get("round", ""), "at": round(time.time() + 60 * minutes, 1)}
    if action == "seat":
        try:
            at = int(f.get("at", ""))
        except ValueError:
            raise TournamentError("seat: give the physical table's number (1, 2, ...)") from None
        return {"event": "seat", "table": f.get("table", ""), "at": at}
    if action == "no-show":
        return {"event": "no-show", "table": f.get("table", ""), "player": f.get("player", ""),
                "replacement": f.get("replacement", "").strip()}
    if action == "result":
        return _json_field("record")
    if action == "correct":
        try:
            target = int(f.get("target", ""))
        except ValueError:
            raise TournamentError("correct: give the log number of the result to correct") from None
        return {"event": "correct", "target": target, "points": _json_field("points")}
    abort(404, description=f"no operator action {action!r}")


@bp.post("/operator/<action>")
@operator_required
def act(action: str):
    try:
        hub().add(_form_event(action), "operator")
    except (TournamentError, ValueError) as exc:
        return _page(str(exc), 400)
    return redirect(url_for("event_operator.page"))


@bp.post("/api/event/log")
@operator_required
def add():
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, description='send one JSON object, e.g. {"event": "no-show", ...}')
    entry = hub().add(body, "operator")
    return jsonify(ok=True, id=entry.id if entry else None, tournament=hub().tournament())
