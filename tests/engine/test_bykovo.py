"""Scripted bykovo games (BYK-1.x). Camera mode unless a deal names the hands."""

import pytest

from engine.errors import RecordError
from engine.game import apply, legal_plays, may_pass, new_game

from .script import deal, game, moves, rules_of, run

# BYK-1.11 рыба on 0: every 0-tile is on the table and both ends show 0.
FISH_PLAYS = moves("""
Anna 0-0
Boris 0-1 @0-0
Vera 1-2 @0-1
Gleb 0-2 @1-2
Anna 0-3 @0-0
Boris 3-4 @0-3
Vera 0-4 @3-4
Gleb 0-5 @0-2
Anna 5-6 @0-5
Boris 0-6 @5-6
""")
FISH_REVEALS = moves("""
Anna reveal 1-1 1-3 2-2 2-3
Boris reveal 1-4 1-5 2-4 2-5
Vera reveal 1-6 2-6 3-3 3-5 4-4
Gleb reveal 3-6 4-5 4-6 5-5 6-6
""")
# A full deal: Anna holds five doubles (BYK-1.3).
FIVE_DOUBLES = {
    "Anna": "0-0 1-1 2-2 3-3 4-4 0-1 0-2",
    "Boris": "0-3 0-4 0-5 0-6 1-2 1-3 1-4",
    "Vera": "1-5 1-6 2-3 2-4 2-5 2-6 3-4",
    "Gleb": "3-5 3-6 4-5 4-6 5-5 5-6 6-6",
}
FAIR = {
    "Anna": "0-0 1-1 2-2 3-4 0-1 0-2 5-6",
    "Boris": "0-3 0-4 0-5 0-6 1-2 1-3 1-4",
    "Vera": "1-5 1-6 2-3 2-4 2-5 2-6 3-3",
    "Gleb": "3-5 3-6 4-5 4-6 5-5 4-4 6-6",
}


def test_byk_1_11_fish_from_the_table_alone_won_by_the_last_tile_with_byk_1_12_places():
    r = run(game("bykovo"), deal(), FISH_PLAYS, FISH_REVEALS)
    assert r["flags"] == []
    d = r["deals"][0]
    assert d["end"] == "fish"
    assert d["winner"] == "Boris"  # laid the last tile although Anna holds fewer pips
    assert d["pips"] == {"Anna": 15, "Boris": 24, "Vera": 37, "Gleb": 50}
    assert d["places"] == {"Boris": 1, "Anna": 2, "Vera": 3, "Gleb": 4}
    assert d["points"] == {"Anna": 15, "Boris": 0, "Vera": 37, "Gleb": 50}  # BYK-2.5
    assert r["totals"] == d["points"]
    assert r["standings"] == ["Boris", "Anna", "Vera", "Gleb"]


def test_byk_1_11_fish_is_decided_before_any_reveal():
    r = run(game("bykovo"), deal(), FISH_PLAYS)
    assert r["deals"][0]["end"] == "fish" and r["to_move"] is None
    assert r["deals"][0]["pips"]["Anna"] is None  # unknown until the hands are shown


def test_byk_1_12_equal_sums_share_a_place_competition_ranking():
    reveals = moves("""
    Anna reveal 1-1 2-6 3-5 4-4
    Boris reveal 1-4 1-5 2-4 2-5
    Vera reveal 1-3 2-2 2-3 1-6 3-3
    Gleb reveal 3-6 4-5 4-6 5-5 6-6
    """)
    r = run(game("bykovo"), deal(), FISH_PLAYS, reveals)
    assert r["flags"] == []
    assert r["deals"][0]["places"] == {"Boris": 1, "Anna": 2, "Vera": 2, "Gleb": 4}


def test_byk_1_5_the_holder_of_0_0_opens_with_it():
    r = run(game("bykovo"), deal(), moves("Anna 0-1"))
    assert rules_of(r) == ["BYK-1.5"]
    r = run(game("bykovo"), deal(FAIR), moves("Boris 0-0"))
    assert "BYK-1.5" in rules_of(r)  # Anna holds 0-0


