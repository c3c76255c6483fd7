"""Scripted games of blitz (BLZ), blitz-blind (BLB), dark (DRK), sevastopol (SEV), spider (SPI) and
traditional scoring."""

import pytest

from engine.errors import RecordError
from engine.replay import replay_events
from engine.simulate import random_game
from engine.tiles import ALL_TILES

from .script import deal, game, moves, rules_of, run

FIVE = ["Anna", "Boris", "Vera", "Gleb", "Dasha"]
TWO_PLAYERS = ["Anna", "Boris"]


def rest(*hands: str) -> str:
    used = {t for h in hands for t in h.split()}
    return " ".join(str(t) for t in ALL_TILES if str(t) not in used)


# ------------------------------------------------------------------ blitz


def five_player_blitz_hands() -> dict[str, str]:
    """25 of the 28 tiles (BLZ-1: 5 each for 5 players); 0-0, 1-1 and 2-2 stay out of play."""
    tiles = [str(t) for t in ALL_TILES if str(t) not in ("0-0", "1-1", "2-2")]
    return {p: " ".join(tiles[i * 5:(i + 1) * 5]) for i, p in enumerate(FIVE)}


def test_blz_1_hand_size_by_player_count_and_no_boneyard():
    hands = five_player_blitz_hands()
    r = run(game("blitz", players=FIVE), deal(hands))
    assert r["flags"] == []
    short = dict(hands, Anna=" ".join(hands["Anna"].split()[:4]))
    assert rules_of(run(game("blitz", players=FIVE), deal(short))) == ["BLZ-1"]
    r = run(game("blitz", players=FIVE), deal(hands), moves("Anna 0-1\nBoris draw"))
    assert rules_of(r) == ["BLZ-1"]
    with pytest.raises(RecordError, match="BLZ-1"):
        run(game("blitz", players=["A", "B", "C"]))


def test_blz_2_opens_with_0_0_or_the_tile_nearest_to_it():
    hands = five_player_blitz_hands()  # 0-0 is out of play: 0-1 is the nearest
    assert run(game("blitz", players=FIVE), deal(hands), moves("Anna 0-1"))["flags"] == []
    r = run(game("blitz", players=FIVE), deal(hands), moves("Anna 0-2"))
    assert rules_of(r) == ["BLZ-2"]


def test_blz_3_any_number_of_tiles_in_one_turn_and_the_whole_hand_ends_the_deal():
    r = run(game("blitz"), deal(), moves("Anna 0-0\nBoris 0-1 @0-0\nBoris 1-1 @0-1\nBoris 1-2 @1-1"))
    assert r["flags"] == []
    r = run(game("blitz", options={"hand_size": {"4": 3}}), deal(),
            moves("Anna 0-0\nBoris 0-1 @0-0\nBoris 1-2 @0-1\nBoris 2-3 @1-2"))
    assert r["flags"] == [] and r["deals"][0]["end"] == "out" and r["deals"][0]["winner"] == "Boris"


# ------------------------------------------------------------------ blitz-blind

BLIND_ANNA = "0-0 3-4 5-6 2-5 1-3 4-4 2-6 0-5"  # a face-down row, left to right
BLIND_BORIS = "0-1 1-1 2-2 3-3 1-4 4-5 1-2 0-2"


def blind(*script: str, variant="blitz-blind") -> dict:
    hands = {"Anna": BLIND_ANNA, "Boris": BLIND_BORIS}
    return run(game(variant, players=TWO_PLAYERS),
               deal(hands, boneyard=rest(BLIND_ANNA, BLIND_BORIS)), moves("\n".join(script)))


def test_blb_1_eight_tiles_for_two_or_three_and_the_lowest_tile_opens():
    assert blind("Anna 0-0")["flags"] == []
    assert rules_of(blind("Boris 0-1")) == ["BLB-1", "BLB-1"]  # Anna leads, with 0-0
    with pytest.raises(RecordError, match="BLB-1"):
        run(game("blitz-blind", players=FIVE))


