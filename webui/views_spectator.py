"""Spectator pages (read-only): the big-screen display `/` and the OBS overlay `/overlay`."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, current_app, render_template, request
from markupsafe import Markup

from webui.security import is_loopback, lan_addresses

bp = Blueprint("spectator", __name__)


def public_url() -> str:
    """The address other people in the room should open (shown as a QR code)."""
    cfg = current_app.config
    if cfg["PUBLIC_URL"]:
        return cfg["PUBLIC_URL"]
    host = request.host.split(":")[0]
    if not is_loopback(host.strip("[]")):
        return request.host_url
    bind = cfg["BIND_HOST"]
    if bind in ("0.0.0.0", "::", ""):
        lan = lan_addresses()
        if lan:
            return f"http://{lan[0]}:{cfg['PORT']}/"
    return request.host_url


def qr_svg(url: str) -> Markup:
    svg = segno.make(url, error="m").svg_inline(scale=4, dark="#0b1320", light="#ffffff", border=2)
    return Markup(svg)  # segno's own SVG, built from our URL only


@bp.get("/")
def spectator():
    url = public_url()
    local_only = is_loopback(current_app.config["BIND_HOST"])
    return render_template("spectator.html", url=url, qr=qr_svg(url), local_only=local_only)


@bp.get("/overlay")
def overlay():
    return render_template("overlay.html")


@bp.get("/qr.svg")
def qr():
    buf = io.BytesIO()
    segno.make(public_url(), error="m").save(buf, kind="svg", scale=8, border=2)
    return Response(buf.getvalue(), mimetype="image/svg+xml")
