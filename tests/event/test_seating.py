"""The hub seats players at a table (retained `…/seat`) and the table starts that game once;
`dominocam serve` without --event is unchanged, and bad --event options are one clear line."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request

from tests.event.conftest import wait_for
from tests.event.tables import Table, start_hub
from webui.journal import current_game

PLAYERS = [f"B{i:02d}" for i in range(1, 17)]
DECL = {"event": "tournament", "format": "baltic-rally", "players": PLAYERS, "seed": 5}


def test_bal_t_starting_a_round_seats_its_four_at_the_table_once(broker, credentials, tmp_path):
    hub = start_hub(tmp_path, broker.url, credentials)
    table = Table(tmp_path, 1, broker.url, credentials, None)
    try:
        wait_for(lambda: [b["table"] for b in hub.boards()] == [1], 10, what="the table on the board")
        hub.add(DECL, "operator")
        hub.add({"event": "round", "round": "Q1", "at": time.time() + 600}, "operator")
        q1 = hub.tournament()["call_list"][0]
        game = wait_for(lambda: current_game(table.live.store.entries()).game_event["players"] == q1["players"]
                        and current_game(table.live.store.entries()).game_event, 10, what="the seated game")
        assert game["variant"] == "baltic"  # the engine's rules for a baltic-rally table (BAL-1..17)
        assert table.live.store.entries()[-1].source == "hub"
        wait_for(lambda: hub.boards()[0]["tournament_table"] == q1["table"], 10, what="the board's label")
        entries = len(table.live.store.entries())
    finally:
        table.close()
    table = Table(tmp_path, 1, broker.url, credentials, None)  # the retained seat comes again
    try:
        time.sleep(1.0)
        assert len(table.live.store.entries()) == entries  # the same seating starts no second game
    finally:
        table.close()
        hub.stop()


def serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dominocam", "serve", "--source", "none", *args],
                          capture_output=True, text=True, timeout=60)


def test_bad_event_options_are_one_clear_line_each(tmp_path):
    db = str(tmp_path / "t.db")
    for args, says in [
        (["--table", "2"], "need --event"),
        (["--event", "mqtt://127.0.0.1"], "name the event"),
        (["--event", "mqtt://127.0.0.1/cup"], "--table N"),
        (["--event", "mqtt://127.0.0.1/cup", "--table", "1", "--event-password-file", str(tmp_path / "nope")],
         "cannot read the broker password file"),
    ]:
        done = serve("--db", db, *args)
        assert done.returncode == 2, done
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and says in lines[0], lines


def test_a_table_without_event_prints_its_three_addresses_as_before(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "dominocam", "serve", "--source", "none", "--port", "0",
                             "--db", str(tmp_path / "t.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        assert [line.split(":", 1)[0] for line in lines] == ["spectators", "overlay", "operator"]
        url = lines[0].split()[-1]
        wait_for(lambda: urllib.request.urlopen(url + "api/health", timeout=5).status == 200, 10,
                 what="the table's pages")  # serving: its SIGTERM handler is set
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0
    assert "mqtt" not in err.lower() and "webui.event" not in err
