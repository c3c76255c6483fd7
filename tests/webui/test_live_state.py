"""The hub's held game state (one engine apply per event) is the full replay's after every event:
plays, passes, draws, reveals, new deals and games, undos, corrections, refused events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.record import read_record
from engine.simulate import random_game
from webui.hub import Hub, validate
from webui.journal import JournalError
from webui.state import build_state
from webui.store import EventStore

ROOT = Path(__file__).resolve().parents[2]


def full(hub: Hub) -> dict:
    """The page state from scratch: the journal folded and the record replayed."""
    return build_state(hub.store.entries(), hub.camera) | {"live_flags": hub.live_flags, "to_confirm": hub.to_confirm}


def check(hub: Hub) -> None:
    expected = full(hub)
    assert hub.state() == expected
    assert json.loads(hub.state_json()) == json.loads(json.dumps(expected))
    assert hub.state_json() == json.dumps(hub.state(), ensure_ascii=False, separators=(",", ":"))


def play(hub: Hub, events: list[dict], source: str = "camera") -> None:
    for event in events:
        hub.append(event, source)
        check(hub)


RECORDS = {
    "sample": read_record(ROOT / "dominocam" / "data" / "sample-bykovo.jsonl"),
    "baltic-camera": random_game("baltic", seed=3, deals=3, camera=True),
    "traditional": random_game("traditional", seed=5, players=3, deals=3),
    "sport-pairs": random_game("sport", seed=2, deals=2),
    "blitz-blind-camera": random_game("blitz-blind", seed=4, deals=2, camera=True),
    "dark": random_game("dark", seed=6, deals=2),
}


@pytest.mark.parametrize("name", list(RECORDS))
def test_the_held_state_is_the_replay_after_every_event(name):
    hub = Hub(EventStore(":memory:"))
    check(hub)
    play(hub, RECORDS[name])


def test_undo_correction_and_a_new_game_refold_to_the_replay():
    record = RECORDS["sample"]
    hub = Hub(EventStore(":memory:"))
    play(hub, record[:12])
    last = hub.store.last_id
    play(hub, [{"event": "undo", "target": last}], "operator")  # undo the last play
    play(hub, [{"event": "undo", "target": last + 1}], "operator")  # and redo it
    target = next(e.id for e in hub.store.entries() if e.event.get("event") == "play")
    play(hub, [{"event": "correct", "target": target + 1, "face": "up"}], "operator")
    play(hub, record[12:20])
    play(hub, [record[0] | {"variant": "traditional"}, {"event": "deal"}], "operator")  # a new game
    play(hub, RECORDS["traditional"][1:15])


def test_a_hub_started_on_a_stored_journal_replays_it_once_and_goes_on(tmp_path):
    record = RECORDS["baltic-camera"]
    store = EventStore(tmp_path / "j.db")
    play(Hub(store), record[:20])
    store.close()
    hub = Hub(EventStore(tmp_path / "j.db"))
    check(hub)
    play(hub, record[20:40])


REFUSED = [
    {"event": "play", "player": "Zoe", "tile": "0-0"},
    {"event": "play", "player": "Anna", "tile": "7-0"},
    {"event": "play", "player": "Anna", "tile": "0-0", "colour": "red"},
    {"event": "undo", "target": 1},
    {"event": "undo", "target": 99},
    {"event": "correct", "target": 2, "player": "Vera"},
    {"event": "shout"},
    ["not", "an", "object"],
]


@pytest.mark.parametrize("event", REFUSED, ids=lambda e: json.dumps(e)[:40])
def test_refused_events_are_refused_as_the_full_check_refuses_them(event):
    hub = Hub(EventStore(":memory:"))
    play(hub, RECORDS["sample"][:4])
    with pytest.raises(JournalError) as full_check:
        validate(event, hub.store.entries())
    with pytest.raises(JournalError) as held:
        hub.append(event, "operator")
    assert str(held.value) == str(full_check.value) and held.value.engine == full_check.value.engine
    check(hub)


def test_before_any_game_only_a_game_is_taken():
    hub = Hub(EventStore(":memory:"))
    with pytest.raises(JournalError, match="No game yet"):
        hub.append({"event": "deal"}, "operator")
    with pytest.raises(JournalError) as err:
        hub.append({"event": "game", "variant": "bykovo", "players": ["A"]}, "operator")
    assert err.value.engine
    check(hub)


def test_an_engine_event_is_taken_without_folding_or_replaying(monkeypatch):
    import webui.hub
    import webui.state

    record = RECORDS["sample"]
    hub = Hub(EventStore(":memory:"))
    play(hub, record[:5])

    def refuse(*args, **kwargs):
        raise AssertionError("a full fold or replay for an engine event")

    for module, name in ((webui.state, "current_game"), (webui.state, "replay_state"),
                         (webui.state, "replay"), (webui.hub, "validate"), (webui.hub, "current_game")):
        monkeypatch.setattr(module, name, refuse)
    for event in record[5:]:
        hub.append(event, "camera")
        assert json.loads(hub.state_json())["moves"][-1]["event"] == event
    monkeypatch.undo()
    check(hub)


def test_a_stored_record_the_engine_refuses_is_shown_with_its_error_and_refolded(tmp_path):
    store = EventStore(tmp_path / "j.db")
    record = RECORDS["sample"]
    for event in record[:6]:
        store.append(event, "camera")
    store.append({"event": "play", "player": "Zoe", "tile": "6-6"}, "record")  # written by no hub
    hub = Hub(store)
    state = hub.state()
    assert state["error"] and "Zoe" in state["error"]
    check(hub)
    with pytest.raises(JournalError):
        hub.append(record[6], "camera")  # the record still does not replay
    play(hub, [{"event": "undo", "target": 7}], "operator")
    assert hub.state()["error"] is None
    play(hub, record[6:12])


def test_an_event_is_taken_as_the_journal_stores_it():
    hub = Hub(EventStore(":memory:"))
    play(hub, RECORDS["sample"][:2])
    hub.append({"event": "reveal", "player": "Anna", "tiles": ("0-1", "1-4")}, "camera")  # JSON: a list
    assert hub.store.entries()[-1].event["tiles"] == ["0-1", "1-4"]
    check(hub)


def test_the_camera_corrects_a_seat_by_the_entry_its_append_answered():
    """The live pipeline names a move it wrote by the entry `Hub.append` gave back for it
    (vision.live.pipeline: the hands shown say a move was another player's)."""
    from tests.live.test_record import _mis_seated

    record, tile, true = _mis_seated()
    hub = Hub(EventStore(":memory:"))
    entries = [hub.append(e, "camera") for e in record]
    target = next(entry.id for entry, e in zip(entries, record, strict=True) if e.get("tile") == tile)
    hub.append({"event": "correct", "target": target, "player": "Gleb"}, "camera")
    check(hub)
    fixed = Hub(EventStore(":memory:"))
    play(fixed, true)
    moves = [(m["event"].get("player"), m["event"].get("tile")) for m in hub.state()["moves"]]
    assert (("Gleb", tile) in moves) and moves[:len(true)] == \
        [(m["event"].get("player"), m["event"].get("tile")) for m in fixed.state()["moves"]]
    assert [f["rule"] for f in hub.state()["flags"]] == [f["rule"] for f in fixed.state()["flags"]]
