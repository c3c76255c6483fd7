"""The pages themselves: what a spectator's or an OBS browser gets."""

from __future__ import annotations

import re


def url_on_page(html: bytes) -> str:
    return re.search(rb'<b id="url">([^<]+)</b>', html).group(1).decode()


def test_spectator_page_has_an_inline_qr_code_of_its_address(client):
    html = client.get("/").data
    assert b"<svg" in html and b"<script src=" in html and b"http" in html
    assert url_on_page(html) == "http://localhost/"


def test_the_qr_code_names_the_lan_address_the_page_was_opened_by(make_app):
    app = make_app(BIND_HOST="0.0.0.0", ALLOWED_HOSTS=["192.168.1.20"])
    html = app.test_client().get("/", headers={"Host": "192.168.1.20:8000"}).data
    assert url_on_page(html) == "http://192.168.1.20:8000/"
    assert b"bound to this computer only" not in html


def test_a_configured_public_url_wins(make_app):
    app = make_app(PUBLIC_URL="http://domino.club/")
    assert url_on_page(app.test_client().get("/").data) == "http://domino.club/"
    svg = app.test_client().get("/qr.svg")
    assert svg.mimetype == "image/svg+xml" and svg.data.lstrip().startswith(b"<?xml")


def test_overlay_is_transparent_and_embeddable(client):
    response = client.get("/overlay")
    assert b'class="overlay"' in response.data
    assert "X-Frame-Options" not in response.headers  # OBS may frame it
    assert client.get("/").headers["X-Frame-Options"] == "SAMEORIGIN"
    css = client.get("/static/app.css").data
    assert b"body.overlay { background: transparent; }" in css
