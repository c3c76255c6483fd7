"""The multi-board for the big screen (`/event`) and its data: every table's chain, scores,
whose turn, flags, online / offline and the latest thumbnail; a click opens the table's page."""

from __future__ import annotations

import base64
import binascii
import json
import time

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    stream_with_context,
)

from webui.event.context import hub

bp = Blueprint("board", __name__)


def snapshot() -> dict:
    h = hub()
    return {"event": h.event, "boards": h.boards(), "calls": h.call_list(), "now": time.time(),
            "version": h.version}


@bp.get("/")
@bp.get("/event")
def event_page():
    return render_template("event_board.html", event=hub().event)


@bp.get("/api/event/boards")
def boards():
    return jsonify(snapshot())


@bp.get("/api/event/table/<int:table>/journal")
def journal(table: int):
    """The hub's copy of one table's journal rows (id, ts, source, body as the table stored them)."""
    rows = hub().store.rows(table)
    return jsonify(table=table, rows=[{"id": r.id, "ts": r.ts, "source": r.source, "body": r.body} for r in rows])


@bp.get("/event/table/<int:table>/thumb.jpg")
def thumb(table: int):
    data = hub().thumbnail(table)
    if not data:
        abort(404, description=f"table {table} has sent no picture yet")
    try:
        jpeg = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        abort(404, description=f"table {table}'s picture is unreadable")
    # /event asks for it as thumb.jpg?t=WHEN-TAKEN: one address per picture, so it may be cached.
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "max-age=60"})


@bp.get("/api/event/stream")
def stream():
    """Server-Sent Events: a `boards` event with the whole snapshot after every change."""
    h = hub()
    keepalive = float(current_app.config["SSE_KEEPALIVE_S"])

    def events():
        seen = -1
        last_sent = 0.0
        while True:
            version = h.wait(seen, keepalive)
            if h.closed:
                return
            if version != seen:
                seen = version
                yield f"event: boards\ndata: {json.dumps(snapshot(), ensure_ascii=False, separators=(',', ':'))}\n\n"
                last_sent = time.monotonic()
            elif time.monotonic() - last_sent >= keepalive:
                yield ": keepalive\n\n"
                last_sent = time.monotonic()

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
