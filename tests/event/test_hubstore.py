"""The hub's SQLite (webui/event/hubstore.py): idempotent by table and journal id, acks only a
contiguous prefix, survives a restart."""

from __future__ import annotations

from webui.event.hubstore import HubStore
from webui.event.rows import Row


def row(i: int, body: str = '{"event":"pass","player":"A"}') -> Row:
    return Row(i, 1000.0 + i / 3, "camera", body)


def test_a_repeated_entry_is_stored_once_and_never_doubles_a_move(tmp_path):
    store = HubStore(tmp_path / "hub.db")
    assert store.add_entry(1, row(1)) is True
    assert store.add_entry(1, row(1)) is False
    assert store.add_entry(2, row(1)) is True  # another table's entry 1 is another entry
    assert [r.id for r in store.rows(1)] == [1]
    assert store.tables() == [1, 2]


def test_the_ack_is_the_last_id_without_a_gap_and_entries_ahead_wait(tmp_path):
    store = HubStore(tmp_path / "hub.db")
    for i in (1, 2, 4, 5):
        store.add_entry(1, row(i))
    assert store.acked(1) == 2 and store.waiting(1) == 2
    assert [r.id for r in store.rows(1)] == [1, 2]
    store.add_entry(1, row(3))
    assert store.acked(1) == 5 and store.waiting(1) == 0
    assert [e.id for e in store.entries(1)] == [1, 2, 3, 4, 5]


def test_a_different_body_under_a_known_id_keeps_the_first(tmp_path, caplog):
    store = HubStore(tmp_path / "hub.db")
    store.add_entry(1, row(1))
    assert store.add_entry(1, row(1, '{"event":"pass","player":"B"}')) is False
    assert store.rows(1)[0].body == '{"event":"pass","player":"A"}'
    assert "fresh number" in caplog.text


def test_entries_and_the_event_log_survive_a_restart(tmp_path):
    store = HubStore(tmp_path / "hub.db")
    for i in (1, 2, 3, 5):
        store.add_entry(7, row(i))
    assert store.append_log({"event": "seat", "table": "Q1-1", "at": 1}, "operator") is not None
    assert store.append_log({"event": "result"}, "table 1", key="table 1/game 1") is not None
    assert store.append_log({"event": "result"}, "table 1", key="table 1/game 1") is None
    store.close()
    again = HubStore(tmp_path / "hub.db")
    assert again.acked(7) == 3 and again.waiting(7) == 1
    assert again.rows(7) == [row(1), row(2), row(3)]
    assert [e.key for e in again.log_entries()] == [None, "table 1/game 1"]


def test_only_the_current_game_stays_in_memory_and_a_superseded_one_is_handed_over_once(tmp_path):
    store = HubStore(tmp_path / "hub.db")
    game = '{"event":"game","variant":"bykovo","players":["A","B","C","D"],"options":{}}'
    for i, body in enumerate([game, '{"event":"deal"}', game, '{"event":"deal"}', '{"event":"deal"}'], start=1):
        store.add_entry(1, row(i, body))
    assert [e.id for e in store.entries(1)] == [3, 4, 5]
    assert [[e.id for e in g] for g in store.take_closed(1)] == [[1, 2]]
    assert store.take_closed(1) == []
    assert [r.id for r in store.rows(1)] == [1, 2, 3, 4, 5]  # the whole journal stays on disk