def test_blb_1_opener_by_agreement_highest():
    hands = {"Anna": BLIND_ANNA, "Boris": BLIND_BORIS}
    r = run(game("blitz-blind", players=TWO_PLAYERS, options={"opening": "highest"}), deal(hands),
            moves("Anna 5-6"))
    assert r["flags"] == []


def test_blb_2_play_the_right_end_tile_else_it_goes_left_and_one_may_be_drawn():
    ok = ["Anna 0-0", "Boris 0-2 @0-0", "Anna 0-5 @0-0", "Boris 1-2 @0-2",
          "Anna pass", "Anna draw 1-5", "Boris 4-5 @0-5", "Anna 1-5 @1-2"]
    assert blind(*ok)["flags"] == []
    assert rules_of(blind("Anna 0-0", "Boris 0-1 @0-0")) == ["BLB-2"]  # not the right end
    assert rules_of(blind("Anna 0-0", "Boris pass")) == ["BLB-2"]  # 0-2 at the right end fits
    assert rules_of(blind("Anna 0-0", "Boris 0-2 @0-0", "Anna draw")) == ["BLB-2"]  # no miss
    # the missed tile went to the left end; the drawn one is now on the right
    r = blind(*ok[:6], "Boris 4-5 @0-5", "Anna 2-6 @1-2")
    assert r["flags"][0]["rule"] == "BLB-2" and "right-end tile 1-5" in r["flags"][0]["message"]


def test_blb_3_several_tiles_at_once_only_to_go_out_or_with_three_face_up():
    r = blind("Anna 0-0", "Boris 0-2 @0-0", "Boris 2-2 @0-2", "Anna 0-5 @0-0")
    assert rules_of(r) == ["BLB-3"] and r["flags"][0]["event"] == 4
    r = run(game("blitz-blind", players=TWO_PLAYERS, options={"hand_size": {"2": 3}}), deal(),
            moves("Anna 0-0\nBoris 0-2 @0-0\nBoris 2-2 @0-2\nAnna 0-5 @0-0"))
    assert r["flags"] == []


# ------------------------------------------------------------------ dark


def test_drk_1_opener_by_lot_with_any_tile():
    r = run(game("dark"), deal(), moves("Gleb 3-4"))
    assert r["flags"] == [] and r["deals"][0]["opener"] == "Gleb"
    with pytest.raises(RecordError, match="DRK-1"):
        run(game("dark", players=FIVE))


def test_drk_2_the_opener_and_the_others_turn_up_the_right_end_tile():
    hands = {"Anna": BLIND_ANNA[:-4].strip(), "Boris": BLIND_BORIS[:-4].strip()}  # 7 tiles each
    r = run(game("dark", players=TWO_PLAYERS), deal(hands), moves("Anna 2-6"))
    assert r["flags"] == []
    r = run(game("dark", players=TWO_PLAYERS), deal(hands), moves("Anna 0-0"))
    assert rules_of(r) == ["DRK-2"]


def test_drk_3_two_or_three_tiles_in_a_turn_only_once_three_are_face_up():
    opts = {"hand_size": {"2": 4}}
    r = run(game("dark", players=TWO_PLAYERS, options=opts), deal(),
            moves("Anna 0-0\nBoris 0-1 @0-0\nBoris 1-1 @0-1"))
    assert rules_of(r) == ["DRK-3"]
    r = run(game("dark", players=TWO_PLAYERS, options=opts), deal(),
            moves("Anna 0-0\nBoris 0-1 @0-0\nAnna 1-1 @0-1\nAnna 1-2 @1-1"))
    assert r["flags"] == []


# ------------------------------------------------------------------ sevastopol

SEV_HANDS = {
    "Anna": "6-6 0-0 0-1 0-2 0-3 1-1 1-2",
    "Boris": "5-6 0-4 0-5 1-3 1-4 2-2 2-3",
    "Vera": "3-6 5-5 0-6 1-5 2-4 3-3 2-5",
    "Gleb": "4-6 1-6 2-6 3-4 3-5 4-4 4-5",
}


