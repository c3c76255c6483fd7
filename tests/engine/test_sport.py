"""Scripted sport games (SPT-8, SPT-9, SPT-11): pairs Anna+Vera and Boris+Gleb.

Short deals use the house rule hand_size {"4": 2} (two tiles each) to reach the end quickly."""

from .script import deal, game, moves, rules_of, run

TWO = {"hand_size": {"4": 2}}
OUT = moves("""
Anna 1-1
Boris 1-2 @1-1
Vera 2-3 @1-2
Gleb 3-5 @2-3
Anna 5-6 @3-5
""")


def test_spt_8_losing_pairs_pips_go_to_the_winning_pair_and_a_lone_0_0_counts_10():
    reveals = moves("Boris reveal 0-0\nVera reveal 4-4\nGleb reveal 2-6")
    r = run(game("sport", options=TWO), deal(), OUT, reveals)
    assert r["flags"] == []
    d = r["deals"][0]
    assert d["end"] == "out" and d["winner"] == "Anna"
    assert d["pips"]["Boris"] == 0  # what he showed; the lone 0-0 counts 10 in the points
    assert d["points"] == {"Anna+Vera": 18, "Boris+Gleb": 0}
    assert r["totals"] == {"Anna+Vera": 18, "Boris+Gleb": 0}
    assert r["standings"] == ["Anna+Vera", "Boris+Gleb"]


def test_spt_8_pairs_named_in_the_game_event():
    pairs = [["Anna", "Boris"], ["Vera", "Gleb"]]
    reveals = moves("Boris reveal 0-4\nVera reveal 4-4\nGleb reveal 2-6")
    r = run(game("sport", options=TWO, pairs=pairs), deal(), OUT, reveals)
    assert r["deals"][0]["points"] == {"Anna+Boris": 16, "Vera+Gleb": 0}


def test_spt_8_closed_line_credits_the_difference_to_the_pair_with_fewer_pips():
    plays = moves("Anna 1-1\nBoris 1-2 @1-1\nVera pass\nGleb pass\nAnna pass\nBoris pass")
    reveals = moves("Anna reveal 0-5\nBoris reveal 3-3\nVera reveal 0-6 4-4\nGleb reveal 5-5 6-6")
    r = run(game("sport", options=TWO), deal(), plays, reveals)
    assert r["flags"] == []
    d = r["deals"][0]
    assert d["end"] == "blocked"
    assert d["points"] == {"Anna+Vera": 9, "Boris+Gleb": 0}  # 19 against 28


def test_spt_11_wrongful_pass_with_the_hand_known_loses_the_deal_0_10():
    hands = {"Anna": "1-1 0-5", "Boris": "1-2 3-3", "Vera": "0-6 1-4", "Gleb": "5-5 6-6"}
    plays = moves("Anna 1-1\nBoris 1-2 @1-1\nVera pass")
    r = run(game("sport", options=TWO), deal(hands), plays)
    assert rules_of(r) == ["SPT-11"] and r["flags"][0]["event"] == 4
    assert "1-4" in r["flags"][0]["message"]
    ended = run(game("sport", options=TWO), deal(hands), plays,
                moves("Gleb pass\nAnna pass\nBoris pass\nVera pass"))
    assert ended["deals"][0]["end"] == "blocked"
    assert ended["deals"][0]["points"] == {"Anna+Vera": 0, "Boris+Gleb": 10}


def test_spt_11_audit_at_reveal_finds_a_wrongful_pass_in_camera_mode():
    plays = moves("Anna 1-1\nBoris 1-2 @1-1\nVera pass\nGleb 2-5 @1-2")
    r = run(game("sport", options=TWO), deal(), plays)
    assert r["flags"] == []  # a pass proves nothing until the hand is shown
    r = run(game("sport", options=TWO), deal(), plays, moves("Vera reveal 0-6 1-4"))
    assert rules_of(r) == ["SPT-11"]
    assert r["flags"][0]["event"] == 4 and r["flags"][0]["player"] == "Vera"


def test_spt_11_audit_covers_passes_inferred_from_a_later_seat():
    plays = moves("Anna 1-1\nBoris 1-2 @1-1\nGleb 2-5 @1-2")
    r = run(game("sport", options=TWO), deal(), plays, moves("Vera reveal 0-6 1-4"))
    assert rules_of(r) == ["SPT-11"] and r["flags"][0]["event"] == 4  # the play that skipped her


def test_spt_9_fifteen_seconds_per_move_when_the_record_has_times():
    plays = moves("Anna t=0 1-1\nBoris t=10 1-2 @1-1\nVera t=31 2-3 @1-2")
    r = run(game("sport"), deal(), plays)
    assert rules_of(r) == ["SPT-9"] and r["flags"][0]["player"] == "Vera"
    r = run(game("sport", options={"move_seconds": 30}), deal(), plays)
    assert r["flags"] == []


def test_spt_opener_first_deal_1_1_then_the_lead_passes_to_the_left():
    reveals = moves("Boris reveal 0-4\nVera reveal 4-4\nGleb reveal 2-6")
    first = [deal(), *OUT, *reveals]
    r = run(game("sport", options=TWO), first, deal(), moves("Boris 3-4"))
    assert r["flags"] == [] and r["deals"][1]["opener"] == "Boris"
    r = run(game("sport", options=TWO), first, deal(), moves("Anna 3-4"))
    assert len(r["flags"]) == 1 and "Boris leads" in r["flags"][0]["message"]
    r = run(game("sport"), deal(), moves("Anna 3-4"))
    assert r["flags"][0]["message"] == "the deal opens with 1-1, not 3-4"


def test_spt_fixed_number_of_deals_ends_the_game():
    reveals = moves("Boris reveal 0-4\nVera reveal 4-4\nGleb reveal 2-6")
    r = run(game("sport", options={**TWO, "deals": 1}), deal(), OUT, reveals)
    assert r["finished"] is True and r["loser"] == "Boris+Gleb"
