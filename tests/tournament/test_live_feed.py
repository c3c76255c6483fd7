"""A deal finished at the live table is appended to the active micro-tournament once (BYK-1.12, BYK-2.5)."""

from __future__ import annotations

import json

import pytest

from engine.replay import replay_events
from engine.tournament.live import bykovo_result
from tests.tournament.test_live import PLAYERS, anna_goes_out
from webui.app import create_app

TOKEN = "test-operator-token"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def make_client(tmp_path):
    apps = []

    def make():
        app = create_app({"DB_PATH": str(tmp_path / "journal.db"), "OPERATOR_TOKEN": TOKEN,
                          "PLAYERS": PLAYERS, "TOURNAMENT_DIR": str(tmp_path / "events")})
        apps.append(app)
        return app.test_client()

    yield make
    for app in apps:
        app.extensions["dominocam"].close()


def start(client, first: list[str], players: list[str]) -> None:
    declaration = {"event": "tournament", "format": "bykovo-micro", "players": players,
                   "first": first, "seed": 1}
    response = client.post("/api/tournament/start", headers=BEARER, json={"name": "club", "declaration": declaration})
    assert response.status_code == 201, response.get_json()


def post(client, events: list[dict]) -> None:
    for event in events:
        response = client.post("/api/op/event", headers=BEARER, json=event)
        assert response.status_code == 200, response.get_json()


def results(tmp_path) -> list[dict]:
    lines = (tmp_path / "events" / "club.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[1:]]


def test_byk_2_5_a_finished_live_deal_is_fed_once_also_after_a_restart(make_client, tmp_path):
    client = make_client()
    start(client, PLAYERS, PLAYERS)  # four players: the same four are called again next deal
    events = anna_goes_out()
    post(client, events[:-1])
    assert results(tmp_path) == []  # the deal is not over yet
    post(client, events[-1:])
    expected = bykovo_result(replay_events(events)["deals"][0])
    fed = results(tmp_path)
    assert len(fed) == 1
    assert fed[0]["points"] == expected["points"] and fed[0]["places"] == expected["places"]
    standings = client.get("/api/standings?event=club").get_json()["standings"]
    assert len(standings["deals"]) == 1 and standings["next_seated"] == PLAYERS

    post(client, [{"event": "pass", "player": "Boris"}])
    assert len(results(tmp_path)) == 1
    client.application.extensions["dominocam"].close()
    restarted = make_client()  # same journal, same record: the deal is not fed twice
    post(restarted, [{"event": "pass", "player": "Boris"}])
    assert len(results(tmp_path)) == 1


def test_byk_2_4_a_deal_by_other_players_is_left_to_the_operator(make_client, tmp_path, caplog):
    client = make_client()
    start(client, ["Boris", "Vera", "Gleb", "Dasha"], PLAYERS + ["Dasha"])
    with caplog.at_level("WARNING", logger="webui.tournament_live"):
        post(client, anna_goes_out())
    assert results(tmp_path) == []
    assert "enter its result on /operator/tournament" in caplog.text
