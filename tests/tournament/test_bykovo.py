"""Scripted Bykovo micro-tournaments; every BYK-2.x point is named in a test."""

from __future__ import annotations

import pytest

from engine.tournament import TournamentError, bykovo

SEVEN = ["A", "B", "C", "D", "E", "F", "G"]


def play_all(state, deals):
    for points in deals:
        state = bykovo.play(state, points)
    return state


def test_byk_2_1_four_to_seven_players():
    for n in (4, 5, 6, 7):
        assert len(bykovo.start(SEVEN[:n], seed=1).players) == n
    for n in (3, 8):
        with pytest.raises(TournamentError, match="BYK-2.1"):
            bykovo.start([f"P{i}" for i in range(n)], seed=1)


def test_byk_2_3_first_four_drawn_by_seeded_lot_and_recorded():
    a = bykovo.start(SEVEN, seed=7)
    b = bykovo.start(SEVEN, seed=7)
    assert a.next_seated == b.next_seated
    assert len(a.next_seated) == 4
    (lot,) = a.lots
    assert lot.rule == "BYK-2.3" and set(lot.drawn) == set(a.next_seated)
    # Different seeds give different draws somewhere: the lot really depends on the seed.
    assert len({bykovo.start(SEVEN, seed=s).next_seated for s in range(20)}) > 1


def test_byk_2_3_first_four_by_agreement_and_no_lot_with_four():
    s = bykovo.start(SEVEN, seed=1, first=["D", "A", "G", "C"])
    assert s.next_seated == ("A", "C", "D", "G") and s.lots == ()
    assert bykovo.start(SEVEN[:4], seed=1).lots == ()
    with pytest.raises(TournamentError, match="unknown player 'Z'"):
        bykovo.start(SEVEN, seed=1, first=["A", "B", "C", "Z"])


def test_byk_2_5_limit_fixed_by_starting_number():
    assert [bykovo.start(SEVEN[:n], seed=0).limit for n in (4, 5, 6, 7)] == [100, 75, 60, 50]


def test_byk_2_5_reaching_the_limit_eliminates_one_below_does_not():
    s = bykovo.start(SEVEN[:5], seed=0, first=["A", "B", "C", "D"])  # limit 75
    s = bykovo.play(s, {"A": 0, "B": 74, "C": 75, "D": 3})
    assert s.deals[-1].eliminated == ("C",)
    assert s.places == {"C": 5}
    assert "B" in s.active and "C" not in s.active
    # The limit stays 75 with four left (it is fixed by the starting number).
    assert s.limit == 75 and s.next_seated == ("A", "B", "D", "E")


def test_byk_2_2_and_2_4_seven_players_played_to_the_end_seating_deal_by_deal():
    """A 7-player event (limit 50) checked deal by deal against a hand-worked protocol."""
    s = bykovo.start(SEVEN, seed=3, first=["A", "B", "C", "D"])
    expected = [
        # seated, sitting out, points, totals of the seated after the deal, eliminated
        (("A", "B", "C", "D"), ("E", "F", "G"), {"A": 0, "B": 12, "C": 7, "D": 20},
         {"A": 0, "B": 12, "C": 7, "D": 20}, ()),
        # E F G return; the one free seat goes to the worst place, D (4th).
        (("D", "E", "F", "G"), ("A", "B", "C"), {"D": 5, "E": 0, "F": 30, "G": 9},
         {"D": 25, "E": 0, "F": 30, "G": 9}, ()),
        # A B C return; F was 4th.
        (("A", "B", "C", "F"), ("D", "E", "G"), {"A": 10, "B": 0, "C": 14, "F": 14},
         {"A": 10, "B": 0 + 12, "C": 21, "F": 44}, ()),
        # C and F share 3rd place: the seat goes to F, behind on total (44 > 21).
        (("D", "E", "F", "G"), ("A", "B", "C"), {"D": 26, "E": 3, "F": 0, "G": 11},
         {"D": 51, "E": 3, "F": 44, "G": 20}, ("D",)),
        # D is out (51 >= 50); A B C return, G was the worst (3rd) of those left.
        (("A", "B", "C", "G"), ("E", "F"), {"A": 12, "B": 6, "C": 0, "G": 8},
         {"A": 22, "B": 18, "C": 21, "G": 28}, ()),
        # E F return; two seats: A (4th), G (3rd). Sitters-out keep their seat positions.
        (("A", "E", "F", "G"), ("B", "C"), {"A": 0, "E": 20, "F": 6, "G": 22},
         {"A": 22, "E": 23, "F": 50, "G": 50}, ("F", "G")),
        # Four left: everyone plays.
        (("A", "B", "C", "E"), (), {"A": 30, "B": 4, "C": 29, "E": 0},
         {"A": 52, "B": 22, "C": 50, "E": 23}, ("A", "C")),
    ]
    for number, (seated, out, points, totals, eliminated) in enumerate(expected, start=1):
        assert s.next_seated == seated, f"deal {number}"
        assert s.next_sitting_out == out, f"deal {number}"
        s = bykovo.play(s, points)
        deal = s.deals[-1]
        assert deal.number == number
        assert deal.seated == seated and deal.sitting_out == out
        assert {p: deal.totals[p] for p in seated} == totals
        assert deal.eliminated == eliminated
    assert s.finished and s.next_seated == ()
    # D out first -> 7th; F and G together at 50: F was behind before (44 > 28) -> 5th, G 6th
    # (BYK-2.6 dynamics); C (50) above A (52) by total; B 22 beats E 23 (BYK-2.7).
    assert s.places == {"D": 7, "F": 5, "G": 6, "C": 3, "A": 4, "B": 1, "E": 2}
    assert s.official == ["B", "E", "C"]  # BYK-2.8