def test_byk_1_6_touching_halves_match():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 1-2 @0-0"))
    assert rules_of(r) == ["BYK-1.6"]
    assert "1-2 does not fit 0" in r["flags"][0]["message"]
    assert r["flags"][0]["event"] == 3 and r["flags"][0]["player"] == "Boris"


def test_byk_1_6_two_arms_only_no_cross():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-1 @0-0\nVera 0-2 @0-0\nGleb 0-3 @0-0"))
    assert rules_of(r) == ["BYK-1.6"]
    assert r["flags"][0]["event"] == 5


def test_byk_1_6_one_tile_per_turn():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-1 @0-0\nBoris 1-1 @0-1"))
    assert rules_of(r) == ["BYK-1.6"]


def test_byk_1_8_any_player_may_pass_even_holding_a_fitting_tile():
    r = run(game("bykovo"), deal(FAIR), moves("Anna 0-0\nBoris pass\nVera pass\nGleb pass\nAnna 0-1 @0-0"))
    assert r["flags"] == []
    state = new_game(game("bykovo"))
    for e in [deal(FAIR)] + moves("Anna 0-0"):
        state, _ = apply(state, e)
    assert may_pass(state, "Boris") and legal_plays(state, "Boris")


def test_byk_1_8_camera_mode_infers_passes_from_a_later_seat():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nVera 0-1 @0-0\nAnna 1-1 @0-1"))
    assert r["flags"] == []
    assert r["to_move"] == "Boris"


def test_byk_1_9_circle_played_out_to_the_seat_before_the_opener():
    chain = ["0-1", "1-1", "1-2", "2-2", "2-3", "3-3", "3-4"]
    script = ["Anna 0-0"]
    prev = "0-0"
    for i, tile in enumerate(chain):
        script.append(f"Boris {tile} @{prev}")
        prev = tile
        if i < len(chain) - 1:
            script += ["Vera pass", "Gleb pass", "Anna pass"]
    script += ["Vera 4-4 @3-4", "Gleb 4-5 @4-4"]
    r = run(game("bykovo"), deal(), moves("\n".join(script)))
    assert r["flags"] == []
    d = r["deals"][0]
    assert d["end"] == "out" and d["winner"] == "Boris"
    assert r["to_move"] is None  # Gleb, seated before the opener, closed the circle
    late = run(game("bykovo"), deal(), moves("\n".join(script + ["Anna 5-5 @4-5"])))
    assert rules_of(late) == ["BYK-1.9"]


def test_byk_1_9_deal_ends_at_once_when_the_seat_before_the_opener_goes_out():
    chain = ["0-1", "1-1", "1-2", "2-2", "2-3", "3-3", "3-4"]
    script = ["Anna 0-0", "Boris pass", "Vera pass"]
    prev = "0-0"
    for i, tile in enumerate(chain):
        script.append(f"Gleb {tile} @{prev}")
        prev = tile
        if i < len(chain) - 1:
            script += ["Anna pass", "Boris pass", "Vera pass"]
    r = run(game("bykovo"), deal(), moves("\n".join(script)))
    assert r["flags"] == [] and r["deals"][0]["end"] == "out" and r["to_move"] is None


def test_byk_1_10_three_circles_of_passes_end_the_deal_as_sortir():
    base = moves("Anna 0-0\nBoris 0-1 @0-0")
    passes = moves("\n".join(f"{p} pass" for p in ["Vera", "Gleb", "Anna", "Boris"] * 3))
    r = run(game("bykovo"), deal(), base, passes[:-1])
    assert r["deals"][0]["end"] == "unfinished" and r["to_move"] == "Boris"
    r = run(game("bykovo"), deal(), base, passes)
    d = r["deals"][0]
    assert d["end"] == "sortir" and d["winner"] == "Boris"  # BYK-1.11: the last tile wins


