"""Tiles to confirm on the web (issue 24): the real pipeline holds a tile the rules doubt, the
state carries it, and POST /api/op/confirm resolves it (confirm / correct / not a tile) through
`pipeline.resolve`, with the operator's token or session + CSRF, errors in the page's language."""

from __future__ import annotations

import json

import pytest

from tests.webui.conftest import BEARER, TOKEN, wait_for
from tests.webui.doubtful import doubtful_pipeline


@pytest.fixture
def held(make_app):
    """(app, client, the item held): the pipeline has played its scene (not paced) and holds 1-2."""
    app = make_app(PIPELINE=doubtful_pipeline(tail_s=4.0))
    hub = app.extensions["dominocam"].hub
    wait_for(lambda: hub.to_confirm, timeout=30)
    return app, app.test_client(), hub.to_confirm[0]


def record(client) -> list[dict]:
    return [json.loads(line) for line in client.get("/api/record").get_data(as_text=True).splitlines()]


def plays(client) -> list[dict]:
    return [e for e in record(client) if e["event"] == "play"]


def test_the_state_carries_the_tile_to_confirm_and_no_move_for_it(held):
    app, client, item = held
    state = client.get("/api/state").get_json()
    assert [(i["id"], i["tile"], i["reason"], i["rule"], i["player"], i["to"]) for i in state["to_confirm"]] == [
        (item["id"], "1-2", "no-end", "BYK-1.6", "Boris", "0-0")]
    assert plays(client) == [{"event": "play", "player": "Anna", "tile": "0-0"}]
    assert not any(e["event"] == "pass" for e in record(client))  # a doubtful tile makes no passes


def test_confirm_writes_the_play_as_read(held):
    app, client, item = held
    r = client.post("/api/op/confirm", headers=BEARER, json={"id": item["id"], "action": "confirm"})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["tile"] == "1-2" and len(body["ids"]) == 1 and body["state"]["to_confirm"] == []
    assert plays(client)[-1] == {"event": "play", "player": "Boris", "tile": "1-2", "to": "0-0"}
    assert client.get("/api/state").get_json()["to_confirm"] == []


@pytest.mark.parametrize("given", ["2-0", [2, 0], "0-2"])
def test_correct_writes_the_picked_values(held, given):
    app, client, item = held
    r = client.post("/api/op/confirm", headers=BEARER, json={"id": item["id"], "action": "correct", "tile": given})
    assert r.status_code == 200, r.get_json()
    assert plays(client)[-1] == {"event": "play", "player": "Boris", "tile": "0-2", "to": "0-0"}
    assert app.extensions["dominocam"].hub.to_confirm == []
    assert not client.get("/api/state").get_json()["flags"], "0-2 fits 0: the record is clean"


def test_dismiss_writes_nothing_and_the_item_goes(held):
    app, client, item = held
    before = record(client)
    r = client.post("/api/op/confirm", headers=BEARER, json={"id": item["id"], "action": "dismiss"})
    assert r.status_code == 200 and r.get_json()["ids"] == []
    assert record(client) == before
    assert client.get("/api/state").get_json()["to_confirm"] == []


def test_an_unknown_or_resolved_id_is_404_in_the_pages_language(held):
    app, client, item = held
    r = client.post("/api/op/confirm", headers=BEARER, json={"id": 99, "action": "confirm"})
    assert r.status_code == 404
    assert "Нет фишки на подтверждение под номером 99" in r.get_json()["error"]
    assert client.post("/api/op/confirm", headers=BEARER, json={"id": item["id"], "action": "dismiss"}).status_code == 200
    again = client.post("/api/op/confirm?lang=en", headers=BEARER, json={"id": item["id"], "action": "confirm"})
    assert again.status_code == 404
    assert again.get_json()["error"].startswith(f"No tile to confirm numbered {item['id']}: it was resolved already")


@pytest.mark.parametrize("tile", ["7-1", "x", "", None, [1, 2, 3], "1-"])
def test_a_bad_tile_is_400_and_the_item_stays(held, tile):
    app, client, item = held
    r = client.post("/api/op/confirm", headers=BEARER, json={"id": item["id"], "action": "correct", "tile": tile})
    assert r.status_code == 400
    assert "выберите два значения от 0 до 6" in r.get_json()["error"]
    assert [i["id"] for i in app.extensions["dominocam"].hub.to_confirm] == [item["id"]]
    assert len(plays(client)) == 1


def test_a_tile_already_played_is_409(held):
    app, client, item = held
    r = client.post("/api/op/confirm?lang=en", headers=BEARER,
                    json={"id": item["id"], "action": "correct", "tile": "0-0"})
    assert r.status_code == 409
    assert r.get_json()["error"] == "0-0 is already a move of this deal: correct that move instead."
    assert [i["id"] for i in app.extensions["dominocam"].hub.to_confirm] == [item["id"]]


def test_a_bad_action_is_400(held):
    app, client, item = held
    r = client.post("/api/op/confirm?lang=en", headers=BEARER, json={"id": item["id"], "action": "delete"})
    assert r.status_code == 400 and "not 'delete'" in r.get_json()["error"]


def test_without_the_token_or_csrf_nothing_is_resolved(held):
    app, client, item = held
    body = {"id": item["id"], "action": "confirm"}
    assert client.post("/api/op/confirm", json=body).status_code == 401
    assert client.post("/api/op/confirm", headers={"Authorization": "Bearer wrong"}, json=body).status_code == 401
    client.get(f"/operator?token={TOKEN}")  # a session, but no CSRF token sent
    assert client.post("/api/op/confirm", json=body).status_code == 403
    assert len(plays(client)) == 1
    with client.session_transaction() as s:
        csrf = s["csrf"]
    assert client.post("/api/op/confirm", headers={"X-CSRF-Token": csrf}, json=body).status_code == 200
    assert plays(client)[-1]["tile"] == "1-2"


def test_the_operator_gets_a_picture_of_the_tile(held):
    app, client, item = held
    url = f"/api/op/confirm/{item['id']}.jpg"
    assert client.get(url).status_code == 401  # spectators do not
    client.get(f"/operator?token={TOKEN}")
    r = client.get(url)
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.data[:2] == b"\xff\xd8"
    assert client.get("/api/op/confirm/99.jpg").status_code == 404


def test_without_a_live_pipeline_it_says_so(client):
    r = client.post("/api/op/confirm?lang=en", headers=BEARER, json={"id": 1, "action": "confirm"})
    assert r.status_code == 409 and "No live camera" in r.get_json()["error"]
    assert client.get("/api/state").get_json()["to_confirm"] == []
