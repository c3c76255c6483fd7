"""Unknown is not zero (issue 24): a hand not counted yet is `null` in /api/state and *waiting for
the recount* on the pages; the deal's points are final once every hand is known, or once the
referee starts the next deal."""

from __future__ import annotations

from engine.replay import replay_events
from tests.webui.conftest import BEARER, engine_game


def played(client, events) -> None:
    for e in events:
        assert client.post("/api/op/event", headers=BEARER, json=e).status_code == 200


def test_hands_not_revealed_are_null_until_counted(client):
    events = engine_game(seed=3, deals=1, camera=True)  # a camera game: the hands come as reveals
    reveals = [e for e in events if e["event"] == "reveal"]
    played(client, [e for e in events if e["event"] != "reveal"])
    state = client.get("/api/state?lang=ru").get_json()
    deal = state["deals"][-1]
    assert deal["end"] not in (None, "unfinished")
    unknown = sorted(p for p, v in deal["points"].items() if v is None)
    assert unknown and sorted(state["waiting"]) == unknown
    assert all(state["totals"][p] is None for p in unknown)  # not 0
    known = [p for p in state["players"] if p not in unknown]
    assert all(isinstance(state["totals"][p], int) for p in known)

    played(client, reveals[:-1])
    assert client.get("/api/state").get_json()["waiting"] == [reveals[-1]["player"]]
    played(client, reveals[-1:])
    state = client.get("/api/state").get_json()
    assert state["waiting"] == []
    assert state["totals"] == replay_events(events)["totals"]


def test_the_next_deal_closes_the_wait(client):
    events = engine_game(seed=3, deals=1, camera=True)
    played(client, [e for e in events if e["event"] != "reveal"])
    assert client.get("/api/state").get_json()["waiting"]
    played(client, [{"event": "deal"}])
    assert client.get("/api/state").get_json()["waiting"] == []
