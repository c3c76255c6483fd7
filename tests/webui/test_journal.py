"""Corrections and undos are appended events; the journal folds them into the game record."""

from __future__ import annotations

import pytest

from webui.journal import JournalError, check_meta, current_game, last_undoable
from webui.store import Entry, EventStore

GAME = {"event": "game", "variant": "bykovo", "players": ["Anna", "Boris", "Vera", "Gleb"], "options": {}}


def entries(*events) -> list[Entry]:
    return [Entry(i + 1, float(i), "test", e) for i, e in enumerate(events)]


def test_undo_cancels_its_target_and_undoing_the_undo_restores_it():
    play = {"event": "play", "player": "Boris", "tile": "0-0"}
    base = entries(GAME, {"event": "deal"}, play, {"event": "undo", "target": 3})
    assert current_game(base).record == [GAME, {"event": "deal"}]
    redo = [*base, Entry(5, 5.0, "test", {"event": "undo", "target": 4})]
    assert current_game(redo).record == [GAME, {"event": "deal"}, play]


def test_correction_replaces_fields_keeps_the_original_and_null_removes_a_field():
    es = entries(GAME, {"event": "deal"}, {"event": "play", "player": "Boris", "tile": "0-0"},
                 {"event": "play", "player": "Vera", "tile": "0-5", "to": "0-0"},
                 {"event": "correct", "target": 4, "tile": "0-6", "player": "Gleb"},
                 {"event": "correct", "target": 4, "to": None})
    game = current_game(es)
    assert game.record[-1] == {"event": "play", "player": "Gleb", "tile": "0-6"}
    move = game.moves[-1]
    assert move.corrected_by == (5, 6)
    assert move.original == {"event": "play", "player": "Vera", "tile": "0-5", "to": "0-0"}


def test_a_new_game_event_starts_a_fresh_record():
    other = GAME | {"variant": "traditional"}
    es = entries(GAME, {"event": "deal"}, other, {"event": "deal"})
    assert current_game(es).record == [other, {"event": "deal"}]


def test_operator_events_are_checked_before_they_are_stored():
    es = entries(GAME, {"event": "deal"}, {"event": "pass", "player": "Anna"}, {"event": "undo", "target": 3})
    with pytest.raises(JournalError, match="new game"):
        check_meta({"event": "undo", "target": 1}, es)
    with pytest.raises(JournalError, match="no move #99"):
        check_meta({"event": "undo", "target": 99}, es)
    with pytest.raises(JournalError, match="was undone"):
        check_meta({"event": "correct", "target": 3, "player": "Vera"}, es)
    with pytest.raises(JournalError, match="no field tile"):
        check_meta({"event": "correct", "target": 3, "tile": "1-1"}, es[:3])
    with pytest.raises(JournalError, match="Only plays, passes, draws and shown hands"):
        check_meta({"event": "correct", "target": 2, "player": "Vera"}, es)


def test_last_undoable_skips_undone_entries():
    es = entries(GAME, {"event": "deal"}, {"event": "pass", "player": "Anna"}, {"event": "undo", "target": 3})
    assert last_undoable(es) == 2
    assert last_undoable(entries(GAME)) is None


def test_store_appends_durably_and_reloads_in_order(tmp_path):
    path = tmp_path / "j.db"
    store = EventStore(path)
    ids = [store.append({"event": "deal", "n": i}, "test").id for i in range(5)]
    assert ids == sorted(ids) and len(set(ids)) == 5
    mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
    sync = store._db.execute("PRAGMA synchronous").fetchone()[0]
    assert (mode, sync) == ("wal", 2)  # 2 = FULL
    store.close()
    again = EventStore(path)
    assert [e.event["n"] for e in again.entries()] == [0, 1, 2, 3, 4]
    assert [e.id for e in again.entries(after=ids[2])] == ids[3:]


def test_store_refuses_a_file_that_is_not_a_journal(tmp_path):
    bad = tmp_path / "x.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ValueError, match="not a dominocam journal"):
        EventStore(bad)
