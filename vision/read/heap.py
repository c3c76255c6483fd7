"""Which face-down tiles outside the layout are the boneyard: a heap, not a hand.

The layout gives every tile outside the chain to the seat of the nearest table edge; where the
variant has a boneyard, its heap lies among them. How the tiles lie tells them apart: a hand is a
row of tiles side by side and squared to each other, the boneyard a heap with each tile at its own
angle. Only the tiles' two half centres are used, so the recount (one photo) and the live tracker
(vision/live/pile.py, which also remembers where the heap was) share this.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

Point = tuple[float, float]
Halves = tuple[Point, Point]

ROW_ANGLE_DEG = 12.0  # tiles of a row are squared to each other within this
ROW_STEP = 0.9  # side by side: centres at most this many tile lengths apart (a tile's width is half)
ROW_MIN = 3  # tiles in a row of a hand; two squared tiles can lie so in a heap by chance
HAND_ROW = 5  # a row this long is a hand's, never the heap's (a deal with a boneyard gives 7 or 8 each)
ROW_GAP = 1.5  # a hand's tiles beyond a gap (tiles played from it) within this many tile lengths
HEAP_LINK = 2.0  # tiles of a heap lie within this many tile lengths of another of them
HEAP_MIN = 3
HEAP_SPREAD = 0.75  # a heap's tiles point every way: the mean of their doubled angles is short
HEAP_JOIN = 3.0  # a scattered heap's clusters lie within this many tile lengths of each other


def centre(h: Halves) -> Point:
    (x1, y1), (x2, y2) = h
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def _angle(h: Halves) -> float:
    (x1, y1), (x2, y2) = h
    return math.atan2(y2 - y1, x2 - x1) % math.pi


def squared(a: Halves, b: Halves) -> bool:
    d = abs(_angle(a) - _angle(b))
    return min(d, math.pi - d) <= math.radians(ROW_ANGLE_DEG)


def _side_by_side(a: Halves, b: Halves, length: float, step: float = ROW_STEP) -> bool:
    """Squared, within `step` tile lengths, and beside each other (not end to end): the step runs
    across the tile."""
    if not squared(a, b):
        return False
    (ax, ay), (bx, by) = centre(a), centre(b)
    dx, dy = bx - ax, by - ay
    if math.hypot(dx, dy) > step * length:
        return False
    along = abs(dx * math.cos(_angle(a)) + dy * math.sin(_angle(a)))
    return along <= 0.35 * length


def _in_line(row: list[Halves], h: Halves, length: float) -> bool:
    """Whether a tile lies in a row's line beyond a gap: beside the nearest of its tiles, within
    ROW_GAP tile lengths of it."""
    near = min(row, key=lambda r: math.dist(centre(r), centre(h)))
    return _side_by_side(near, h, length, ROW_GAP)


def _hand_rows(halves: Sequence[Halves], loose: list[int], length: float,
               known: Sequence[Halves] = ()) -> set[int]:
    """The tiles of hands' rows among `loose`: ROW_MIN side by side or more, and the tiles in
    their line beyond a gap (held-out h24: a tile played from the middle of a hand left the last
    one apart, 2 tile lengths from the boneyard, and it was taken for a tile of the heap).
    `known`: tiles seen in hands' rows before (where they lay): a row keeps its line however few
    tiles it holds now, so a tile in that line is a hand's too."""
    rows = [row for row in _groups(loose, lambda i, j: _side_by_side(halves[i], halves[j], length))
            if len(row) >= ROW_MIN]
    in_row = {i for row in rows for i in row}
    lines = [[halves[j] for j in row] for row in rows] + ([list(known)] if known else [])
    grown = True
    while grown:
        grown = False
        for line in lines:
            for i in loose:
                if i not in in_row and _in_line(line, halves[i], length):
                    line.append(halves[i])
                    in_row.add(i)
                    grown = True
    return in_row


