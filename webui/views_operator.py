"""The operator page and every write: new game, next deal, a play or pass by hand, a correction,
undo, the recount. Each write appends one journal event (never an edit) and answers the new state.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
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