def test_byk_2_4_sitters_out_first_then_worst_place_then_total():
    s = bykovo.start(SEVEN[:6], seed=0, first=["A", "B", "C", "D"])
    s = bykovo.play(s, {"A": 0, "B": 3, "C": 9, "D": 9})  # C and D share 3rd
    s = bykovo.play(s, {p: 1 for p in s.next_seated})
    # After deal 1: E F return; 2 seats for the worst places: C and D (3rd, tied, both enter).
    assert s.deals[1].seated == ("C", "D", "E", "F")


def test_byk_2_4_tie_on_place_and_total_drawn_by_recorded_lot():
    draws = set()
    for seed in range(12):
        s = bykovo.start(SEVEN, seed=seed, first=["A", "B", "C", "D"])
        s = bykovo.play(s, {"A": 0, "B": 5, "C": 9, "D": 9})  # C, D: same place, same total
        (lot,) = [lot for lot in s.lots if lot.rule == "BYK-2.4"]
        assert lot.among == ("C", "D") and len(lot.drawn) == 1
        assert set(s.next_seated) == {"E", "F", "G", lot.drawn[0]}
        again = bykovo.play(bykovo.start(SEVEN, seed=seed, first=["A", "B", "C", "D"]),
                            {"A": 0, "B": 5, "C": 9, "D": 9})
        assert again.next_seated == s.next_seated  # a replay gives the same answer
        draws.add(lot.drawn)
    assert draws == {("C",), ("D",)}


def test_byk_2_6_simultaneous_elimination_lower_total_places_higher():
    s = bykovo.start(SEVEN[:4], seed=0)  # limit 100
    s = bykovo.play(s, {"A": 0, "B": 99, "C": 99, "D": 10})
    s = bykovo.play(s, {"A": 0, "B": 3, "C": 1, "D": 0})
    # B 102 and C 100 go out together; 2 left -> event over.
    assert s.deals[-1].eliminated == ("B", "C")
    assert s.places["C"] == 3 and s.places["B"] == 4


def test_byk_2_6_equal_totals_better_dynamics_places_higher():
    s = bykovo.start(SEVEN[:5], seed=0, first=["A", "B", "C", "D"])  # limit 75
    s = bykovo.play(s, {"A": 0, "B": 10, "C": 40, "D": 20})  # C was behind B
    assert s.next_seated == ("B", "C", "D", "E")  # E returns, then C 4th, D 3rd, B 2nd
    s = bykovo.play(s, {p: 0 for p in s.next_seated})  # all share 1st
    # A returns; B C D E all 1st, so the higher totals enter: C 40, D 20, B 10.
    assert s.next_seated == ("A", "B", "C", "D")
    s = bykovo.play(s, {"A": 0, "B": 70, "C": 40, "D": 0})  # both reach 80 in the same deal
    assert s.totals["B"] == s.totals["C"] == 80
    # Just before the tie C had the higher total (40 > 10): C is placed higher.
    assert s.places["C"] < s.places["B"]
    assert (s.places["C"], s.places["B"]) == (4, 5)


