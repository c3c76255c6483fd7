"""Tiles are rigid bodies that never overlap: the heaviest set of boxes no two of which overlap."""

from __future__ import annotations

import itertools

import numpy as np

from vision.read import rigid


def _brute(weight, conflicts) -> float:
    best = 0.0
    n = len(weight)
    for mask in range(1 << n):
        chosen = [i for i in range(n) if mask >> i & 1]
        if all(k not in conflicts[i] for i, k in itertools.combinations(chosen, 2)):
            best = max(best, sum(weight[i] for i in chosen))
    return best


def test_a_box_across_a_joint_loses_against_the_two_tiles_it_straddles():
    # tiles 0 and 1 touch end to end; box 2 covers half of each and is surer than either
    keep = rigid.heaviest_disjoint([0.6, 0.55, 0.9], [[2], [2], [0, 1]])
    assert keep == {0, 1}


def test_a_row_of_touching_tiles_with_a_box_at_every_joint_keeps_the_tiles():
    # a row of 12 tiles (even indices) with a box across every joint (odd indices), each surer than
    # any tile: box by box the 11 joints would win and every tile be lost
    n = 23
    weight = [0.5 if i % 2 == 0 else 0.52 for i in range(n)]
    conflicts = [[k for k in (i - 1, i + 1) if 0 <= k < n] for i in range(n)]
    assert rigid.heaviest_disjoint(weight, conflicts) == set(range(0, n, 2))
    by_box = rigid._greedy(list(range(n)), np.asarray(weight), [set(c) for c in conflicts])
    assert by_box != set(range(0, n, 2))


def test_the_choice_is_the_heaviest_on_random_groups_exact_and_greedy():
    rng = np.random.default_rng(1)
    for size in (6, 10, 14):
        for _ in range(20):
            weight = rng.uniform(0.1, 1.0, size).tolist()
            pairs = [(i, k) for i, k in itertools.combinations(range(size), 2) if rng.random() < 0.25]
            conflicts = [[k for a, b in pairs for k in (a, b) if i in (a, b) and k != i] for i in range(size)]
            keep = rigid.heaviest_disjoint(weight, conflicts)
            assert all(k not in conflicts[i] for i in keep for k in keep)
            assert abs(sum(weight[i] for i in keep) - _brute(weight, conflicts)) < 1e-9
            greedy = rigid._greedy(list(range(size)), np.asarray(weight), [set(c) for c in conflicts])
            assert all(k not in conflicts[i] for i in greedy for k in greedy)


def test_boxes_that_overlap_nothing_all_stay():
    assert rigid.heaviest_disjoint([0.2, 0.3, 0.1], [[], [], []]) == {0, 1, 2}