def test_sev_1_opens_with_6_6_a_cross_of_four_arms():
    r = run(game("sevastopol"), deal(), moves("Anna 6-6\nBoris 5-6 @6-6\nVera 3-6 @6-6\nGleb 4-6 @6-6\nAnna 0-6 @6-6"))
    assert r["flags"] == [] and len(r["open_ends"]) == 4
    r = run(game("sevastopol"), deal(), moves("Anna 6-6\nBoris 5-6 @6-6\nVera 3-6 @6-6\nGleb 4-6 @6-6\nAnna 0-6 @6-6\nBoris 2-6 @6-6"))
    assert rules_of(r) == ["SEV-1"]
    assert rules_of(run(game("sevastopol"), deal(), moves("Anna 5-5"))) == ["SEV-1"]


def test_sev_2_each_player_starts_a_new_arm_on_the_first_circle():
    good = "Anna 6-6\nBoris 5-6 @6-6\nVera 3-6 @6-6\nGleb 4-6 @6-6\nAnna 0-3 @3-6"  # Anna has no 6 left
    assert run(game("sevastopol"), deal(SEV_HANDS), moves(good))["flags"] == []
    r = run(game("sevastopol"), deal(SEV_HANDS), moves("Anna 6-6\nBoris 5-6 @6-6\nVera 5-5 @5-6"))
    assert rules_of(r) == ["SEV-2"]  # Vera holds 3-6 and 0-6
    later = moves(good + "\nBoris 0-4 @0-3\nVera 5-5 @5-6")
    assert run(game("sevastopol"), deal(SEV_HANDS), later)["flags"] == []


def test_sev_3_traditional_scoring_to_100_points():
    r = replay_events(random_game("sevastopol", seed=3))
    assert r["flags"] == [] and r["finished"] is True
    assert max(r["totals"].values()) >= 100 and r["loser"] == max(r["totals"], key=r["totals"].get)
    for d in r["deals"]:
        if d["end"] == "out":
            assert d["points"][d["winner"]] == 0
            assert all(d["points"][p] == d["pips"][p] for p in d["points"] if p != d["winner"])


# ------------------------------------------------------------------ spider


def test_spi_1_one_tile_removed_from_the_boneyard():
    three = ["Anna", "Boris", "Vera"]
    draws = "\n".join(["Boris draw"] * 6)
    r = run(game("spider", players=three), deal(), moves(f"Anna 1-1\n{draws}"))
    assert r["flags"] == []  # 28 - 21 = 7 undealt, one removed unseen: 6 to draw
    r = run(game("spider", players=three), deal(), moves(f"Anna 1-1\n{draws}\nBoris draw"))
    assert rules_of(r) == ["SPI-1"]
    with pytest.raises(RecordError, match="SPI-1"):
        run(game("spider", players=FIVE))


def test_spi_2_opens_with_1_1_four_legs():
    legs = "Anna 1-1\nBoris 1-2 @1-1\nVera 1-3 @1-1\nGleb 1-4 @1-1\nAnna 1-5 @1-1"
    assert run(game("spider"), deal(), moves(legs))["flags"] == []
    assert rules_of(run(game("spider"), deal(), moves(legs + "\nBoris 1-6 @1-1"))) == ["SPI-2"]
    assert rules_of(run(game("spider"), deal(), moves("Anna 2-2"))) == ["SPI-2"]


def test_spi_4_a_face_down_double_closes_its_leg():
    r = run(game("spider"), deal(), moves("Anna 1-1\nBoris 1-2 @1-1\nVera 2-2 @1-2 down\nGleb 2-4 @2-2"))
    assert rules_of(r) == ["SPI-4"]


def test_turn_out_of_turn_where_passes_are_not_allowed():
    three = ["Anna", "Boris", "Vera"]
    r = run(game("spider", players=three), deal(), moves("Anna 1-1\nVera 1-2 @1-1"))
    assert rules_of(r) == ["TURN"]  # Boris had to draw, not pass
    assert r["to_move"] == "Anna"


def test_spider_pass_while_the_boneyard_has_tiles_is_flagged():
    r = run(game("spider", players=["Anna", "Boris", "Vera"]), deal(), moves("Anna 1-1\nBoris pass"))
    assert len(r["flags"]) == 1 and "must draw" in r["flags"][0]["message"]


# ------------------------------------------------------------------ traditional