def test_byk_2_6_full_tie_drawn_by_lot_recorded():
    outcomes = set()
    for seed in range(10):
        s = bykovo.start(SEVEN[:4], seed=seed)
        s = bykovo.play(s, {"A": 0, "B": 100, "C": 100, "D": 5})
        lot = next(lot for lot in s.lots if lot.rule == "BYK-2.6")
        assert set(lot.among) == {"B", "C"}
        assert s.places[lot.drawn[0]] == 3 and s.places[lot.drawn[1]] == 4
        outcomes.add(lot.drawn)
    assert len(outcomes) == 2


def test_byk_2_7_ends_at_three_left_placed_by_total_then_dynamics():
    s = bykovo.start(SEVEN[:4], seed=0)
    s = bykovo.play(s, {"A": 30, "B": 20, "C": 0, "D": 0})
    s = bykovo.play(s, {"A": 0, "B": 10, "C": 30, "D": 100})
    assert s.finished and s.deals[-1].eliminated == ("D",)
    # A, B, C all at 30: before deal 2, C had 0, B 20, A 30 -> A was behind most -> 1st.
    assert s.places == {"A": 1, "B": 2, "C": 3, "D": 4}
    with pytest.raises(TournamentError, match="finished"):
        bykovo.play(s, {"A": 0, "B": 0, "C": 0})


def test_byk_2_8_official_are_the_top_three_once_finished():
    s = bykovo.start(SEVEN[:4], seed=0)
    assert s.official == []
    s = bykovo.play(s, {"A": 5, "B": 1, "C": 0, "D": 120})
    assert s.official == ["C", "B", "A"]


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"A": 0, "B": 1, "C": 2, "Z": 3}, "unknown player 'Z'"),
        ({"A": 0, "B": 1, "C": 2, "E": 3}, "E sits out"),
        ({"A": 0, "B": 1, "C": 2}, "lacks D"),
        ({"A": 0, "B": 1, "C": 2, "D": -1}, "whole number"),
    ],
)
def test_byk_2_4_result_for_the_wrong_table_is_rejected(points, message):
    s = bykovo.start(SEVEN[:5], seed=0, first=["A", "B", "C", "D"])
    with pytest.raises(TournamentError, match=message):
        bykovo.play(s, points)


def test_byk_1_12_places_must_be_a_competition_ranking():
    s = bykovo.start(SEVEN[:4], seed=0)
    ok = bykovo.play(s, {"A": 0, "B": 5, "C": 5, "D": 9}, {"A": 1, "B": 2, "C": 2, "D": 4})
    assert ok.deals[0].places == {"A": 1, "B": 2, "C": 2, "D": 4}
    with pytest.raises(TournamentError, match="1, 2, 2, 4"):
        bykovo.play(s, {"A": 0, "B": 5, "C": 5, "D": 9}, {"A": 1, "B": 2, "C": 2, "D": 3})


def test_byk_1_11_fish_winner_keeps_place_one_whatever_the_points():
    start = bykovo.start(SEVEN[:6], seed=0, first=["A", "B", "C", "D"])
    points = {"A": 10, "B": 3, "C": 8, "D": 12}  # A laid the last tile of a fish, holding 10
    s = bykovo.play(start, points, {"A": 1, "B": 2, "C": 3, "D": 4})
    assert s.next_seated == ("C", "D", "E", "F")  # the worst places were C and D, not A
    assert s.totals["A"] == 10
    # Without explicit places they follow the points: A would be 3rd and play again.
    assert bykovo.play(start, points).next_seated == ("A", "D", "E", "F")


def test_eliminated_player_named_in_a_result_is_rejected():
    s = bykovo.start(SEVEN[:5], seed=0, first=["A", "B", "C", "D"])
    s = bykovo.play(s, {"A": 0, "B": 1, "C": 80, "D": 2})
    with pytest.raises(TournamentError, match="C is eliminated"):
        bykovo.play(s, {"A": 0, "B": 1, "C": 2, "E": 3})
