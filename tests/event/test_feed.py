"""The event's tournament from the hub's log and the tables' games (webui/event/feed.py, calls.py),
with engine/tournament deciding every rule."""

from __future__ import annotations

import pytest

from engine.replay import replay_events
from engine.tournament import TournamentError
from tests.event.conftest import baltic_game
from webui.event import calls, feed
from webui.event.hubstore import LogEntry

PLAYERS = [f"B{i:02d}" for i in range(1, 17)]
DECL = {"event": "tournament", "format": "baltic-rally", "players": PLAYERS, "seed": 5}


def logged(*events: dict) -> list[LogEntry]:
    return [LogEntry(i, float(i), "operator", e) for i, e in enumerate(events, start=1)]


def q1() -> list[dict]:
    return feed.replay(logged(DECL))["call_list"]


def test_bal_t_a_finished_game_is_the_result_of_the_open_table_of_its_four_players():
    table = q1()[1]
    record = baltic_game(list(reversed(table["players"])), seed=3)  # any seat order
    result = replay_events(record)
    cands = feed.candidates("baltic-rally", feed.replay(logged(DECL)), 2, 1, result, record[0]["players"])
    assert [c.line["table"] for c in cands] == [table["table"]]
    assert cands[0].line["points"] == result["totals"] and cands[0].key == "table 2/game 1"
    unfinished = replay_events(record[:30])
    assert feed.candidates("baltic-rally", feed.replay(logged(DECL)), 2, 1, unfinished, record[0]["players"]) == []
    strangers = replay_events(baltic_game(["X1", "X2", "X3", "X4"], seed=3))
    assert feed.candidates("baltic-rally", feed.replay(logged(DECL)), 2, 1, strangers, ["X1", "X2", "X3", "X4"]) == []


def test_bal_t_a_correction_is_a_new_entry_and_changes_who_advances():
    t = q1()[0]
    a, b, c, d = t["players"]
    log = logged(DECL, {"event": "result", "table": t["table"], "points": {a: 10, b: 151, c: 40, d: 80}})
    assert feed.replay(log)["qualified"] == [a]
    fix = {"event": "correct", "target": 2, "points": {a: 90, b: 151, c: 40, d: 80}}
    feed.check_new(log, fix)
    log = [*log, LogEntry(3, 3.0, "operator", fix)]
    assert feed.replay(log)["qualified"] == [c]
    assert log[1].event["points"][a] == 10  # the original entry stays as it was


def test_bal_t_a_no_show_is_replaced_by_a_volunteer_and_wrong_entries_are_refused_with_reasons():
    t = q1()[0]
    log = logged(DECL)
    feed.check_new(log, {"event": "no-show", "table": t["table"], "player": t["players"][0], "replacement": "Vol"})
    with pytest.raises(TournamentError, match="BAL-T"):
        feed.check_new(log, {"event": "no-show", "table": t["table"], "player": t["players"][0],
                             "replacement": q1()[1]["players"][0]})
    with pytest.raises(TournamentError, match="already has its tournament"):
        feed.check_new(log, DECL)
    with pytest.raises(TournamentError, match="no tournament yet"):
        feed.check_new([], {"event": "result", "table": "Q1-1", "points": {}})
    with pytest.raises(TournamentError, match="no result"):
        feed.check_new(log, {"event": "correct", "target": 1, "points": {}})


def test_bal_t_call_list_seats_open_tables_at_physical_tables_and_calls_ten_minutes_before():
    tournament = feed.replay(logged(DECL))
    first = tournament["call_list"][0]
    boards = [{"table": n, "players": [], "online": True, "finished": False} for n in (1, 2, 3, 4)]
    boards[2]["players"] = list(first["players"])  # table 3 already plays Q1-1's four
    log = logged(DECL, {"event": "seat", "table": "Q1-2", "at": 1})
    listed = calls.call_list(tournament, log, boards, now=1000.0, call_before_s=600)
    assert [(c["table"], c["at"], c["status"]) for c in listed] == [
        ("Q1-1", 3, "playing"), ("Q1-2", 1, "waiting"), ("Q1-3", 2, "waiting"), ("Q1-4", 4, "waiting")]
    log = [*log, LogEntry(3, 3.0, "operator", {"event": "round", "round": "Q1", "at": 2000.0})]
    listed = calls.call_list(tournament, log, boards, now=1000.0, call_before_s=600)
    assert [c["status"] for c in listed] == ["playing", "due", "due", "due"]
    assert listed[1]["call_at"] == 1400.0
    listed = calls.call_list(tournament, log, boards, now=1400.0, call_before_s=600)
    assert [c["status"] for c in listed] == ["playing", "called", "called", "called"]
    with pytest.raises(TournamentError, match="open tables"):
        calls.check({"event": "seat", "table": "S-1", "at": 1}, tournament)
    with pytest.raises(TournamentError, match="Q1"):
        calls.check({"event": "round", "round": "Q2", "at": 1.0}, tournament)


def test_byk_2_4_a_counted_deal_of_the_four_called_is_a_bykovo_result():
    decl = {"event": "tournament", "format": "bykovo-micro", "players": ["A", "B", "C", "D", "E"], "seed": 1}
    tournament = feed.replay(logged(decl))
    four = tournament["next_seated"]
    from engine.simulate import random_game
    from tests.event.conftest import renamed

    record = renamed(random_game("bykovo", seed=2, deals=1), four)
    cands = feed.candidates("bykovo-micro", tournament, 1, 1, replay_events(record), four)
    assert len(cands) == 1 and set(cands[0].line["points"]) == set(four)
    feed.check_new(logged(decl), cands[0].line)  # the engine takes it (BYK-2.4: the four it called)
    assert calls.open_tables(tournament)[0]["players"] == four


def test_spt_8_each_deal_of_a_sport_table_is_its_protocol_line():
    seats = ["A", "B", "C", "D"]
    decl = {"event": "tournament", "format": "sport-pairs", "tables": {"1": seats}, "deals": 2}
    from engine.simulate import random_game
    from tests.event.conftest import renamed

    record = renamed(random_game("sport", seed=4, deals=2), seats)
    result = replay_events(record)
    log = logged(decl)
    cands = feed.candidates("sport-pairs", feed.replay(log), 3, 1, result, seats)
    assert [c.key for c in cands] == ["table 3/game 1/deal 1", "table 3/game 1/deal 2"]
    for cand in cands:  # the engine's protocol takes each deal in turn (opener, SPT-8 credit)
        feed.check_new(log, cand.line)
        log = [*log, LogEntry(len(log) + 1, 0.0, "table 3", cand.line)]
    sheet = feed.replay(log)["tables"][0]["sheet"]
    assert [d["pips"] for d in sheet] == [d["pips"] for d in result["deals"]]
    assert feed.replay(log)["finished"] is True