def test_byk_1_11_a_reveal_ends_a_blocked_deal_as_sortir():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-1 @0-0\nAnna reveal 1-1"))
    assert r["deals"][0]["end"] == "sortir"


def test_byk_1_3_five_doubles_force_a_redeal():
    r = run(game("bykovo"), deal(FIVE_DOUBLES), deal(FAIR), moves("Anna 0-0"))
    assert r["flags"] == []
    assert len(r["deals"]) == 1 and r["deals"][0]["redeals"] == 1
    r = run(game("bykovo"), deal(FIVE_DOUBLES), moves("Anna 0-0"))
    assert rules_of(r) == ["BYK-1.3"]


def test_byk_1_3_seven_tiles_each_all_dealt_no_boneyard():
    short = dict(FAIR, Anna="0-0 1-1 2-2 3-4 0-1 0-2")
    assert "BYK-1.3" in rules_of(run(game("bykovo"), deal(short)))
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris draw"))
    assert rules_of(r) == ["BYK-1.3"]


def test_byk_1_3_redeal_noticed_at_reveal_in_camera_mode():
    plays = moves("Anna 0-0\nBoris 0-1 @0-0\nVera 1-1 @0-1")
    r = run(game("bykovo"), deal(), plays, moves("Anna reveal 2-2 3-3 4-4 5-5 0-2 0-3"))
    assert "BYK-1.3" in rules_of(r)


def test_byk_1_1_four_players():
    with pytest.raises(RecordError, match="BYK-1.1"):
        run(game("bykovo", players=["Anna", "Boris", "Vera"]))


def test_byk_2_5_totals_reach_the_target_and_the_game_ends():
    r = run(game("bykovo", options={"target": 40}), deal(), FISH_PLAYS, FISH_REVEALS)
    assert r["finished"] is True and r["loser"] == "Gleb"
    r = run(game("bykovo", options={"target": 40}), deal(), FISH_PLAYS, FISH_REVEALS, deal())
    assert rules_of(r) == ["BYK-2.5"]
    r = run(game("bykovo"), deal(), FISH_PLAYS, FISH_REVEALS)
    assert r["finished"] is False and r["loser"] is None


def test_byk_2_5_totals_add_up_over_deals():
    r = run(game("bykovo"), deal(), FISH_PLAYS, FISH_REVEALS, deal(), FISH_PLAYS, FISH_REVEALS)
    assert [d["number"] for d in r["deals"]] == [1, 2]
    assert r["totals"] == {"Anna": 30, "Boris": 0, "Vera": 74, "Gleb": 100}
    assert r["finished"] is True and r["loser"] == "Gleb"


def test_set_dup_a_tile_seen_twice():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-1 @0-0\nVera 0-1 @0-0"))
    assert rules_of(r) == ["SET-DUP"]
    r = run(game("bykovo"), deal(FAIR), moves("Anna 0-0\nBoris 0-1 @0-0"))
    assert rules_of(r) == ["SET-DUP"]  # 0-1 was dealt to Anna
    assert "Anna holds" in r["flags"][0]["message"]


def test_set_dup_revealed_tile_on_the_table():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-1 @0-0\nAnna reveal 0-1"))
    assert "SET-DUP" in rules_of(r)


def test_move_to_ambiguous_play_without_to():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-1\nVera 0-2\nGleb 1-2"))
    assert rules_of(r) == ["MOVE-TO"]
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-1\nVera 1-2"))
    assert r["flags"] == []  # exactly one attachment: "to" may be omitted


def test_layout_tree_records_parent_joint_outward_face_seat_move():
    r = run(game("bykovo"), deal(), moves("Anna 0-0\nBoris 0-5 @0-0\nVera 5-5 @0-5"))
    layout = r["layout"]
    assert layout[1] == {"tile": "0-5", "parent": "0-0", "joint": 0, "outward": 5, "face": "up",
                         "seat": "Boris", "move": 2}
    assert layout[2]["parent"] == "0-5" and layout[2]["joint"] == 5
    assert sorted(r["open_ends"]) == [["0-0", 0], ["5-5", 5]]
