"""Read-only API: /api/state, /api/events (SSE), /api/record, /api/health, /stream.mjpg."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, jsonify, request

from engine.record import dumps_event
from webui.i18n import gettext as _
from webui.i18n import request_lang
from webui.journal import current_game
from webui.live import live
from webui.stream import BOUNDARY, TooManyViewers

bp = Blueprint("api", __name__)

@bp.get("/api/state")
def state():
    at = request.args.get("at", type=int)
    if at is None:
        return Response(live().hub.state_json(request_lang()), mimetype="application/json",
                        headers={"Cache-Control": "no-store"})
    return jsonify(live().hub.state(at=at, lang=request_lang()))


@bp.get("/api/health")
def health():
    return jsonify(live().camera_health())


def _dumps(event: dict) -> str:
    return dumps_event(event)


@bp.get("/api/record")
def record():
    """The current game in the engine's JSON Lines format (corrections and undos applied)."""
    game = current_game(live().store.entries())
    body = "".join(_dumps(e) + "\n" for e in game.record)
    headers = {"Cache-Control": "no-store"}
    if request.args.get("download"):
        headers["Content-Disposition"] = 'attachment; filename="game.jsonl"'
    return Response(body, mimetype="application/x-ndjson", headers=headers)


@bp.get("/api/journal")
def journal():
    """Every journal entry (camera, operator, undone ones too), for audits."""
    return jsonify([e.as_dict() for e in live().store.entries()])


def _sse(event: str, data: str, id_: int | None = None) -> str:
    head = f"id: {id_}\n" if id_ is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


@bp.get("/api/events")
def events():
    """Server-Sent Events. `entry` (id = journal id) for each journal entry after Last-Event-ID (or
    ?last_id=), then `state` with the whole state; again on every change; comments as keep-alive."""
    app = current_app._get_current_object()
    app_live = live()
    hub = live().hub
    store = live().store
    header = request.headers.get("Last-Event-ID") or request.args.get("last_id")
    try:
        last = int(header) if header not in (None, "") else store.last_id
    except ValueError:
        abort(400, description=_("Reload the page: %(value)s is not a journal id.", value=repr(header)))
    keepalive = app.config["SSE_KEEPALIVE_S"]
    lang = request_lang()
    retry = app.config["SSE_RETRY_MS"]

    def generate():
        nonlocal last
        if not app_live.sse_slots.acquire(blocking=False):
            yield "retry: 10000\n\n" + _sse("busy", json.dumps({"error": "too many live pages open"}))
            return
        try:
            yield f"retry: {retry}\n\n"
            seen = None
            while not hub.closed:
                version = hub.version
                for entry in store.entries(after=last):
                    yield _sse("entry", json.dumps(entry.as_dict(), ensure_ascii=False), entry.id)
                    last = entry.id
                if version != seen:
                    yield _sse("state", hub.state_json(lang))
                    seen = version
                if hub.wait(version, keepalive) == version:
                    yield ": keepalive\n\n"
        finally:
            app_live.sse_slots.release()

    return Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@bp.get("/stream.mjpg")
def mjpeg():
    try:
        chunks = live().broadcaster.viewer()
    except TooManyViewers as exc:
        abort(503, description=str(exc))
    return Response(
        chunks,
        mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@bp.get("/frame.jpg")
def frame():
    """The newest frame as one JPEG (for a page that cannot show MJPEG, and for tests)."""
    jpeg = live().broadcaster.latest_jpeg()
    if jpeg is None:
        abort(404, description=_("No picture yet: the camera has not sent one."))
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
