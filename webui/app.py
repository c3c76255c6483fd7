"""The Flask app factory: one blueprint per area, config from webui/config.py, no work at import."""

from __future__ import annotations

import hashlib
import logging
import secrets
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from vision.live.protocol import NO_CAMERA, SourceStatus
from webui import tournament_views
from webui.config import make_config
from webui.errors import http_error_text, journal_error_text
from webui.i18n import init_i18n
from webui.journal import JournalError
from webui.live import Live, live
from webui.security import allowed_hosts, check_host, is_loopback
from webui.tournament_live import listener
from webui.views_api import bp as api_bp
from webui.views_operator import bp as operator_bp
from webui.views_spectator import bp as spectator_bp

log = logging.getLogger(__name__)


def _register_blueprints(app: Flask) -> None:
    app.register_blueprint(spectator_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(operator_bp)
    app.register_blueprint(tournament_views.bp)
    live(app).hub.add_listener(listener(tournament_views.record_dir_for(app.config)), camera=True)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Raises ValueError when the config is unsafe or wrong (the message says why)."""
    cfg = make_config(config)
    if not cfg["OPERATOR_TOKEN"]:
        if not is_loopback(cfg["BIND_HOST"]):
            raise ValueError(
                f"listening on {cfg['BIND_HOST']} lets other machines in: pass --token with a secret "
                "operator token (or keep the default --host 127.0.0.1)"
            )
        cfg["OPERATOR_TOKEN"] = secrets.token_urlsafe(16)
    app = Flask(__name__)
    app.config.update(cfg)
    app.debug = False
    app.config["_TOKEN_HASH"] = hashlib.sha256(cfg["OPERATOR_TOKEN"].encode()).hexdigest()[:16]
    # Sessions survive a restart with the same token; a new token logs every operator out.
    app.config.setdefault("SECRET_KEY", None)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = hashlib.sha256(b"dominocam-session:" + cfg["OPERATOR_TOKEN"].encode()).hexdigest()
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict")
    app.config["_ALLOWED_HOSTS"] = allowed_hosts(cfg)
    init_i18n(app)
    app.before_request(check_host)

    @app.after_request
    def _headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if request.path != "/overlay":
            response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        message = http_error_text(exc)
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return jsonify(ok=False, error=message, status=exc.code), exc.code
        return render_template("error.html", code=exc.code, message=message), exc.code

    @app.errorhandler(JournalError)
    def _journal_error(exc: JournalError):
        return jsonify(ok=False, error=journal_error_text(exc), status=400), 400

    app.extensions["dominocam"] = Live(cfg)
    if cfg["PIPELINE"] is None:
        app.extensions["dominocam"].hub.set_camera(
            SourceStatus(NO_CAMERA, "no camera: serving the stored game").as_dict() | {"fps": 0.0}
        )
    _register_blueprints(app)
    return app