def hand_rows_seen(halves: Sequence[Halves], loose: list[int]) -> set[int]:
    """The tiles among `loose` that lie in rows of HAND_ROW side by side or more: surely a hand's,
    to be remembered as such (three squared side by side happen in a heap by chance: fresh16
    h353, three tiles of the pile by a hand's row, remembered as a row, counted as that hand's)."""
    length = tile_length(halves, loose)
    if not loose or length <= 0:
        return set()
    return {i for row in _groups(loose, lambda i, j: _side_by_side(halves[i], halves[j], length))
            if len(row) >= HAND_ROW for i in row}


def _groups(indices: list[int], linked: Callable[[int, int], bool]) -> list[list[int]]:
    """Connected groups of `indices` under the symmetric relation `linked(i, j)`."""
    left, out = set(indices), []
    while left:
        stack, group = [left.pop()], []
        while stack:
            i = stack.pop()
            group.append(i)
            near = [j for j in left if linked(i, j)]
            left.difference_update(near)
            stack.extend(near)
        out.append(sorted(group))
    return out


def _spread(halves: Sequence[Halves], group: list[int]) -> float:
    """Length of the mean of the doubled angles: 1 when all are squared, near 0 when scattered."""
    c = sum(math.cos(2 * _angle(halves[i])) for i in group) / len(group)
    s = sum(math.sin(2 * _angle(halves[i])) for i in group) / len(group)
    return math.hypot(c, s)


def tile_length(halves: Sequence[Halves], indices: list[int]) -> float:
    """The median tile length (twice the distance between half centres) of `indices`."""
    spans = sorted(2 * math.dist(*halves[i]) for i in indices)
    return spans[len(spans) // 2] if spans else 0.0


def find_heap(halves: Sequence[Halves], loose: list[int], most: int | None = None, extra: int = 0,
              known: Sequence[Halves] = (), gather: bool = False) -> list[int]:
    """The largest heap among the face-down tiles `loose` (indices into `halves`), [] when there
    is none: at least HEAP_MIN tiles, none in a hand's row (`known`: tiles seen in hands' rows
    before, see `_hand_rows`), lying near each other at scattered angles, and no more than `most`
    (the tiles a deal leaves undealt: a heap of all 28 before the deal is the shuffle, not the
    boneyard) and `extra` boxes more (a tile boxed twice). With `gather` and `most`, the tiles
    of no row within HEAP_JOIN tile lengths of the heap are the heap's too, while it holds no
    more than `most` (`_gathered`)."""
    length = tile_length(halves, loose)
    if len(loose) < HEAP_MIN or length <= 0:
        return []
    in_row = _hand_rows(halves, loose, length, known)
    rest = [i for i in loose if i not in in_row]
    heaps = _groups(rest, lambda i, j: math.dist(centre(halves[i]), centre(halves[j])) <= HEAP_LINK * length)
    found = [h for h in heaps if HEAP_MIN <= len(h) <= (most + extra if most is not None else len(h))
             and _spread(halves, h) < HEAP_SPREAD]
    if not found:
        return []
    best = max(found, key=len)
    if gather and most is not None:
        return _gathered(halves, best, [h for h in heaps if h is not best], most + extra, length)
    return best


def _gathered(halves: Sequence[Halves], best: list[int], others: list[list[int]], most: int,
              length: float) -> list[int]:
    """The heap `best` with the clusters of `others` within HEAP_JOIN tile lengths of it, nearest first,
    while it holds no more than `most` tiles: a pile scattered wide falls apart in clusters a
    little more than HEAP_LINK apart (fresh40 h917, no divider: four of the fourteen lay 2.2
    tile lengths from the other ten; their places went unlearnt, and the three draws taken
    from them unseen)."""
    out = list(best)

    def gap(group: list[int]) -> float:
        return min(math.dist(centre(halves[i]), centre(halves[j])) for i in group for j in out)

    for group in sorted(others, key=gap):
        if gap(group) <= HEAP_JOIN * length and len(out) + len(group) <= most:
            out += group
    return sorted(out)
