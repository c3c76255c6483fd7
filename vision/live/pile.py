"""Which of the reader's tiles are the boneyard: the face-down heap of undealt tiles.

The reader gives every tile outside the layout to the seat of the nearest table edge, as the
recount of one photo wants; in play the boneyard lies among them. How the tiles lie tells them
apart: a hand is a row of tiles side by side and squared to each other, the boneyard a heap in
a free corner with each tile at its own angle. `find_pile` names the tiles of that heap on one
frame; `PileMemory` remembers where the heap was, so its last tiles, too few to make a heap,
stay boneyard tiles until they are drawn. Only for variants with a boneyard (the tracker's
`boneyard_size`): without one, a player's untidy hand must not become a heap.
"""

from __future__ import annotations

import math
from dataclasses import replace

from vision.live.observation import BONEYARD, LAYOUT, Observation, Point, TileObs

ROW_ANGLE_DEG = 12.0  # tiles of a row are squared to each other within this
ROW_STEP = 0.9  # side by side: centres at most this many tile lengths apart (a tile's width is half)
ROW_MIN = 3  # tiles in a row of a hand; two squared tiles can lie so in a heap by chance
HEAP_LINK = 2.0  # tiles of a heap lie within this many tile lengths of another of them
HEAP_MIN = 3
HEAP_SPREAD = 0.75  # a heap's tiles point every way: the mean of their doubled angles is short
PLACE_REACH = 0.5  # a remembered place holds a tile centred within this many tile lengths


def _angle(t: TileObs) -> float:
    (x1, y1), (x2, y2) = t.halves
    return math.atan2(y2 - y1, x2 - x1) % math.pi


def _squared(a: TileObs, b: TileObs) -> bool:
    d = abs(_angle(a) - _angle(b))
    return min(d, math.pi - d) <= math.radians(ROW_ANGLE_DEG)


def _side_by_side(a: TileObs, b: TileObs, length: float) -> bool:
    """Squared, near, and beside each other (not end to end): the step runs across the tile."""
    if not _squared(a, b):
        return False
    dx, dy = b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]
    if math.hypot(dx, dy) > ROW_STEP * length:
        return False
    along = abs(dx * math.cos(_angle(a)) + dy * math.sin(_angle(a)))
    return along <= 0.35 * length


def _groups(indices: list[int], linked) -> list[list[int]]:
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


def _loose(obs: Observation) -> list[int]:
    """Face-down tiles the reader left out of the layout (given to seats)."""
    return [i for i, t in enumerate(obs.tiles) if t.face == "down" and t.owner not in (LAYOUT, BONEYARD)]


def tile_length(obs: Observation, indices: list[int]) -> float:
    spans = sorted(2 * obs.tiles[i].half_span for i in indices)
    return spans[len(spans) // 2] if spans else 0.0


def find_pile(obs: Observation, most: int | None = None) -> list[int]:
    """Indices of the tiles of the boneyard heap on this frame ([] when there is none): the
    largest group of at least HEAP_MIN loose face-down tiles, none in a hand's row, lying near
    each other at scattered angles, and no more than `most` (the tiles a deal leaves undealt:
    a heap of all 28 before the deal is the shuffle, not the boneyard)."""
    loose = _loose(obs)
    length = tile_length(obs, loose)
    if len(loose) < HEAP_MIN or length <= 0:
        return []
    tiles = obs.tiles
    rows = _groups(loose, lambda i, j: _side_by_side(tiles[i], tiles[j], length))
    in_row = {i for row in rows if len(row) >= ROW_MIN for i in row}
    rest = [i for i in loose if i not in in_row]
    heaps = _groups(rest, lambda i, j: math.dist(tiles[i].centre, tiles[j].centre) <= HEAP_LINK * length)
    heaps = [h for h in heaps if HEAP_MIN <= len(h) <= (most if most is not None else len(h))
             and _spread(tiles, h) < HEAP_SPREAD]
    return max(heaps, key=len) if heaps else []


def _spread(tiles: tuple[TileObs, ...], group: list[int]) -> float:
    """Length of the mean of the doubled angles: 1 when all are squared, near 0 when scattered."""
    c = sum(math.cos(2 * _angle(tiles[i])) for i in group) / len(group)
    s = sum(math.sin(2 * _angle(tiles[i])) for i in group) / len(group)
    return math.hypot(c, s)


class PileMemory:
    """Where the boneyard heap was seen this deal; `mark(obs)` gives its tiles to the boneyard."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A new deal: the heap is found again."""
        self.places: list[Point] = []
        self.tile_len = 0.0

    def mark(self, obs: Observation, most: int | None = None) -> Observation:
        """`obs` with the boneyard's tiles owned by the boneyard. A reader that already names the
        boneyard (the renderer's truth) is left alone."""
        if any(t.owner == BONEYARD for t in obs.tiles):
            return obs
        heap = set(find_pile(obs, most))
        if heap:
            self.tile_len = max(self.tile_len, tile_length(obs, sorted(heap)))
            for i in heap:
                self._remember(obs.tiles[i].centre)
        reach = PLACE_REACH * self.tile_len
        bones = [i for i in _loose(obs)
                 if i in heap or any(math.dist(obs.tiles[i].centre, p) <= reach for p in self.places)]
        if not bones:
            return obs
        tiles = list(obs.tiles)
        for i in bones:
            tiles[i] = replace(tiles[i], owner=BONEYARD)
        return replace(obs, tiles=tuple(tiles))

    def _remember(self, p: Point) -> None:
        if all(math.dist(p, q) > PLACE_REACH * self.tile_len for q in self.places):
            self.places.append(p)
