"""The operator page and every write: new game, next deal, a play or pass by hand, a correction,
undo, the recount, the answer on a tile to confirm. Each write appends journal events (never an
edit) and answers the new state.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import cv2
from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from webui.config import VARIANTS
from webui.i18n import gettext as _
from webui.journal import JournalError, current_game, last_undoable
from webui.live import live
from webui.recount_photo import RecountUnavailable, read_hands
from webui.security import csrf_token, host_name, is_operator, login, operator_required
from webui.words import VARIANT_NAMES

log = logging.getLogger(__name__)

bp = Blueprint("operator", __name__)

RESOLVE = ("confirm", "correct", "dismiss")  # vision.live.pipeline.LivePipeline.resolve's actions
TILE = re.compile(r"([0-6])-([0-6])")


def _json() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, description=_("Send the form again: the request was not a JSON object."))
    return body


def _append(event: dict[str, Any]):
    entry = live().hub.append(event, "operator")
    return jsonify(ok=True, id=entry.id, event=entry.event, state=live().hub.state())


def _players() -> list[str]:
    return current_game(live().store.entries()).players


@bp.get("/operator")
def page():
    token = request.args.get("token")
    if token is not None:
        if login(token):
            return redirect(url_for("operator.page"))  # drop the token from the address bar
        return render_template("login.html", error=_("Wrong operator token: copy the link printed by dominocam serve.")), 401
    if not is_operator():
        return render_template("login.html", error=None)
    return render_template("operator.html", csrf=csrf_token(), variants=VARIANTS,
                           players=_players(), variant_names=VARIANT_NAMES)


@bp.post("/operator/login")
def login_form():
    origin = request.headers.get("Origin")
    if origin and host_name(origin.split("://", 1)[-1]) not in current_app.config["_ALLOWED_HOSTS"]:
        abort(403, description=_("Log in from this server's own operator page."))
    if not login(request.form.get("token")):
        return render_template("login.html", error=_("Wrong operator token: copy the link printed by dominocam serve.")), 401
    return redirect(url_for("operator.page"))


@bp.post("/operator/logout")
@operator_required
def logout():
    session.clear()
    return redirect(url_for("spectator.spectator"))


@bp.post("/api/op/game")
@operator_required
def new_game():
    body = _json()
    players = body.get("players")
    if isinstance(players, str):
        players = [p.strip() for p in players.split(",") if p.strip()]
    if not players or not all(isinstance(p, str) and p for p in players):
        raise JournalError(_("Players: write the names in clockwise seat order, e.g. Anna,Boris,Vera,Gleb."))
    if len(set(players)) != len(players):
        raise JournalError(_("Players: every name must be different."))
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise JournalError(_("Options: give a JSON object of rule-set options."))
    if body.get("target"):
        try:
            options["target"] = int(body["target"])
        except (TypeError, ValueError):
            raise JournalError(_("Target points: write a number, not %(value)s.", value=repr(body["target"]))) from None
    event = {"event": "game", "variant": body.get("variant") or current_app.config["VARIANT"],
             "players": players, "options": options}
    if body.get("pairs"):
        event["pairs"] = body["pairs"]
    return _append(event)


@bp.post("/api/op/deal")
@operator_required
def next_deal():
    return _append({"event": "deal"})


@bp.post("/api/op/play")
@operator_required
def play():
    body = _json()
    event = {"event": "play", "player": body.get("player"), "tile": body.get("tile")}
    if body.get("to"):
        event["to"] = body["to"]
    if body.get("face") in ("up", "down") and body["face"] != "up":
        event["face"] = body["face"]
    return _append(event)


@bp.post("/api/op/pass")
@operator_required
def pass_():
    return _append({"event": "pass", "player": _json().get("player")})


@bp.post("/api/op/correct")
@operator_required
def correct():
    body = _json()
    event: dict[str, Any] = {"event": "correct", "target": body.get("target")}
    for key in ("player", "tile", "to", "face", "tiles"):
        if key in body and body[key] != "":
            event[key] = body[key]
    return _append(event)


@bp.post("/api/op/undo")
@operator_required
def undo():
    body = request.get_json(silent=True) or {}
    target = body.get("target")
    if target is None:
        target = last_undoable(live().store.entries())
        if target is None:
            raise JournalError(_("Nothing to undo in this game."))
    return _append({"event": "undo", "target": target})


@bp.post("/api/op/recount")
@operator_required
def recount_confirm():
    """Confirm the recount: one `reveal` per player with the tiles laid out in front of them."""
    hands = _json().get("hands")
    if not isinstance(hands, dict) or not hands:
        raise JournalError(_("Type the tiles of at least one player, then confirm."))
    players = _players()
    unknown = [p for p in hands if p not in players]
    if unknown:
        raise JournalError(_("%(unknown)s does not play in this game; the players are %(players)s.",
                                   unknown=", ".join(unknown), players=", ".join(players)))
    ids = []
    for player in players:
        if player not in hands:
            continue
        tiles = hands[player]
        if isinstance(tiles, str):
            tiles = tiles.replace(",", " ").split()
        ids.append(live().hub.append({"event": "reveal", "player": player, "tiles": list(tiles)}, "operator").id)
    return jsonify(ok=True, ids=ids, state=live().hub.state())


@bp.post("/api/op/recount-photo")
@operator_required
def recount_photo():
    """Read the hands laid out in an uploaded photo (vision/read/'s recount); nothing is stored
    until the operator confirms with /api/op/recount."""
    upload = request.files.get("photo")
    if upload is None:
        abort(400, description=_("Choose a photo of the hands first."))
    game = current_game(live().store.entries())
    first = game.game_event or {}
    try:
        result = read_hands(upload.read(), players=first.get("players", []), variant=first.get("variant"),
                            record=game.record, calibration=live().calibration())
    except RecountUnavailable as exc:
        abort(501, description=str(exc))
    except ValueError as exc:
        abort(400, description=str(exc))
    return jsonify(ok=True, **result)


@bp.post("/api/op/event")
@operator_required
def raw_event():
    """Append any engine or operator event as given (for scripts and tests)."""
    return _append(_json())


@bp.get("/api/calibration")
def calibration():
    """The table calibration in use (image corners, edge -> player), or null."""
    return jsonify(calibration=live().calibration(), edges=["bottom", "left", "top", "right"])


@bp.post("/api/op/calibration")
@operator_required
def set_calibration():
    """The operator's override: the table's four corners on the picture and who sits at each edge.
    Kept in the journal file's settings, so a restart keeps it."""
    try:
        cal = live().set_calibration(_json())
    except ValueError as exc:
        raise JournalError(str(exc)) from None
    return jsonify(ok=True, calibration=cal)


# --- tiles to confirm (issue 24): the camera saw a tile laid that the rules doubt -------------------

def _confirming():
    pipeline = live().pipeline
    if pipeline is None or not hasattr(pipeline, "resolve"):
        abort(409, description=_("No live camera: tiles to confirm come from the camera (dominocam serve --source)."))
    return pipeline


def _held(item_id: Any, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The tile to confirm numbered `item_id`; 404 when there is none (resolved, or gone)."""
    found = next((i for i in items if str(i.get("id")) == str(item_id)), None)
    if found is None:
        abort(404, description=_("No tile to confirm numbered %(id)s: it was resolved already or has left the table.",
                                 id=item_id))
    return found


def _tile_values(value: Any) -> str:
    """'3-5' or [3, 5] as the engine's name (low value first); 400 for anything else."""
    text = "-".join(str(v) for v in value) if isinstance(value, list) else str(value or "").strip()
    match = TILE.fullmatch(text)
    if match is None:
        abort(400, description=_("Tile: pick two values from 0 to 6, e.g. 3-5, not %(tile)s.", tile=repr(value)))
    a, b = sorted(int(v) for v in match.groups())
    return f"{a}-{b}"


@bp.post("/api/op/confirm")
@operator_required
def resolve_tile():
    """The operator's answer on a tile to confirm (`pipeline.to_confirm()`): `confirm` writes the
    play as read, `correct` writes it as `tile`, `dismiss` says it is not a tile (nothing written,
    its place is ignored this deal)."""
    body = _json()
    pipeline = _confirming()
    action = body.get("action")
    if action not in RESOLVE:
        abort(400, description=_("Answer confirm, correct or dismiss (not a tile), not %(action)s.",
                                 action=repr(action)))
    item = _held(body.get("id"), pipeline.to_confirm())
    tile = _tile_values(body.get("tile")) if action == "correct" else None
    before = live().store.last_id
    try:
        events = pipeline.resolve(item["id"], action, tile)
    except ValueError:  # resolved meanwhile, or the tile is a move of this deal already
        _held(item["id"], pipeline.to_confirm())  # resolved meanwhile: 404
        abort(409, description=_("%(tile)s is already a move of this deal: correct that move instead.",
                                 tile=tile or item["tile"]))
    hub = live().hub
    hub.set_to_confirm(pipeline.to_confirm())
    written = [e.id for e in live().store.entries(after=before) if e.event in events]
    log.info("tile to confirm #%s (%s): %s%s", item["id"], item["tile"], action, f" as {tile}" if tile else "")
    return jsonify(ok=True, action=action, tile=tile or item["tile"], ids=written, state=hub.state())


@bp.get("/api/op/confirm/<int:item_id>.jpg")
def confirm_picture(item_id: int):
    """The newest picture around a tile to confirm (the operator's page only)."""
    if not is_operator():
        abort(401)
    item = _held(item_id, live().hub.to_confirm)
    frame = live().broadcaster.latest_frame()
    if frame is None or not item.get("centre"):
        abort(404, description=_("No picture yet: the camera has not sent one."))
    h, w = frame.shape[:2]
    half = max(24, round(min(h, w) * 0.12))  # a tile and its neighbours, whatever the tile's size
    x, y = (round(v) for v in item["centre"])
    crop = frame[max(0, y - half): min(h, y + half), max(0, x - half): min(w, x + half)]
    ok, jpeg = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok or crop.size == 0:
        abort(404, description=_("No picture yet: the camera has not sent one."))
    response = make_response(jpeg.tobytes())
    response.headers.update({"Content-Type": "image/jpeg", "Cache-Control": "no-store"})
    return response
