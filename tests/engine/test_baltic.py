"""Scripted Baltic Rally «Козёл» games (BAL-1 ... BAL-17). Short deals use hand_size {"4": 2}."""

import pytest

from engine.errors import RecordError

from .script import deal, game, moves, rules_of, run

TWO = {"hand_size": {"4": 2}}
OUT = moves("""
Anna 1-1
Boris 1-2 @1-1
Vera 2-3 @1-2
Gleb 3-4 @2-3
Anna 4-5 @3-4
""")
# BAL-14: рыба on 1 (every 1-tile is on the table, both ends show 1); Boris laid the last tile.
FISH = moves("""
Anna 1-1
Boris 1-2 @1-1
Vera 2-3 @1-2
Gleb 1-3 @2-3
Anna 1-4 @1-3
Boris 4-5 @1-4
Vera 1-5 @4-5
Gleb 1-6 @1-5
Anna 0-6 @1-6
Boris 0-1 @0-6
""")


def test_bal_7_all_losers_pips_go_to_the_loser_holding_the_most_bal_10_opener_bal_17_fewest_first():
    r = run(game("baltic", options=TWO), deal(), OUT, moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 5-6"))
    assert r["flags"] == []
    d = r["deals"][0]
    assert d["end"] == "out" and d["winner"] == "Anna" and d["opener"] == "Anna"  # BAL-10 заходчик
    assert d["points"] == {"Anna": 0, "Boris": 0, "Vera": 0, "Gleb": 25}
    assert r["standings"][-1] == "Gleb"


@pytest.mark.parametrize(("hand", "points"), [("0-0", 50), ("6-6", 75)])
def test_bal_8_lone_0_0_or_6_6_loses_the_deal_whatever_the_others_hold(hand, points):
    r = run(game("baltic", options=TWO), deal(), OUT,
            moves(f"Boris reveal {hand}\nVera reveal 3-5\nGleb reveal 5-6"))
    assert r["deals"][0]["points"] == {"Anna": 0, "Boris": points, "Vera": 0, "Gleb": 0}


def test_bal_8_0_0_with_6_6_is_150():
    plays = moves("Anna 1-1\nBoris 1-2 @1-1\nVera 2-3 @1-2\nGleb pass\nAnna 3-4 @2-3")
    r = run(game("baltic", options=TWO), deal(), plays,
            moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 0-0 6-6"))
    assert r["flags"] == []
    assert r["deals"][0]["points"]["Gleb"] == 150
    assert r["finished"] is False  # BAL-6: 151 loses


def test_bal_6_reaching_151_loses_the_game():
    plays = moves("Anna 1-1\nBoris 1-2 @1-1\nVera 2-3 @1-2\nGleb pass\nAnna 3-4 @2-3")
    first = [deal(), *plays, *moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 0-0 6-6")]
    second = [deal(), *OUT, *moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 5-6")]
    r = run(game("baltic", options=TWO), first, second)
    assert r["totals"]["Gleb"] == 175 and r["finished"] is True and r["loser"] == "Gleb"


def test_bal_15_bal_16_eggs_hang_on_equal_top_sums_and_go_to_the_first_of_them_to_lose():
    tied = moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 2-6")
    r = run(game("baltic", options=TWO), deal(), OUT, tied)
    assert r["deals"][0]["points"] == {"Anna": 0, "Boris": 0, "Vera": 0, "Gleb": 0}
    assert r["deals"][0]["eggs"] == [["Gleb", "Vera"], 22]
    assert r["eggs"] == [{"players": ["Gleb", "Vera"], "points": 22}]
    later = moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 5-6")
    r = run(game("baltic", options=TWO), deal(), OUT, tied, deal(), OUT, later)
    assert r["deals"][1]["points"]["Gleb"] == 25 + 22
    assert r["eggs"] == []


def test_bal_15_eggs_stack():
    tied = moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 2-6")
    r = run(game("baltic", options=TWO), deal(), OUT, tied, deal(), OUT, tied)
    assert [e["points"] for e in r["eggs"]] == [22, 22]


def test_bal_4_first_deal_opens_with_1_1_then_the_winner_with_any_tile():
    r = run(game("baltic"), deal(), moves("Anna 0-0"))
    assert rules_of(r) == ["BAL-4"]
    done = [deal(), *OUT, *moves("Boris reveal 2-4\nVera reveal 3-5\nGleb reveal 5-6")]
    r = run(game("baltic", options=TWO), done, deal(), moves("Anna 5-6"))
    assert r["flags"] == []
    r = run(game("baltic", options=TWO), done, deal(), moves("Boris 5-6"))
    assert rules_of(r) == ["BAL-4"]


def test_bal_14_fish_the_fisherman_wins_and_leads_the_next_deal():
    r = run(game("baltic"), deal(), FISH)
    assert r["flags"] == []
    assert r["deals"][0]["end"] == "fish" and r["deals"][0]["winner"] == "Boris"
    r = run(game("baltic"), deal(), FISH, deal(), moves("Boris 3-4"))
    assert r["flags"] == [] and r["deals"][1]["opener"] == "Boris"


def test_bal_5_bal_11_forced_play_pass_holding_a_fitting_tile_is_flagged():
    hands = {"Anna": "1-1 0-5", "Boris": "1-2 3-3", "Vera": "0-6 1-4", "Gleb": "5-5 6-6"}
    r = run(game("baltic", options=TWO), deal(hands), moves("Anna 1-1\nBoris 1-2 @1-1\nVera pass"))
    assert rules_of(r) == ["BAL-5"]
    r = run(game("baltic", options=TWO), deal(), moves("Anna 1-1\nBoris 1-2 @1-1\nVera pass\nVera reveal 1-4 0-6"))
    assert rules_of(r) == ["BAL-5"] and r["flags"][0]["event"] == 4


def test_bal_9_cross_opens_at_the_first_closed_double():
    r = run(game("baltic"), deal(), moves("""
    Anna 1-1
    Boris 1-2 @1-1
    Vera 1-3 @1-1
    Gleb 1-4 @1-1
    Anna 1-5 @1-1
    """))
    assert r["flags"] == []  # 1-1 closed first: all four sides open
    assert len(r["open_ends"]) == 4
    r = run(game("baltic"), deal(), moves("""
    Anna 1-1
    Boris 1-2 @1-1
    Vera 2-2 @1-2
    Gleb 2-5 @2-2
    Anna 2-6 @2-2
    Boris 1-3 @1-1
    Vera 1-4 @1-1
    """))
    assert rules_of(r) == ["BAL-9"] and r["flags"][0]["event"] == 8  # 2-2 closed first, not 1-1


def test_bal_12_face_down_double_closes_its_arm():
    r = run(game("baltic"), deal(), moves("Anna 1-1\nBoris 1-2 @1-1\nVera 2-2 @1-2 down\nGleb 2-5 @2-2"))
    assert rules_of(r) == ["BAL-12"]
    assert r["layout"][2]["face"] == "down"
    r = run(game("baltic"), deal(), moves("Anna 1-1\nBoris 1-2 @1-1\nVera 2-3 @1-2 down"))
    assert rules_of(r) == ["BAL-12"]  # only a double goes face down


def test_bal_13_several_doubles_in_one_turn_but_not_with_a_plain_tile():
    base = moves("Anna 1-1\nBoris 1-2 @1-1\nVera 1-3 @1-1\nGleb 2-2 @1-2\nGleb 3-3 @1-3")
    r = run(game("baltic"), deal(), base)
    assert r["flags"] == []
    r = run(game("baltic"), deal(), base, moves("Anna 2-4 @2-2\nAnna 3-5 @3-3"))
    assert rules_of(r) == ["BAL-13"]
    r = run(game("baltic"), deal(), base, moves("Anna 2-4 @2-2\nBoris 4-4 @2-4\nBoris 4-5 @4-4"))
    assert rules_of(r) == ["BAL-13"]


def test_bal_3_more_than_five_tiles_of_one_value_force_a_redeal():
    hands = {
        "Anna": "0-0 0-1 0-2 0-3 0-4 0-5 1-1",
        "Boris": "0-6 1-2 1-3 1-4 1-5 1-6 2-2",
        "Vera": "2-3 2-4 2-5 2-6 3-3 3-4 3-5",
        "Gleb": "3-6 4-4 4-5 4-6 5-5 5-6 6-6",
    }
    r = run(game("baltic"), deal(hands), deal(), moves("Anna 1-1"))
    assert r["flags"] == [] and r["deals"][0]["redeals"] == 1
    r = run(game("baltic"), deal(hands), moves("Anna 1-1"))
    assert rules_of(r) == ["BAL-3"]


def test_bal_1_four_independent_players():
    with pytest.raises(RecordError, match="BAL-1"):
        run(game("baltic", players=["Anna", "Boris", "Vera", "Gleb", "Dasha"]))
