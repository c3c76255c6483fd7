"""/api/state, /api/record, /api/events and the operator writes, against the real engine."""

from __future__ import annotations

import io
import json

import cv2
import numpy as np

from engine.record import parse_event
from engine.replay import replay_events
from tests.webui.conftest import BEARER, SSEReader, engine_game

ENGINE_KEYS = ("variant", "flags", "deals", "totals", "finished", "loser", "standings", "layout", "to_move")


def load(client, events):
    """Start the engine's game through the operator API, event by event."""
    ids = []
    for event in events:
        response = client.post("/api/op/event", headers=BEARER, json=event)
        assert response.status_code == 200, response.get_json()
        ids.append(response.get_json()["id"])
    return ids


def record_of(client) -> list[dict]:
    text = client.get("/api/record").data.decode()
    return [parse_event(line, i) for i, line in enumerate(text.splitlines())]


def test_record_round_trip_and_state_is_the_engine_replay(client):
    events = engine_game(seed=3, deals=2)
    load(client, events)
    assert record_of(client) == events
    state = client.get("/api/state").get_json()
    expected = replay_events(events)
    for key in ENGINE_KEYS:
        assert state[key] == expected[key], key
    assert [m["event"] for m in state["moves"]] == events


def test_flags_are_mapped_to_journal_ids(client):
    game = engine_game(seed=4, deals=1)
    ids = load(client, game[:4])
    # BYK-1.6: a tile that does not match the end it is laid on is kept and flagged.
    wrong = {"event": "play", "player": game[4]["player"], "tile": "6-6", "to": game[3]["tile"]}
    bad_id = load(client, [wrong])[0]
    state = client.get("/api/state").get_json()
    flagged = [f for f in state["flags"] if f.get("id") == bad_id]
    assert flagged and all(f["rule"] for f in flagged), state["flags"]
    assert ids[0] < bad_id


def test_step_back_shows_the_game_as_it_was(client):
    events = engine_game(seed=5, deals=1)
    load(client, events)
    at = 6
    past = client.get(f"/api/state?at={at}").get_json()
    assert past["live"] is False and past["at"] == at
    assert past["layout"] == replay_events(events[: at + 1])["layout"]
    assert len(past["moves"]) == len(events)  # the whole list stays for the stepper
    assert client.get("/api/state").get_json()["live"] is True


def test_correction_and_undo_are_new_journal_entries_and_change_the_record(client):
    events = engine_game(seed=6, deals=1)
    ids = load(client, events[:5])
    play_id, play = ids[3], events[3]
    assert play["event"] == "play"
    fixed = client.post("/api/op/correct", headers=BEARER, json={"target": play_id, "tile": "6-6"})
    assert fixed.status_code == 200
    assert record_of(client)[3]["tile"] == "6-6"
    undone = client.post("/api/op/undo", headers=BEARER, json={})
    assert undone.get_json()["event"] == {"event": "undo", "target": ids[4]}
    assert record_of(client) == events[:3] + [play | {"tile": "6-6"}]
    journal = client.get("/api/journal").get_json()
    assert [e["event"]["event"] for e in journal][-2:] == ["correct", "undo"]
    assert next(e for e in journal if e["id"] == play_id)["event"] == play  # never edited


def test_refused_operator_events_say_why_and_store_nothing(client):
    before = client.get("/api/journal").get_json()
    for body in ({"player": "Nobody"}, {"player": ""}):
        response = client.post("/api/op/pass", headers=BEARER, json=body)
        assert response.status_code == 400 and response.get_json()["error"]
    response = client.post("/api/op/play", headers=BEARER, json={"player": "Anna", "tile": "7-2"})
    assert response.status_code == 400 and "7-2" in response.get_json()["error"]
    assert client.get("/api/journal").get_json() == before


def test_new_game_from_the_operator(client):
    response = client.post("/api/op/game", headers=BEARER,
                           json={"variant": "traditional", "players": "Ann, Bob, Cid", "target": 50})
    assert response.status_code == 200
    state = response.get_json()["state"]
    assert state["game"] == {"event": "game", "variant": "traditional", "players": ["Ann", "Bob", "Cid"],
                             "options": {"target": 50}}
    assert record_of(client) == [state["game"]]


def test_recount_confirm_appends_one_reveal_per_player(client):
    events = engine_game(seed=7, deals=1, camera=True)
    reveals = [e for e in events if e["event"] == "reveal"]
    load(client, [e for e in events if e["event"] != "reveal"])
    hands = {e["player"]: e["tiles"] for e in reveals}
    response = client.post("/api/op/recount", headers=BEARER, json={"hands": hands})
    assert response.status_code == 200, response.get_json()
    assert [e for e in record_of(client) if e["event"] == "reveal"] == [
        {"event": "reveal", "player": p, "tiles": hands[p]} for p in events[0]["players"] if p in hands]
    assert response.get_json()["state"]["deals"] == replay_events(events)["deals"]


