"""Scripted Baltic Rally brackets; every BAL-T point is named in a test."""

from __future__ import annotations

import pytest

from engine.tournament import TournamentError, baltic

SIXTEEN = [f"B{i:02d}" for i in range(1, 17)]
# A fixed "strength" per player: lower plays better. Results are built from it, so the expected
# advancers can be worked out from the rule alone.
STRENGTH = {name: (i * 7) % 16 for i, name in enumerate(SIXTEEN)}


def game_points(players, strength=STRENGTH):
    """A game result where the weakest reaches 151 and the others end with distinct points."""
    ranked = sorted(players, key=strength.__getitem__)
    return {p: (151 if i == len(ranked) - 1 else 10 * strength[p] + i) for i, p in enumerate(ranked)}


def play_round(state):
    for call in state.call_list():
        state = baltic.play(state, call["table"], game_points(call["players"]))
    return state


def test_bal_t_full_16_player_bracket():
    s = baltic.start(SIXTEEN, seed=11)
    assert s.stage == "qualifying"
    seen_rounds = []
    while s.stage == "qualifying":
        rnd = s.current
        seated = [p for t in rnd.tables for p in t.players]
        # Tables of 4, nobody at two tables, nobody already qualified plays again.
        assert all(len(t.players) == 4 for t in rnd.tables)
        assert len(seated) == len(set(seated))
        assert not set(seated) & set(s.qualified)
        before = set(s.qualified)
        s = play_round(s)
        done = s.rounds[len(seen_rounds)]
        for t in done.tables:
            # BAL-T / BAL-17: the player with the fewest points at each table qualifies.
            assert t.advances == (min(t.players, key=STRENGTH.__getitem__),)
        assert set(s.qualified) - before == {t.advances[0] for t in done.tables}
        seen_rounds.append((done.name, len(done.tables), len(done.eliminated)))
    # 16 -> 4 tables (4 qualify), 12 -> 3 tables (7), the last place from one table of the
    # 9 left: the 4 with the fewest qualifying points play, the other 5 are out.
    assert seen_rounds == [("Q1", 4, 0), ("Q2", 3, 0), ("Q3", 1, 5)]
    assert len(s.qualified) == 8 == len(set(s.qualified))
    q3 = s.rounds[2]
    qp_before_q3 = {p: sum(t.points[p] for r in s.rounds[:2] for t in r.tables if p in t.players)
                    for p in SIXTEEN}
    early = {t.advances[0] for r in s.rounds[:2] for t in r.tables}
    pool = [p for p in SIXTEEN if p not in early]
    assert len(pool) == 9
    cut = sorted(qp_before_q3[p] for p in pool)[3]
    assert all(qp_before_q3[p] <= cut for p in q3.tables[0].players)
    assert set(q3.eliminated) == set(pool) - set(q3.tables[0].players)

    # Semi-final: 2 tables of 4, exactly the 8 qualifiers.
    assert s.stage == "semi-final"
    semi = s.current
    assert [t.id for t in semi.tables] == ["S-1", "S-2"]
    assert sorted(p for t in semi.tables for p in t.players) == sorted(s.qualified)
    s = play_round(s)
    # The 2 lowest of each semi-final table reach the final.
    expected_final = [p for t in semi.tables for p in sorted(t.players, key=STRENGTH.__getitem__)[:2]]
    assert sorted(s.finalists) == sorted(expected_final)
    assert s.stage == "final" and s.call_list() == [
        {"round": "F", "stage": "final", "table": "F", "players": list(s.finalists)}
    ]
    s = play_round(s)
    assert s.finished and s.call_list() == []
    # The lowest in the final wins; places 1-4 from the final, 5-8 from the semi-final.
    final_order = sorted(s.finalists, key=STRENGTH.__getitem__)
    assert [p for p, _ in sorted(s.places.items(), key=lambda kv: kv[1])][:4] == final_order
    assert s.to_json()["winner"] == final_order[0]
    assert sorted(s.places.values()) == list(range(1, 9))
    assert set(s.eliminated) | set(s.finalists) == set(SIXTEEN)


def test_bal_t_tables_of_four_and_32_players_need_one_qualifying_round():
    s = baltic.start([f"P{i}" for i in range(32)], seed=1)
    assert len(s.current.tables) == 8
    s = play_round_generic(s)
    assert s.stage == "semi-final" and len(s.qualified) == 8


def play_round_generic(state):
    for call in state.call_list():
        pts = {p: 10 + i for i, p in enumerate(call["players"])}
        state = baltic.play(state, call["table"], pts)
    return state


