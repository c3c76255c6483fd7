"""Property tests: random legal games of every variant are never flagged, account for all 28
tiles, score consistently with the pips; corrupted games are flagged."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import apply, new_game
from engine.replay import replay_events
from engine.rules import VARIANTS, ruleset
from engine.simulate import random_game
from engine.tiles import ALL_TILES, Tile

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


ANY_MODE = st.booleans()


@st.composite
def games(draw, camera=ANY_MODE, variants=VARIANTS):
    variant = draw(st.sampled_from(variants))
    lo, hi = ruleset(variant).players
    n = draw(st.integers(lo, hi))
    seed = draw(st.integers(0, 10**6))
    return random_game(variant, seed=seed, players=n, deals=2, camera=draw(camera))


def deal_slices(events):
    starts = [i for i, e in enumerate(events) if e["event"] == "deal"] + [len(events)]
    return [(a, b) for a, b in zip(starts, starts[1:], strict=False)]


@SETTINGS
@given(games())
def test_random_legal_games_are_never_flagged(events):
    result = replay_events(events)
    assert result["flags"] == []
    assert all(d["end"] in ("out", "fish", "sortir", "blocked") for d in result["deals"])


@SETTINGS
@given(games(camera=st.just(False)))
def test_all_28_tiles_are_accounted_for_at_every_deal_end(events):
    state = new_game(events[0])
    for a, b in deal_slices(events):
        for e in events[a:b]:
            state, flags = apply(state, e)
            assert flags == []
        d = state.deal
        where = list(d.layout.tiles)
        for shown in d.revealed:
            where.extend(shown)
        where.extend(d.boneyard or ())
        where.extend(Tile.parse(t) for t in events[a].get("removed", []))
        assert Counter(where) == Counter(ALL_TILES)


def _special_points(rules, hand) -> int | None:
    key = sorted(str(t) for t in hand)
    for spec, value in rules.special.items():
        if sorted(spec.split()) == key:
            return value
    return None


def reveals_per_deal(events) -> list[dict[str, list[Tile]]]:
    out: list[dict[str, list[Tile]]] = []
    for e in events:
        if e["event"] == "deal":
            out.append({})
        elif e["event"] == "reveal":
            out[-1][e["player"]] = [Tile.parse(t) for t in e["tiles"]]
    return out


@SETTINGS
@given(games())
def test_points_are_consistent_with_the_pips(events):
    result = replay_events(events)
    rules = ruleset(events[0]["variant"])
    total = 0
    for d, hands in zip(result["deals"], reveals_per_deal(events), strict=True):
        pips, points, winner = d["pips"], d["points"], d["winner"]
        assert pips == {p: sum(t.pips for t in h) for p, h in hands.items()}
        if rules.scoring == "own":
            for p, v in points.items():
                assert v == (0 if p == winner or winner is None and pips[p] == min(pips.values()) else pips[p])
        elif rules.scoring == "pairs":
            def counted(key, hands=hands, pips=pips):
                # SPT-8: a lone 0-0 counts 10
                return sum(10 if [str(t) for t in hands[p]] == ["0-0"] else pips[p] for p in key.split("+"))

            a, b = points
            if d["end"] == "out":
                mine = a if winner in a.split("+") else b
                other = b if mine == a else a
                assert points == {mine: counted(other), other: 0}
            else:
                diff = counted(a) - counted(b)
                assert points == {a: max(0, -diff), b: max(0, diff)}
        total += sum(points.values())
    assert sum(result["totals"].values()) == total


@SETTINGS
# (drawn among the max_loser variants, not filtered from all: a filter keeping one in eight
# failed Hypothesis's health check now and then)
@given(games(camera=st.just(False), variants=[v for v in VARIANTS if ruleset(v).scoring == "max_loser"]))
def test_baltic_points_and_eggs_sum_to_the_losers_pips(events):
    result = replay_events(events)
    rules = ruleset("baltic")
    reveals = {}
    owed = 0
    deal_no = 0
    for e in events[1:] + [{"event": "deal"}]:
        if e["event"] == "deal" and reveals:
            d = result["deals"][deal_no]
            deal_no += 1
            special = {p: _special_points(rules, h) for p, h in reveals.items()}
            special = {p: v for p, v in special.items() if v is not None}
            if special:
                owed += sum(special.values())
            else:
                owed += sum(sum(t.pips for t in h) for p, h in reveals.items() if p != d["winner"])
            reveals = {}
        elif e["event"] == "reveal":
            reveals[e["player"]] = [Tile.parse(t) for t in e["tiles"]]
    assert sum(result["totals"].values()) + sum(e["points"] for e in result["eggs"]) == owed


@settings(max_examples=80, deadline=None)
@given(games(camera=st.just(False)), st.data())
def test_corrupted_games_are_flagged(events, data):
    plays = [i for i, e in enumerate(events) if e["event"] == "play" and "to" in e]
    if not plays:
        return
    i = data.draw(st.sampled_from(plays))
    event = dict(events[i])
    kind = data.draw(st.sampled_from(["replay_earlier_tile", "attach_to_missing", "other_player"]))
    deal_start = max(j for j in range(i) if events[j]["event"] == "deal")
    earlier = [e["tile"] for e in events[deal_start:i] if e["event"] == "play"]
    if kind == "replay_earlier_tile":
        event["tile"] = data.draw(st.sampled_from(earlier))
    elif kind == "attach_to_missing":
        on_table = {str(Tile.parse(t)) for t in earlier}
        event["to"] = next(str(t) for t in ALL_TILES if str(t) not in on_table and str(t) != str(Tile.parse(event["tile"])))
    else:
        others = [p for p in events[0]["players"] if p != event["player"]]
        event["player"] = data.draw(st.sampled_from(others))
    corrupted = events[:i] + [event] + events[i + 1:]
    result = replay_events(corrupted)
    assert result["flags"], (kind, event)
    assert min(f["event"] for f in result["flags"]) == i


@settings(max_examples=15, deadline=None)
@given(games(camera=st.just(False)), st.data())
def test_apply_is_pure_old_states_do_not_change(events, data):
    state = new_game(events[0])
    k = data.draw(st.integers(2, len(events) - 1))
    for e in events[1:k]:
        state, _ = apply(state, e)
    d = state.deal
    snapshot = (state.index, state.results, dict(state.totals), list(d.hands), list(d.counts),
                d.layout.placed, d.layout.open_ends(), d.to_move, d.end)
    later = state
    for e in events[k:]:
        later, _ = apply(later, e)
    d = state.deal
    assert snapshot == (state.index, state.results, dict(state.totals), list(d.hands), list(d.counts),
                        d.layout.placed, d.layout.open_ends(), d.to_move, d.end)
