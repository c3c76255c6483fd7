"""The end of a deal as data: winner, places, pips and points per variant; totals and eggs.

BYK-1.12 places (competition ranking), BYK-2.5 own pips, SPT-8 pairs, SPT-11 0:10, BAL-7 all to
the worst loser, BAL-8 special hands, BAL-15/16 eggs.
"""

from __future__ import annotations

from engine.state import Deal, GameState, Termination


def pair_key(pair) -> str:
    return "+".join(pair)


def deal_result(s: GameState, d: Deal) -> tuple[dict, tuple]:
    """The result of deal `d` (ended or not) and the eggs after it. Pure."""
    rules, players = s.rules, s.players
    n = len(players)
    end = d.end or Termination.UNFINISHED
    pips_raw = [d.hand_pips(i) for i in range(n)] if d.end is not None else [None] * n
    hands = [d.final_hand(i) for i in range(n)] if d.end is not None else [None] * n
    # SPT-8: a lone 0-0 left in hand counts `lone_00`.
    counted = list(pips_raw)
    if rules.lone_00 is not None:
        for i, h in enumerate(hands):
            if h is not None and len(h) == 1 and h[0].a == 0 and h[0].b == 0:
                counted[i] = rules.lone_00
    winner = d.winner
    eggs = s.eggs
    places: dict[str, int | None] = {p: None for p in players}
    result = {
        "number": d.number,
        "opener": None if d.opener is None else players[d.opener],
        "end": end.value,
        "winner": None,
        "places": places,
        "pips": {p: pips_raw[i] for i, p in enumerate(players)},
        "points": {},
        "moves": d.moves,
        "redeals": d.redeals,
        "_winner_seat": None,
        "_opener_seat": d.opener,
    }
    if end is Termination.UNFINISHED:
        keys = [pair_key(p) for p in s.pairs] if s.pairs else list(players)
        result["points"] = {k: None for k in keys}
        return result, eggs

    known = all(v is not None for v in counted)
    if winner is None and known and rules.scoring != "pairs":
        # a blocked deal won by the lowest hand; equal lowest hands share it (no winner named)
        low = min(counted)
        lows = [i for i in range(n) if counted[i] == low]
        if len(lows) == 1:
            winner = lows[0]
    # BYK-1.12: winner 1st, the rest by pips ascending, equal sums share a place (1, 2, 2, 4).
    if winner is not None:
        places[players[winner]] = 1
        others = [i for i in range(n) if i != winner]
        start = 2
    else:
        others = list(range(n))
        start = 1
    for i in others:
        if counted[i] is not None and all(counted[j] is not None for j in others):
            places[players[i]] = start + sum(1 for j in others if counted[j] < counted[i])
    result["winner"] = None if winner is None else players[winner]
    result["_winner_seat"] = winner

    if rules.scoring == "pairs":
        result["points"], result["winner"], result["_winner_seat"] = _pairs_points(s, d, counted, winner, end)
    elif rules.scoring == "max_loser":
        result["points"], eggs, hung = _max_loser_points(s, hands, counted, winner)
        if hung:
            result["eggs"] = hung
    else:
        result["points"] = _own_points(s, hands, counted, winner)
    return result, eggs


def _special(s: GameState, hands) -> dict[int, int]:
    """BAL-8: a hand of exactly these tiles loses the deal with these points."""
    found = {}
    for i, h in enumerate(hands):
        if not h:
            continue
        key = sorted(str(t) for t in h)
        for spec, value in s.rules.special.items():
            if sorted(spec.split()) == key:
                found[i] = value
    return found


def _own_points(s: GameState, hands, counted, winner) -> dict:
    """BYK-2.5, traditional: each player adds the pips left in hand; the winner adds 0."""
    players = s.players
    special = _special(s, hands)
    if special:
        return {p: special.get(i, 0) for i, p in enumerate(players)}
    low = min((v for v in counted if v is not None), default=None) if winner is None else None
    out = {}
    for i, p in enumerate(players):
        if i == winner or (winner is None and counted[i] is not None and counted[i] == low):
            out[p] = 0
        else:
            out[p] = counted[i]
    return out


def _pairs_points(s: GameState, d: Deal, counted, winner, end) -> tuple[dict, str | None, int | None]:
    """SPT-8: the losing pair's pips go to the winning pair; a closed line credits the difference
    to the pair with fewer pips. SPT-11: a wrongful pass loses the deal 0:10."""
    (a, b) = s.pairs
    ka, kb = pair_key(a), pair_key(b)
    seat = s.seat
    pa = [counted[seat[p]] for p in a]
    pb = [counted[seat[p]] for p in b]
    if d.wrongful:
        offender = s.players[d.wrongful[0]]
        if offender in a:
            return {ka: 0, kb: 10}, kb, None
        return {ka: 10, kb: 0}, ka, None
    if end is Termination.OUT and winner is not None:
        if s.players[winner] in a:
            return {ka: None if None in pb else sum(pb), kb: 0}, s.players[winner], winner
        return {ka: 0, kb: None if None in pa else sum(pa)}, s.players[winner], winner
    if None in pa or None in pb:
        return {ka: None, kb: None}, None, None
    sa, sb = sum(pa), sum(pb)
    if sa < sb:
        return {ka: sb - sa, kb: 0}, ka, None
    if sb < sa:
        return {ka: 0, kb: sa - sb}, kb, None
    return {ka: 0, kb: 0}, None, None


def _max_loser_points(s: GameState, hands, counted, winner) -> tuple[dict, tuple, list | None]:
    """BAL-7: the losers' pips are all written to the loser holding the most; BAL-8 special hands;
    BAL-15/16 eggs when the top sums are equal."""
    players = s.players
    eggs = s.eggs
    points: dict[str, int | None] = {p: 0 for p in players}
    special = _special(s, hands)
    if special:
        for i, v in special.items():
            points[players[i]] = v
        losers = [players[i] for i in special]
    else:
        losers_idx = [i for i in range(len(players)) if i != winner]
        if any(counted[i] is None for i in losers_idx):
            return {p: None for p in players}, eggs, None
        total = sum(counted[i] for i in losers_idx)
        top = max(counted[i] for i in losers_idx)
        holders = [players[i] for i in losers_idx if counted[i] == top]
        if len(holders) > 1 and s.rules.eggs:
            # BAL-15: eggs; nothing is written, the points hang between these players.
            return points, eggs + ((frozenset(holders), total),), [sorted(holders), total]
        for p in holders:
            points[p] = total
        losers = holders
    # BAL-16: hanging eggs go to whichever of their players loses first.
    kept = []
    for who, value in eggs:
        taker = next((p for p in losers if p in who), None)
        if taker is not None:
            points[taker] += value
        else:
            kept.append((who, value))
    return points, tuple(kept), None


def commit_deal(s: GameState, d: Deal) -> None:
    """Write deal `d` into `s` (mutates `s`, which `apply` has already copied)."""
    result, eggs = deal_result(s, d)
    s.results = s.results + (result,)
    s.eggs = eggs
    totals = dict(s.totals) if s.totals else _zero_totals(s)
    for key, value in result["points"].items():
        totals[key] = totals.get(key, 0) + (value or 0)
    s.totals = totals


def _zero_totals(s: GameState) -> dict:
    if s.pairs:
        return {pair_key(p): 0 for p in s.pairs}
    return {p: 0 for p in s.players}