def test_recount_photo_goes_to_the_reader_and_refuses_non_images(client, monkeypatch):
    import webui.recount_photo as recount

    seen = {}

    def fake_reader(image, players, variant, record=None, seats=None):
        seen["shape"] = image.shape
        seen["record"] = record
        return {"hands": {players[0]: ["6-6", "2-4"]}}

    monkeypatch.setattr(recount, "_reader", lambda: fake_reader)
    ok, png = cv2.imencode(".png", np.full((40, 60, 3), 200, np.uint8))
    response = client.post("/api/op/recount-photo", headers=BEARER,
                           data={"photo": (io.BytesIO(png.tobytes()), "hands.png")})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["hands"] == {"Anna": ["6-6", "2-4"]}
    assert response.get_json()["pips"] == {"Anna": 18}
    assert seen["shape"] == (40, 60, 3)
    assert seen["record"][0]["event"] == "game"  # the reader audits the current game's passes
    bad = client.post("/api/op/recount-photo", headers=BEARER, data={"photo": (io.BytesIO(b"text"), "x.png")})
    assert bad.status_code == 400


def test_sse_replays_what_a_reconnecting_page_missed(app, client, serve):
    server = serve(app)
    events = engine_game(seed=8, deals=1)
    ids = load(client, events[:6])
    reader = SSEReader(server.url, last_event_id=ids[2])
    try:
        got = [reader.next("entry") for _ in range(3)]
        assert [g[1] for g in got] == ids[3:6]
        assert [json.loads(g[2])["event"] for g in got] == events[3:6]
        reader.until("state", lambda s: s["last_event_id"] == ids[5])
        # live: a new event arrives as an entry and a new state
        new_id = load(client, [events[6]])[0]
        kind, eid, data = reader.next("entry")
        assert eid == new_id and json.loads(data)["event"] == events[6]
        reader.until("state", lambda s: s["last_event_id"] == new_id)
    finally:
        reader.close()


def test_sse_without_last_event_id_starts_from_now(app, client, serve):
    server = serve(app)
    load(client, engine_game(seed=9, deals=1)[:3])
    reader = SSEReader(server.url)
    try:
        state = json.loads(reader.next("state")[2])
        assert len(state["moves"]) == 3
        assert reader.events.empty()  # no old entries replayed
    finally:
        reader.close()


def test_recount_seats_follow_the_table_calibration():
    from webui.recount_photo import seats_for

    players = ["Anna", "Boris", "Vera", "Gleb"]
    cal = {"seats": {"bottom": "Vera", "left": "Gleb", "top": "Anna", "right": "Boris"}}
    assert seats_for(players, cal) == ["north", "east", "south", "west"]
    assert seats_for(players, {"seats": {"bottom": "Vera"}}) is None  # incomplete: the reader decides
    assert seats_for(players, None) is None


def test_live_pipeline_flags_are_pushed_over_sse_for_both_pages(make_app, serve):
    """LivePipeline.flags() (take-back, misread, refused) reach /api/events as `live_flags` at
    once: the operator's message and ID for each, plain words only for those spectators need."""
    from tests.webui.conftest import FakePipeline

    fake = FakePipeline(auto_fps=None)
    server = serve(make_app(PIPELINE=fake))
    reader = SSEReader(server.url, query="?lang=en")
    try:
        assert reader.until("state", lambda s: "live_flags" in s)["live_flags"] == []
        fake.raise_flag("take-back", "3-5 (played by Boris) has left the layout", "TAKE-BACK", "3-5", "Boris")
        fake.raise_flag("refused", "the journal refused a play", "REFUSED", "3-5", "Boris")
        state = reader.until("state", lambda s: len(s["live_flags"]) == 2, timeout=1.0)
    finally:
        reader.close()
    take_back, refused = state["live_flags"]
    assert (take_back["rule"], take_back["public"], take_back["n"]) == ("TAKE-BACK", True, 1)
    assert take_back["text"] == "Boris took back 3-5: the referee will decide whether the move stands."
    assert take_back["message"] == "3-5 (played by Boris) has left the layout"  # the pipeline's own words
    assert take_back["op_text"] == "Boris took back 3-5: undo the move or leave it"
    assert (refused["rule"], refused["public"], refused["text"]) == ("REFUSED", False, "")
    assert server.app.extensions["dominocam"].hub.state(lang="en")["live_flags"] == state["live_flags"]
    russian = server.app.extensions["dominocam"].hub.state(lang="ru")["live_flags"][0]
    assert russian["text"] == "Boris забрал 3-5 обратно: судья решит, засчитать ли ход."