def test_bal_t_eight_players_start_at_the_semi_final_four_play_the_final():
    s = baltic.start(SIXTEEN[:8], seed=2)
    assert s.stage == "semi-final" and len(s.current.tables) == 2
    s = baltic.start(SIXTEEN[:4], seed=2)
    assert s.stage == "final"
    for n in (3, 5, 9, 10):
        with pytest.raises(TournamentError, match="at least 11"):
            baltic.start(SIXTEEN[:n], seed=2)


def test_bal_t_call_list_names_who_plays_next_and_where():
    s = baltic.start(SIXTEEN, seed=4)
    calls = s.call_list()
    assert [c["table"] for c in calls] == ["Q1-1", "Q1-2", "Q1-3", "Q1-4"]
    assert sorted(p for c in calls for p in c["players"]) == sorted(SIXTEEN)
    s = baltic.play(s, "Q1-3", game_points(calls[2]["players"]))
    assert [c["table"] for c in s.call_list()] == ["Q1-1", "Q1-2", "Q1-4"]
    with pytest.raises(TournamentError, match="already has its result"):
        baltic.play(s, "Q1-3", game_points(calls[2]["players"]))


def test_bal_t_tie_for_fewest_points_drawn_by_recorded_lot():
    outcomes = set()
    for seed in range(10):
        s = baltic.start(SIXTEEN, seed=seed)
        players = s.call_list()[0]["players"]
        pts = {players[0]: 20, players[1]: 20, players[2]: 90, players[3]: 151}
        s = baltic.play(s, "Q1-1", pts)
        lot = next(lot for lot in s.lots if lot.tag.startswith("Q1-1/advance"))
        assert set(lot.among) == set(players[:2])
        assert s.current.tables[0].advances == lot.drawn
        outcomes.add(lot.drawn[0] == players[0])
    assert outcomes == {True, False}


def test_bal_t_no_show_replaced_by_volunteer():
    s = baltic.start(SIXTEEN, seed=5)
    table = s.call_list()[1]
    absent = table["players"][2]
    s = baltic.no_show(s, table["table"], absent, "Volunteer")
    assert s.current.tables[1].players[2] == "Volunteer"
    assert absent in s.eliminated and "Volunteer" in s.players
    pts = game_points(s.current.tables[1].players, {**STRENGTH, "Volunteer": -1})
    s = baltic.play(s, table["table"], pts)
    assert "Volunteer" in s.qualified


def test_bal_t_no_show_replaced_by_an_eliminated_player_not_by_one_still_in():
    s = baltic.start(SIXTEEN, seed=6)
    first, second = s.call_list()[0], s.call_list()[1]
    s = baltic.no_show(s, first["table"], first["players"][0], "Volunteer")
    out = first["players"][0]  # now eliminated (forfeit)
    s = baltic.no_show(s, second["table"], second["players"][3], out)
    assert out in s.current.tables[1].players and out not in s.eliminated
    with pytest.raises(TournamentError, match="is playing this round"):
        baltic.no_show(s, second["table"], second["players"][0], first["players"][1])
    with pytest.raises(TournamentError, match="not at table"):
        baltic.no_show(s, second["table"], first["players"][1], "Someone")


def test_bal_t_no_show_replacement_only_in_qualifying():
    s = baltic.start(SIXTEEN[:8], seed=1)
    call = s.call_list()[0]
    with pytest.raises(TournamentError, match="only in qualifying"):
        baltic.no_show(s, call["table"], call["players"][0], "Volunteer")


@pytest.mark.parametrize(
    ("table", "points", "message"),
    [
        ("Q9-1", None, "no table 'Q9-1' is being played"),
        (3, None, "table name"),
        ("Q1-1", {"Nobody": 1}, "unknown player 'Nobody'"),
        ("Q1-1", "other-table", "is not at the table of table Q1-1"),
        ("Q1-1", "three", "lacks"),
    ],
)
def test_bal_t_result_for_a_wrong_table_is_rejected(table, points, message):
    s = baltic.start(SIXTEEN, seed=8)
    calls = s.call_list()
    if points == "other-table":
        points = {p: 1 for p in calls[1]["players"]}
    elif points == "three":
        points = {p: 1 for p in calls[0]["players"][:3]}
    elif points is None:
        points = {p: 1 for p in calls[0]["players"]}
    with pytest.raises(TournamentError, match=message):
        baltic.play(s, table, points)
