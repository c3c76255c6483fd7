"""Host header, operator token, CSRF, read-only spectator pages, safe defaults."""

from __future__ import annotations

import re

import pytest

from tests.webui.conftest import BEARER, TOKEN
from webui.app import create_app


@pytest.mark.parametrize("path", ["/", "/overlay", "/api/state", "/api/record", "/stream.mjpg", "/operator"])
def test_forged_host_header_is_refused_with_400(client, path):
    response = client.get(path, headers={"Host": "attacker.example"})
    assert response.status_code == 400


def test_forged_host_is_refused_on_writes_too(client):
    response = client.post("/api/op/deal", headers=BEARER | {"Host": "attacker.example:8000"})
    assert response.status_code == 400
    assert len(client.get("/api/state").get_json()["moves"]) == 1  # only the game event


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "[::1]:8000"])
def test_loopback_host_headers_are_accepted(client, host):
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


def test_a_write_without_the_token_is_refused_and_nothing_is_stored(client):
    before = client.get("/api/record").data
    assert client.post("/api/op/deal").status_code == 401
    assert client.post("/api/op/deal", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/api/op/undo", json={}).status_code == 401
    assert client.get("/api/record").data == before


def test_the_operator_session_needs_the_csrf_token(client):
    assert client.get(f"/operator?token={TOKEN}").status_code == 302
    page = client.get("/operator")
    csrf = re.search(rb'name="csrf-token" content="([^"]+)"', page.data).group(1).decode()
    assert client.post("/api/op/deal").status_code == 403
    assert client.post("/api/op/deal", headers={"X-CSRF-Token": "guess"}).status_code == 403
    ok = client.post("/api/op/deal", headers={"X-CSRF-Token": csrf})
    assert ok.status_code == 200 and ok.get_json()["event"] == {"event": "deal"}


def test_a_wrong_token_does_not_log_in(client):
    assert client.get("/operator?token=nope").status_code == 401
    assert client.post("/operator/login", data={"token": "nope"}).status_code == 401
    assert b"csrf-token" not in client.get("/operator").data


def test_login_from_another_origin_is_refused(client):
    response = client.post("/operator/login", data={"token": TOKEN}, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403


def test_spectator_pages_are_read_only(client):
    for path in ("/", "/overlay", "/api/state", "/api/events", "/api/record", "/stream.mjpg"):
        assert client.post(path, headers=BEARER).status_code == 405
    assert b"csrf" not in client.get("/").data


def test_listening_beyond_loopback_needs_a_token(tmp_path):
    with pytest.raises(ValueError, match="--token"):
        create_app({"DB_PATH": str(tmp_path / "j.db"), "BIND_HOST": "0.0.0.0"})


def test_debug_is_off_and_errors_leak_no_traceback(client, app):
    assert app.debug is False
    response = client.get("/api/state?at=notanumber", headers={"Host": "localhost"})
    assert response.status_code == 200  # a bad ?at= is ignored, not a crash
    response = client.post("/api/op/event", headers=BEARER, data="not json", content_type="application/json")
    assert response.status_code == 400 and b"Traceback" not in response.data


def test_a_lan_bind_with_token_accepts_the_configured_host_name(make_app):
    app = make_app(BIND_HOST="0.0.0.0", ALLOWED_HOSTS=["domino.club"])
    client = app.test_client()
    assert client.get("/", headers={"Host": "domino.club:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "other.club"}).status_code == 400
