"""Tiles are rigid bodies that never overlap: the tiles of a frame are the best set of boxes no
two of which overlap, not the best box at each place (issue 23).

Box by box, a box across the joint of two touching tiles (half of each, the thin gap taken for a
divider) wins wherever it scores higher than each of the two; as a set, it loses against the two
together. The boxes that overlap form small groups (a tile, the boxes across its joints, a box
on its half); in each group the heaviest set of boxes that do not overlap is found exactly (branching
box by box), and by a greedy pass with one-swap repairs where a group is too large.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

EXACT_UP_TO = 60  # boxes in one group searched exactly (fast on the sparse graphs of boxes on a table)


def conflict_groups(conflicts: Sequence[set[int]]) -> list[list[int]]:
    """Connected groups of boxes, `conflicts[i]` listing the boxes box i overlaps."""
    return sorted(sorted(g) for g in conflict_groups_within(frozenset(range(len(conflicts))), conflicts))


def _exact(group: list[int], weight: np.ndarray, conflicts: Sequence[set[int]]) -> set[int]:
    """The heaviest disjoint set of `group`, exactly: branch on the box with the most conflicts
    (in or out), solving the groups a branch leaves apart separately (a row of touching tiles with
    a box at every joint falls apart at once)."""
    memo: dict[frozenset[int], tuple[float, frozenset[int]]] = {}

    def solve(nodes: frozenset[int]) -> tuple[float, frozenset[int]]:
        if not nodes:
            return 0.0, frozenset()
        if nodes in memo:
            return memo[nodes]
        parts = conflict_groups_within(nodes, conflicts)
        if len(parts) > 1:
            total, chosen = 0.0, frozenset()
            for part in parts:
                t, c = solve(part)
                total, chosen = total + t, chosen | c
            memo[nodes] = (total, chosen)
            return memo[nodes]
        v = max(nodes, key=lambda i: (len(conflicts[i] & nodes), weight[i]))
        if not conflicts[v] & nodes:
            result = (float(weight[v]), frozenset([v]))
        else:
            t_in, c_in = solve(nodes - conflicts[v] - {v})
            t_out, c_out = solve(nodes - {v})
            result = (t_in + float(weight[v]), c_in | {v}) if t_in + weight[v] >= t_out else (t_out, c_out)
        memo[nodes] = result
        return result

    return set(solve(frozenset(group))[1])


def conflict_groups_within(nodes: frozenset[int], conflicts: Sequence[set[int]]) -> list[frozenset[int]]:
    """Connected groups of `nodes` by the conflicts among them."""
    left, groups = set(nodes), []
    while left:
        stack = [left.pop()]
        group = set(stack)
        while stack:
            for k in conflicts[stack.pop()] & left:
                left.discard(k)
                group.add(k)
                stack.append(k)
        groups.append(frozenset(group))
    return groups


def _greedy(group: list[int], weight: np.ndarray, conflicts: Sequence[set[int]]) -> set[int]:
    chosen: set[int] = set()
    for i in sorted(group, key=lambda i: -weight[i]):
        if not conflicts[i] & chosen:
            chosen.add(i)
    improved = True
    while improved:  # one-swap repairs: a left-out box worth more than the chosen ones it overlaps
        improved = False
        for i in group:
            if i in chosen:
                continue
            clash = conflicts[i] & chosen
            if weight[i] > sum(weight[k] for k in clash) + 1e-9:
                chosen -= clash
                chosen.add(i)
                improved = True
    return chosen


def heaviest_disjoint(weight: Sequence[float], conflicts: Sequence[Sequence[int]]) -> set[int]:
    """The boxes to keep: the set of boxes of the largest total weight no two of which conflict."""
    w = np.asarray(weight, float)
    sets = [set(c) for c in conflicts]
    keep: set[int] = set()
    for group in conflict_groups(sets):
        if len(group) == 1:
            keep.add(group[0])
        elif len(group) <= EXACT_UP_TO:
            keep |= _exact(group, w, sets)
        else:
            keep |= _greedy(group, w, sets)
    return keep
