"""Property tests on random micro-tournaments (BYK-2.2 … 2.7)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import bykovo
from engine.tournament.ranking import competition_places

NAMES = ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]
MAX_DEALS = 80


@st.composite
def events(draw):
    n = draw(st.integers(4, 7))
    seed = draw(st.integers(0, 2**31))
    state = bykovo.start(NAMES[:n], seed)
    results = []
    while not state.finished and len(results) < MAX_DEALS:
        points = {p: draw(st.integers(0, 40)) for p in state.next_seated}
        explicit = draw(st.booleans())
        places = competition_places(points) if explicit else None
        if explicit and draw(st.booleans()):
            # a fish: someone other than the lowest laid the last tile and takes 1st (BYK-1.11)
            winner = draw(st.sampled_from(state.next_seated))
            rest = {p: points[p] for p in points if p != winner}
            places = {winner: 1, **{p: 1 + v for p, v in competition_places(rest).items()}}
        results.append((points, places))
        state = bykovo.play(state, points, places)
    return n, seed, results, state


@settings(max_examples=150, deadline=None)
@given(events())
def test_random_micro_tournaments_keep_the_byk_invariants(event):
    n, seed, results, state = event
    deals = state.deals
    eliminated_so_far: set[str] = set()
    for i, deal in enumerate(deals):
        # BYK-1.1: four different players; nobody is seated twice in a deal.
        assert len(deal.seated) == 4 == len(set(deal.seated))
        # BYK-2.2: seated in the fixed seating order.
        assert list(deal.seated) == [p for p in state.players if p in deal.seated]
        # Eliminated players never return.
        assert not eliminated_so_far & set(deal.seated)
        assert not eliminated_so_far & set(deal.sitting_out)
        # BYK-2.4: everyone who sat out plays the next deal.
        if i + 1 < len(deals):
            assert set(deal.sitting_out) <= set(deals[i + 1].seated)
        elif not state.finished:
            assert set(deal.sitting_out) <= set(state.next_seated)
        eliminated_so_far |= set(deal.eliminated)
        # BYK-2.5: eliminated exactly when the total reaches the limit.
        assert all(deal.totals[p] >= state.limit for p in deal.eliminated)
        assert all(deal.totals[p] < state.limit for p in deal.seated if p not in deal.eliminated)
    # Totals equal the sum of the deal points.
    for p in state.players:
        assert state.totals[p] == sum(d.points.get(p, 0) for d in deals)
    # Places are given as players drop out, and to everyone at the end.
    assert set(state.places) == (set(state.players) if state.finished else eliminated_so_far)
    if state.finished:
        # BYK-2.7: 3 or fewer left; every player has a distinct place 1..n.
        assert n - len(eliminated_so_far) <= 3
        assert sorted(state.places.values()) == list(range(1, n + 1))
        # Players eliminated earlier place below those eliminated later (BYK-2.6).
        out_at = {p: d.number for d in deals for p in d.eliminated}
        for a in out_at:
            for b in out_at:
                if out_at[a] < out_at[b]:
                    assert state.places[a] > state.places[b]
    # A replay from the same seed gives the same event (the lots are reproducible).
    again = bykovo.start(NAMES[:n], seed)
    for points, places in results:
        again = bykovo.play(again, points, places)
    assert again.to_json() == state.to_json()
