"""The tournament blueprint: spectator page, JSON, operator writes, restart safety."""

from __future__ import annotations

import pytest
from flask import Flask

from webui.tournament_views import bp

TOKEN = "s3cret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
DECL = {"event": "tournament", "format": "bykovo-micro", "players": ["A", "B", "C", "D", "E"], "seed": 2,
        "first": ["A", "B", "C", "D"]}


def make_app(folder) -> Flask:
    app = Flask("tournament-test")
    app.config.update(TESTING=True, OPERATOR_TOKEN=TOKEN, TOURNAMENT_DIR=str(folder))
    app.register_blueprint(bp)
    return app


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def test_empty_standings_page_says_how_to_start(client):
    r = client.get("/standings")
    assert r.status_code == 200 and b"No tournament yet" in r.data
    assert client.get("/api/standings").get_json()["standings"] is None


def test_operator_starts_an_event_and_enters_results(client):
    r = client.post("/api/tournament/start", json={"name": "club", "declaration": DECL}, headers=AUTH)
    assert r.status_code == 201 and r.get_json()["standings"]["next_seated"] == ["A", "B", "C", "D"]
    r = client.post("/api/tournament/result", headers=AUTH,
                    json={"event": "club", "record": {"event": "result", "points": {"A": 0, "B": 4, "C": 9, "D": 30}}})
    assert r.status_code == 200
    data = client.get("/api/standings").get_json()
    assert data["event"] == "club" and data["standings"]["next_seated"] == ["B", "C", "D", "E"]
    page = client.get("/standings?event=club").data.decode()
    assert "Next deal:" in page and "B, C, D, E" in page
    assert "Next deal:" in client.get("/standings?event=club&fragment=1").data.decode()


def test_writes_need_the_operator_and_reads_do_not(client):
    r = client.post("/api/tournament/start", json={"name": "club", "declaration": DECL})
    assert r.status_code == 401
    r = client.post("/api/tournament/start", json={"name": "club", "declaration": DECL},
                    headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401
    assert client.get("/api/tournament/events").get_json()["events"] == []


def test_bad_results_are_400_with_the_reason_and_not_stored(client, tmp_path):
    client.post("/api/tournament/start", json={"name": "club", "declaration": DECL}, headers=AUTH)
    before = (tmp_path / "club.jsonl").read_bytes()
    r = client.post("/api/tournament/result", headers=AUTH,
                    json={"event": "club", "record": {"event": "result", "points": {"A": 0, "B": 4, "C": 9, "E": 3}}})
    assert r.status_code == 400 and "E sits out" in r.get_json()["error"]
    assert str(tmp_path) not in r.get_json()["error"]  # no server paths in replies
    assert (tmp_path / "club.jsonl").read_bytes() == before
    assert client.post("/api/tournament/result", headers=AUTH,
                       json={"event": "../etc", "record": {}}).status_code == 400
    assert client.post("/api/tournament/result", headers=AUTH,
                       json={"event": "nope", "record": {}}).status_code == 404
    r = client.post("/api/tournament/start", json={"name": "club", "declaration": DECL}, headers=AUTH)
    assert r.status_code == 400 and "already exists" in r.get_json()["error"]


def test_restarting_the_server_mid_event_loses_nothing(tmp_path):
    first = make_app(tmp_path).test_client()
    first.post("/api/tournament/start", json={"name": "club", "declaration": DECL}, headers=AUTH)
    for pts in ({"A": 0, "B": 4, "C": 9, "D": 30}, {"B": 1, "C": 0, "D": 12, "E": 7}):
        first.post("/api/tournament/result", json={"event": "club", "record": {"event": "result", "points": pts}},
                   headers=AUTH)
    shown = first.get("/api/standings?event=club").get_json()["standings"]
    second = make_app(tmp_path).test_client()  # a fresh process: only the files remain
    assert second.get("/api/standings?event=club").get_json()["standings"] == shown
    assert len(shown["deals"]) == 2


def test_sport_page_shows_the_move_timer_and_referee_alert(client):
    decl = {"event": "tournament", "format": "sport-pairs", "tables": {"1": ["A", "B", "C", "D"]}, "deals": 2}
    client.post("/api/tournament/start", json={"name": "cup", "declaration": decl}, headers=AUTH)
    client.post("/api/tournament/result", headers=AUTH,
                json={"event": "cup", "record": {"event": "turn", "table": "1", "player": "B", "at": 0.0}})
    data = client.get("/api/standings?event=cup").get_json()
    assert data["standings"]["tables"][0]["timer"]["alert"] is True
    assert "referee" in client.get("/standings?event=cup").data.decode()


def test_baltic_page_shows_the_call_list(client):
    decl = {"event": "tournament", "format": "baltic-rally", "players": [f"P{i}" for i in range(16)], "seed": 1}
    client.post("/api/tournament/start", json={"name": "rally", "declaration": decl}, headers=AUTH)
    page = client.get("/standings?event=rally").data.decode()
    assert "Q1-1" in page and "Q1-4" in page


def test_the_app_factory_registers_the_tournament_pages(tmp_path):
    from webui.app import create_app

    app = create_app({"DB_PATH": str(tmp_path / "journal.db"), "OPERATOR_TOKEN": TOKEN, "TESTING": True})
    try:
        client = app.test_client()
        r = client.post("/api/tournament/start", json={"name": "club", "declaration": DECL}, headers=AUTH)
        assert r.status_code == 201
        assert (tmp_path / "tournaments" / "club.jsonl").exists()  # beside the journal
        assert client.get("/standings").status_code == 200
        # The operator page needs the operator session (login at /operator with the token).
        assert client.get("/operator/tournament").status_code == 302
        client.get(f"/operator?token={TOKEN}")
        page = client.get("/operator/tournament?event=club&lang=en")
        assert page.status_code == 200 and b"Deal 1 of club" in page.data
        russian = client.get("/operator/tournament?event=club&lang=ru").get_data(as_text=True)
        assert "Раздача 1 турнира club: итог" in russian
        # The page's forms post with the session's CSRF token; without it the write is refused.
        with client.session_transaction() as sess:
            csrf = sess["csrf"]
        body = {"event": "club", "record": {"event": "result", "points": {"A": 0, "B": 1, "C": 2, "D": 3}}}
        assert client.post("/api/tournament/result", json=body).status_code == 403
        r = client.post("/api/tournament/result", json=body, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200 and r.get_json()["standings"]["next_seated"] == ["B", "C", "D", "E"]
    finally:
        from webui.live import live

        live(app).close()
