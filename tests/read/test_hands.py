"""Hands from one image (vision/read/hands.py): tiles outside the layout grouped, then seated."""

import numpy as np

from vision.read.hands import group_hands, tile_groups

W = 20.0  # tile width; length 40


def _row(x0: float, y0: float, n: int, step: tuple[float, float], vertical: bool = True):
    """n tiles, centres from (x0, y0) by `step`; vertical tiles (long axis along y) by default."""
    halves = []
    for k in range(n):
        c = np.array([x0 + k * step[0], y0 + k * step[1]])
        d = np.array([0.0, W / 2]) if vertical else np.array([W / 2, 0.0])
        halves.append(np.array([c - d, c + d]))
    return halves


def _hands(*rows, size=(1000, 1000)):
    halves = [h for row in rows for h in row]
    return group_hands(halves, [W] * len(halves), list(range(len(halves))), size)


def test_side_by_side_and_end_to_end_rows_are_one_group_each():
    side = _row(100, 100, 5, (24, 0))  # vertical tiles side by side
    ends = _row(600, 600, 4, (44, 0), vertical=False)  # horizontal tiles end to end
    halves = side + ends
    hv = np.array(halves)
    axes = (hv[:, 1] - hv[:, 0]) / W
    groups = tile_groups(hv.mean(axis=1), axes, np.full(len(halves), 2 * W))
    assert sorted(map(sorted, groups)) == [[0, 1, 2, 3, 4], [5, 6, 7, 8]]


def test_each_hand_goes_whole_to_the_seat_it_lies_towards():
    south = _row(400, 950, 6, (24, 0))
    north = _row(400, 50, 6, (24, 0))
    west = _row(50, 400, 6, (0, 24), vertical=False)
    east = _row(950, 400, 6, (0, 24), vertical=False)
    assert _hands(south, north, west, east) == {"north": list(range(6, 12)), "east": list(range(18, 24)),
                                                "south": list(range(6)), "west": list(range(12, 18))}


def test_a_hand_across_a_corner_is_not_split_between_two_seats():
    # a row along the bottom edge running into the lower right corner: its last tiles lie nearer
    # the right edge than the bottom one
    row = _row(720, 900, 10, (24, 0))
    assert _hands(row) == {"south": list(range(10))}


def test_hands_in_the_frames_corners_take_four_seats():
    # a camera turned 45 degrees against the table: each hand lies in a corner of the frame,
    # two of them nearer one edge's middle than the other's
    a = _row(700, 880, 3, (24, 0))  # lower right, leaning south
    b = _row(880, 680, 3, (0, 24), vertical=False)  # lower right, leaning east... further down
    c = _row(100, 120, 3, (24, 0))  # upper left
    d = _row(120, 700, 3, (0, 24), vertical=False)  # lower left
    hands = _hands(a, b, c, d)
    assert sorted(map(sorted, hands.values())) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]
    assert len(hands) == 4


def test_a_hand_squarely_before_a_seat_keeps_it_beside_another():
    # two groups straight before the south edge (one hand laid in two parts): both south
    left, right = _row(300, 950, 3, (24, 0)), _row(650, 950, 3, (24, 0))
    assert _hands(left, right) == {"south": list(range(6))}