def test_traditional_blocked_deal_is_won_by_the_lowest_hand():
    plays = moves("Anna 1-1\nBoris 1-2 @1-1\nVera pass\nGleb pass\nAnna pass\nBoris pass")
    reveals = moves("Anna reveal 0-5\nBoris reveal 3-3\nVera reveal 0-6 4-4\nGleb reveal 5-5 6-6")
    r = run(game("traditional", options={"hand_size": {"4": 2}, "boneyard": False}), deal(), plays, reveals)
    d = r["deals"][0]
    assert r["flags"] == [] and d["end"] == "blocked"
    assert d["winner"] == "Anna" and d["places"] == {"Anna": 1, "Boris": 2, "Vera": 3, "Gleb": 4}
    assert d["points"] == {"Anna": 0, "Boris": 6, "Vera": 14, "Gleb": 22}


def test_traditional_two_players_draw_until_a_tile_fits():
    hands = {"Anna": "1-1 0-0 0-3 0-4 0-5 0-6 3-4", "Boris": "1-2 2-2 2-3 2-4 2-5 2-6 3-3"}
    bone = rest(*hands.values())
    r = run(game("traditional", players=TWO_PLAYERS), deal(hands, boneyard=bone),
            moves("Anna 1-1\nBoris 1-2 @1-1\nAnna draw 1-3\nAnna 1-3 @1-1"))
    assert r["flags"] == []
    r = run(game("traditional", players=TWO_PLAYERS), deal(hands, boneyard=bone),
            moves("Anna 1-1\nBoris draw 1-3"))
    assert len(r["flags"]) == 1 and "drew holding 1-2" in r["flags"][0]["message"]


def test_blz_2_camera_mode_a_lower_tile_seen_later_flags_the_opening():
    five = game("blitz", players=FIVE)  # 25 of 28 dealt: 0-0 may be out of play
    r = run(five, deal(), moves("Anna 0-2\nBoris 0-1 @0-2"))
    assert rules_of(r) == ["BLZ-2"] and r["flags"][0]["event"] == 3
    r = run(five, deal(), moves("Anna 0-2\nBoris 2-3 @0-2\nVera reveal 0-1 5-5 4-4 3-3 4-6"))
    assert rules_of(r) == ["BLZ-2"]
    r = run(five, deal(), moves("Anna 0-1\nBoris 1-3 @0-1\nVera reveal 0-2 5-5 4-4 3-3 4-6"))
    assert r["flags"] == []
    r = run(game("blitz"), deal(), moves("Anna 0-1"))  # four players: all 28 dealt, 0-0 opens
    assert rules_of(r) == ["BLZ-2"]


def test_blb_2_drk_2_misses_end_the_deal_only_after_every_row_was_turned_through():
    opts = {"hand_size": {"2": 3}, "reveal_at": 1}
    rows = {"Anna": "0-0 5-5 6-6", "Boris": "3-3 4-4 2-2"}  # after 6-6 opens, nothing fits
    base = [game("dark", players=TWO_PLAYERS, options=opts), deal(rows)]
    misses = moves("\n".join(["Boris pass", "Anna pass"] * 3))
    r = run(*base, moves("Anna 6-6"), misses[:5])
    assert r["deals"][0]["end"] == "unfinished"
    r = run(*base, moves("Anna 6-6"), misses)
    assert r["flags"] == [] and r["deals"][0]["end"] == "blocked"


def test_trad_camera_mode_any_tile_may_open_when_no_double_may_have_been_dealt():
    """TRAD in camera mode (hands unknown, tiles left undealt): 1-1 opens, else the lowest dealt
    double, else, with no double dealt, the lowest tile; the table cannot tell which, so a
    non-double opener is no flag (a random legal game opened with 0-2: tests/engine/test_properties.py)."""
    events = [{"event": "game", "variant": "traditional", "players": ["Anna", "Boris"], "options": {}},
              {"event": "deal"},
              {"event": "play", "player": "Anna", "tile": "0-2"},
              {"event": "play", "player": "Boris", "tile": "2-6", "to": "0-2"}]
    assert replay_events(events)["flags"] == []
