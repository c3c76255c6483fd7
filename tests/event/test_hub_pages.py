"""The hub's pages and writes through Flask's test client (the broker is not needed to read the
pages or write the event's log): /event, /standings, /calls, /operator, /api/event/log."""

from __future__ import annotations

import re

import pytest

from tests.event.conftest import Credentials
from webui.event.app import create_hub_app
from webui.event.hubstore import HubStore
from webui.event.service import EventHub
from webui.event.topics import Broker

TOKEN = "hub-page-token"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = [f"B{i:02d}" for i in range(1, 17)]
DECL = {"event": "tournament", "format": "baltic-rally", "players": PLAYERS, "seed": 5}


@pytest.fixture
def hub(tmp_path):
    h = EventHub(HubStore(tmp_path / "hub.db"), Broker("127.0.0.1", 1), "cup", Credentials())
    yield h
    h.store.close()


@pytest.fixture
def client(hub):
    return create_hub_app({"HUB": hub, "OPERATOR_TOKEN": TOKEN}).test_client()


def test_pages_render_before_any_table_or_tournament(client):
    assert b"Waiting for the tables" in client.get("/event").data
    assert b"No tournament declared yet" in client.get("/standings").data
    assert client.get("/api/event/boards").get_json()["boards"] == []
    assert client.get("/event/table/1/thumb.jpg").status_code == 404
    assert client.get("/event", headers={"Host": "evil.example"}).status_code == 400


def test_writes_need_the_operator_token(client):
    assert client.post("/api/event/log", json=DECL).status_code == 401
    assert client.post("/api/event/log", json=DECL, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/operator/declare", data={"declaration": "{}"}).status_code == 401


def test_bal_t_declare_then_standings_and_call_list_show_the_q1_tables(client):
    reply = client.post("/api/event/log", json=DECL, headers=BEARER).get_json()
    assert [t["table"] for t in reply["tournament"]["call_list"]] == ["Q1-1", "Q1-2", "Q1-3", "Q1-4"]
    page = client.get("/standings").data.decode()
    assert 'data-table="Q1-1"' in page and "qualifying" in page
    calls = client.get("/calls").data.decode()
    assert calls.count('data-status="waiting"') == 4
    bad = client.post("/api/event/log", json={"event": "result", "table": "Q9-1", "points": {"B01": 1}},
                      headers=BEARER)
    assert bad.status_code == 400 and "open tables" in bad.get_json()["error"]


def test_bal_t_the_operator_page_replaces_a_no_show_with_csrf(client, hub):
    client.post("/api/event/log", json=DECL, headers=BEARER)
    assert client.get(f"/operator?token={TOKEN}").status_code == 302
    page = client.get("/operator").data.decode()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    q1 = hub.tournament()["call_list"][0]
    form = {"table": q1["table"], "player": q1["players"][0], "replacement": "Volunteer"}
    assert client.post("/operator/no-show", data=form).status_code == 403  # no CSRF token
    assert client.post("/operator/no-show", data=form | {"csrf_token": csrf}).status_code == 302
    assert hub.tournament()["call_list"][0]["players"][0] == "Volunteer"
    again = client.post("/operator/no-show", data=form | {"csrf_token": csrf})
    assert again.status_code == 400 and b"not at table" in again.data
