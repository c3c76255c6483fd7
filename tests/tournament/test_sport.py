"""Sport pairs protocol (SPT-8, SPT-9, SPT-11) and the move timer."""

from __future__ import annotations

import pytest

from engine.tournament import TournamentError, sport
from engine.tournament.timer import expires_at, move_timer

TABLES = {"1": ["A", "B", "C", "D"], "2": ["E", "F", "G", "H"]}


def test_spt_8_pairs_are_partners_opposite():
    s = sport.start(TABLES, deals=4)
    assert s.table("1").pairs == ("A/C", "B/D")


def test_spt_8_went_out_credits_the_losing_pairs_pips():
    s = sport.start(TABLES, deals=4)
    s = sport.play(s, "1", {"went_out": "C", "pips": {"A": 6, "B": 10, "C": 0, "D": 13}})
    line = s.table("1").sheet[0]
    assert line.winner_pair == "A/C" and line.points == {"A/C": 23, "B/D": 0}


def test_spt_8_blocked_line_credits_the_difference_to_the_lower_pair():
    s = sport.start(TABLES, deals=4)
    s = sport.play(s, "1", {"blocked": True, "pips": {"A": 20, "B": 4, "C": 9, "D": 5}})
    line = s.table("1").sheet[0]
    assert line.winner_pair == "B/D" and line.points == {"A/C": 0, "B/D": 29 - 9}
    s = sport.play(s, "1", {"blocked": True, "pips": {"A": 5, "B": 4, "C": 4, "D": 5}})
    assert s.table("1").sheet[1].winner_pair is None
    assert s.table("1").totals() == {"A/C": 0, "B/D": 20}


def test_spt_11_wrongful_pass_loses_the_deal_0_10():
    s = sport.start(TABLES, deals=4)
    s = sport.play(s, "2", {"penalty": "H"})
    line = s.table("2").sheet[0]
    assert (line.outcome, line.rule, line.points) == ("penalty", "SPT-11", {"E/G": 10, "F/H": 0})


def test_spt_lead_alternates_between_pairs_and_is_checked():
    s = sport.start(TABLES, deals=4)
    s = sport.play(s, "1", {"went_out": "A", "pips": {"A": 0, "B": 1, "C": 2, "D": 3}, "opener": "D"})
    nxt = s.to_json()["tables"][0]["next"]
    assert nxt == {"deal": 2, "opener": "A", "lead_pair": "A/C"}
    with pytest.raises(TournamentError, match="led by A"):
        sport.play(s, "1", {"penalty": "B", "opener": "B"})
    for _ in range(3):
        s = sport.play(s, "1", {"penalty": "B"})
    leads = [line.lead_pair for line in s.table("1").sheet]
    assert leads == ["B/D", "A/C", "B/D", "A/C"]


def test_spt_every_table_plays_the_same_number_of_deals():
    s = sport.start(TABLES, deals=2)
    for tid in ("1", "2"):
        for _ in range(2):
            s = sport.play(s, tid, {"penalty": TABLES[tid][0]})
    assert s.finished
    with pytest.raises(TournamentError, match="already played all 2 deals"):
        sport.play(s, "1", {"penalty": "A"})


def test_spt_bad_results_are_rejected():
    s = sport.start(TABLES, deals=2)
    with pytest.raises(TournamentError, match="no table '9'"):
        sport.play(s, "9", {"penalty": "A"})
    with pytest.raises(TournamentError, match="unknown player 'Z'"):
        sport.play(s, "1", {"went_out": "A", "pips": {"A": 0, "B": 1, "C": 2, "Z": 3}})
    with pytest.raises(TournamentError, match="is not at the table"):
        sport.play(s, "1", {"went_out": "A", "pips": {"A": 0, "B": 1, "C": 2, "E": 3}})
    with pytest.raises(TournamentError, match="went_out"):
        sport.play(s, "1", {"pips": {"A": 0, "B": 1, "C": 2, "D": 3}})
    with pytest.raises(TournamentError, match="seated twice"):
        sport.start({"1": ["A", "B", "C", "D"], "2": ["A", "F", "G", "H"]}, deals=2)


def test_spt_9_move_timer_is_a_pure_function_of_timestamps():
    t = move_timer(100.0, 110.0)
    assert (t.elapsed, t.remaining, t.expired, t.alert) == (10.0, 5.0, False, False)
    t = move_timer(100.0, 115.0)
    assert t.remaining == 0.0 and t.expired and t.alert
    assert move_timer(100.0, 99.0).elapsed == 0.0  # clock skew never shows negative time
    assert move_timer(100.0, 125.0, limit=30).remaining == 5.0
    assert expires_at(100.0) == 115.0
    with pytest.raises(ValueError):
        move_timer(0, 1, limit=0)


def test_spt_9_turn_lines_drive_the_table_timer_and_a_result_stops_it():
    s = sport.start(TABLES, deals=2, move_seconds=20)
    s = sport.turn(s, "1", "B", 1000.0)
    table = s.to_json(now=1021.0)["tables"][0]
    assert table["turn"] == {"player": "B", "started_at": 1000.0}
    assert table["timer"]["alert"] is True and table["timer"]["limit"] == 20.0
    assert s.to_json(now=1010.0)["tables"][0]["timer"]["remaining"] == 10.0
    s = sport.play(s, "1", {"penalty": "B"})
    assert s.to_json(now=1021.0)["tables"][0]["turn"] is None
    with pytest.raises(TournamentError, match="not at table"):
        sport.turn(s, "1", "E", 1.0)
    with pytest.raises(TournamentError, match="time in seconds"):
        sport.turn(s, "1", "A", float("nan"))


def test_spt_standings_rank_pairs_by_points():
    s = sport.start(TABLES, deals=1)
    s = sport.play(s, "1", {"went_out": "B", "pips": {"A": 9, "B": 0, "C": 9, "D": 1}})
    s = sport.play(s, "2", {"penalty": "E"})
    assert [(r["pair"], r["points"]) for r in s.standings()] == [
        ("B/D", 18), ("F/H", 10), ("A/C", 0), ("E/G", 0)
    ]
