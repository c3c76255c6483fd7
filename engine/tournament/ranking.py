"""Ordering players by total, then *dynamics* (BYK-2.6/2.7), then lot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby

from engine.tournament.lot import Lot, draw


def competition_places(points: Mapping[str, int]) -> dict[str, int]:
    """Places from points, fewer is better, equal points share a place (1, 2, 2, 4)."""
    return {p: 1 + sum(1 for q in points.values() if q < v) for p, v in points.items()}


def is_competition_ranking(places: Mapping[str, int]) -> bool:
    """True when every place equals 1 + the number of strictly better places (1, 2, 2, 4)."""
    return all(v == 1 + sum(1 for w in places.values() if w < v) for v in places.values())


def dynamics_key(player: str, history: Sequence[Mapping[str, int]]) -> tuple[int, ...]:
    """Sort key, smaller places higher: current total, then the totals after earlier deals,
    newest first and negated.

    Comparing these keys finds, for two players with equal totals, the last snapshot in which
    their totals differed; the one who was behind then (higher total) ranks higher (BYK-2.6).
    Lexicographic comparison keeps the order transitive for any number of tied players.
    """
    now = history[-1][player]
    return (now, *(-snap[player] for snap in reversed(history[:-1])))


def order_by_total_and_dynamics(
    group: Sequence[str],
    history: Sequence[Mapping[str, int]],
    *,
    seed: int,
    tag: str,
    rule: str,
) -> tuple[list[str], list[Lot]]:
    """Best first. Players equal on total and dynamics are ordered by a recorded lot."""
    ranked = sorted(group, key=lambda p: dynamics_key(p, history))
    ordered: list[str] = []
    lots: list[Lot] = []
    for i, (_, same) in enumerate(groupby(ranked, key=lambda p: dynamics_key(p, history))):
        tied = list(same)
        if len(tied) > 1:
            lot = draw(seed, f"{tag}/{i}", rule, tied, len(tied))
            lots.append(lot)
            tied = list(lot.drawn)
        ordered.extend(tied)
    return ordered, lots
