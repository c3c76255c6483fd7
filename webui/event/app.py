"""The event hub's Flask app: `create_hub_app(config)`, one blueprint per area, config in HUB_DEFAULTS.

  /event, /api/event/boards, /api/event/stream, /event/table/N/thumb.jpg    views_board.py
  /standings, /calls, /api/event/standings, /api/event/calls               views_standings.py
  /operator, /operator/<action>, POST /api/event/log                       views_operator.py

Security as at a table (webui/security.py): Host header checked, every write needs the operator
token (session + CSRF, or `Authorization: Bearer TOKEN`), spectator pages are GET only.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from engine.tournament import TournamentError
from webui.event.views_board import bp as board_bp
from webui.event.views_operator import bp as operator_bp
from webui.event.views_standings import bp as standings_bp
from webui.i18n import init_i18n
from webui.security import allowed_hosts, check_host, is_loopback

HUB_DEFAULTS: dict[str, Any] = {
    "HUB": None,  # the running webui.event.service.EventHub
    "OPERATOR_TOKEN": None,
    "BIND_HOST": "127.0.0.1",
    "PORT": 8100,
    "ALLOWED_HOSTS": [],
    "SSE_KEEPALIVE_S": 10.0,
    "SSE_MAX_CLIENTS": 128,
    "STREAM_MAX_VIEWERS": 0,  # no MJPEG on the hub (webui.server sizes its threads from these)
    # The hub's pages are in English for now; the shared messages (webui/security.py) follow
    # webui/i18n.py (`?lang=ru`).
    "LANG": "en",
}


def create_hub_app(config: dict[str, Any]) -> Flask:
    """Raises ValueError for an unknown key or an unsafe address without a token."""
    cfg = dict(HUB_DEFAULTS)
    for key, value in config.items():
        if key not in HUB_DEFAULTS and key not in ("TESTING", "SECRET_KEY"):
            raise ValueError(f"unknown hub config key {key!r}; known keys: {', '.join(sorted(HUB_DEFAULTS))}")
        cfg[key] = value
    if cfg["HUB"] is None:
        raise ValueError("the hub app needs its running EventHub (config key HUB)")
    if not cfg["OPERATOR_TOKEN"]:
        if not is_loopback(cfg["BIND_HOST"]):
            raise ValueError(f"listening on {cfg['BIND_HOST']} lets other machines in: pass --token SECRET")
        cfg["OPERATOR_TOKEN"] = secrets.token_urlsafe(16)
    app = Flask(__name__, template_folder="templates", static_folder="static", static_url_path="/event-static")
    app.config.update(cfg)
    app.debug = False
    app.config["_TOKEN_HASH"] = hashlib.sha256(cfg["OPERATOR_TOKEN"].encode()).hexdigest()[:16]
    app.config.setdefault("SECRET_KEY", None)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = hashlib.sha256(b"dominocam-hub:" + cfg["OPERATOR_TOKEN"].encode()).hexdigest()
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict")
    app.config["_ALLOWED_HOSTS"] = allowed_hosts(cfg)
    init_i18n(app)
    app.before_request(check_host)

    @app.after_request
    def _headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return jsonify(ok=False, error=exc.description, status=exc.code), exc.code
        return render_template("event_error.html", code=exc.code, message=exc.description), exc.code

    @app.errorhandler(TournamentError)
    def _tournament_error(exc: TournamentError):
        return jsonify(ok=False, error=str(exc), status=400), 400

    app.register_blueprint(board_bp)
    app.register_blueprint(standings_bp)
    app.register_blueprint(operator_bp)
    return app
