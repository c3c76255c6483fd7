"""A table's journal reaches the hub byte for byte through the real broker (issue 27)."""

from __future__ import annotations

import logging

from tests.event.conftest import baltic_game, journal_rows, wait_for
from tests.event.tables import Table, start_hub
from webui.event.credentials import Credentials


def hub_rows(hub, table: int) -> list[tuple]:
    return [(r.id, r.ts, r.source, r.body) for r in hub.store.rows(table)]


def test_a_whole_game_reaches_the_hub_byte_for_byte_with_state_thumbnail_and_status(broker, credentials, tmp_path):
    record = baltic_game(["A1", "A2", "A3", "A4"], seed=11)
    hub = start_hub(tmp_path, broker.url, credentials)
    table = Table(tmp_path, 1, broker.url, credentials, record, pace_s=0.005)
    try:
        wait_for(lambda: len(journal_rows(table.db)) == len(record), 30, what="the table to play its record")
        wait_for(lambda: hub_rows(hub, 1) == journal_rows(table.db), 10, what="the hub to hold the journal")
        wait_for(lambda: table.publisher.acked == len(record), 5, what="the hub's ack")
        board = wait_for(lambda: next((b for b in hub.boards() if b["finished"]), None), 5, what="the board")
        assert board["online"] is True
        assert board["players"] == ["A1", "A2", "A3", "A4"]
        assert max(board["totals"].values()) >= 151  # BAL-6: the game ends when someone reaches 151
        assert board["url"] == "http://127.0.0.1:9/table1"
        jpeg = wait_for(lambda: hub.thumbnail(1), 5, what="a thumbnail")
        assert len(jpeg) < 40_000
    finally:
        table.close()
    wait_for(lambda: hub.boards()[0]["online"] is False, 5, what="the table marked offline")
    hub.stop()


def test_a_wrong_password_is_one_clear_line_and_the_table_plays_on(broker, tmp_path, caplog):
    record = baltic_game(["A1", "A2", "A3", "A4"], seed=12)[:40]
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, 2, broker.url, Credentials("club", "wrong"), record, pace_s=0.01)
        try:
            wait_for(lambda: len(journal_rows(table.db)) == len(record), 20, what="the table to play on")
            wait_for(lambda: table.publisher.conn.problem, 5, what="a refusal")
        finally:
            table.close()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert "refused the user name or password" in errors[0] and "--event-user" in errors[0]


def test_an_unreachable_broker_is_one_clear_line_and_the_table_plays_on(tmp_path, credentials, caplog):
    from tests.event.conftest import free_port

    url = f"mqtt://127.0.0.1:{free_port()}"
    record = baltic_game(["A1", "A2", "A3", "A4"], seed=13)[:30]
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, 3, url, credentials, record, pace_s=0.01)
        try:
            wait_for(lambda: len(journal_rows(table.db)) == len(record), 20, what="the table to play on")
            wait_for(lambda: table.publisher.conn.problem, 5, what="the broker reported unreachable")
        finally:
            table.close()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert "cannot reach the broker" in errors[0]
