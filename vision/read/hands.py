"""The hands from one image: the tiles outside the layout, grouped and given to the seats.

Tiles lying parallel side by side or end to end in a row are one hand, and a hand goes whole to
the seat it lies towards from the middle of the frame (north is the top edge). Where two hands
lean towards one seat and one of them lies between two seats, it takes the free one: a camera
turned against the table puts hands in the frame's corners, and a hand is not shared.
"""

from __future__ import annotations

import itertools

import numpy as np

SEATS = ("north", "east", "south", "west")
# each seat's direction from the middle of the frame, in image coordinates (y down)
SEAT_DIRECTION = {"north": (0.0, -1.0), "east": (1.0, 0.0), "south": (0.0, 1.0), "west": (-1.0, 0.0)}
PARALLEL_COS = 0.9  # tiles of one hand lie parallel, side by side or end to end in a row
SIDE_BY_SIDE = 0.8  # side by side: centres within this many tile lengths
IN_A_ROW = (1.25, 0.3)  # end to end: this many lengths along the tiles, this many across
BETWEEN_DEG = 60.0  # a hand may take a seat this far round from the direction it lies in
MOST_HANDS = 8  # hands given seats together (the rest, stray tiles, each to their nearest seat)


def linked(centres: np.ndarray, axes: np.ndarray, lengths: np.ndarray, rows: bool = True) -> np.ndarray:
    """(n, n) bool: tiles of one hand, parallel and side by side or (with `rows`) end to end in a
    row (`centres` (n, 2), unit long `axes` (n, 2), `lengths` (n,))."""
    d = centres[None] - centres[:, None]  # [a, b]: from a to b
    length = np.maximum(lengths[:, None], lengths[None])
    parallel = np.abs(axes @ axes.T) >= PARALLEL_COS
    side = np.hypot(d[..., 0], d[..., 1]) <= SIDE_BY_SIDE * length
    if not rows:
        return parallel & side
    across_axes = np.stack([-axes[:, 1], axes[:, 0]], axis=1)
    along = np.abs(np.einsum("abk,ak->ab", d, axes))
    across = np.abs(np.einsum("abk,ak->ab", d, across_axes))
    row = (along <= IN_A_ROW[0] * length) & (across <= IN_A_ROW[1] * length)
    return parallel & (side | row)


def tile_groups(centres: np.ndarray, axes: np.ndarray, lengths: np.ndarray) -> list[list[int]]:
    """Indices of tiles linked into hands (`linked`, and on through their neighbours), largest first."""
    n = len(centres)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in zip(*np.nonzero(np.triu(linked(centres, axes, lengths), 1)), strict=True):
        parent[find(int(a))] = find(int(b))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def _angle_to(seat: str, offset: np.ndarray) -> float:
    """Degrees between a seat's direction and an offset from the frame's middle."""
    d = np.asarray(SEAT_DIRECTION[seat])
    cos = float(offset @ d) / max(float(np.hypot(*offset)), 1e-9)
    return float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))


def seat_groups(offsets: list[np.ndarray], sizes: list[int]) -> list[str]:
    """A seat for each group (offsets of their centres from the frame's middle, scaled to the
    frame; their numbers of tiles): each group within BETWEEN_DEG of its direction, fewest tiles in
    a seat shared with a larger group, then least turned."""
    options = [sorted((s for s in SEATS if _angle_to(s, o) <= BETWEEN_DEG), key=lambda s: _angle_to(s, o))
               or [min(SEATS, key=lambda s: _angle_to(s, o))] for o in offsets]
    best, best_key = None, None
    for pick in itertools.product(*options):
        in_seat: dict[str, list[int]] = {}
        for seat, n in zip(pick, sizes, strict=True):
            in_seat.setdefault(seat, []).append(n)
        shared = sum(sum(ns) - max(ns) for ns in in_seat.values())
        key = (shared, sum(n * _angle_to(s, o) for s, o, n in zip(pick, offsets, sizes, strict=True)))
        if best_key is None or key < best_key:
            best, best_key = list(pick), key
    return best or []


def tile_geometry(halves, widths, indices: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centres (n, 2), unit long axes (n, 2) and lengths (n,) of the tiles `indices`, from each
    tile's two half centres and its width (a tile is twice as long as wide)."""
    hv = np.array([np.asarray(halves[i], float) for i in indices]).reshape(-1, 2, 2)
    d = hv[:, 1] - hv[:, 0]
    axes = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    return hv.mean(axis=1), axes, np.array([2.0 * widths[i] for i in indices], float)


def group_hands(halves: list[np.ndarray], widths: list[float], rest: list[int],
                size: tuple[int, int] | None) -> dict[str, list[int]]:
    """Seat -> indices of the tiles in `rest` (the tiles outside the layout) lying in that seat's hand.
    `halves`: each tile's two half centres; `size`: the frame (w, h)."""
    if size is None or not rest:
        return {}
    w, h = size
    centres, axes, lengths = tile_geometry(halves, widths, rest)
    groups = tile_groups(centres, axes, lengths)
    scale = np.array([w, h], float)
    offsets = [(centres[g].mean(axis=0) - scale / 2) / scale for g in groups]
    seats = seat_groups(offsets[:MOST_HANDS], [len(g) for g in groups[:MOST_HANDS]])
    seats += [min(SEATS, key=lambda s: _angle_to(s, o)) for o in offsets[MOST_HANDS:]]
    hands: dict[str, list[int]] = {}
    for g, seat in zip(groups, seats, strict=True):
        hands.setdefault(seat, []).extend(rest[k] for k in g)
    return {s: sorted(hands[s]) for s in SEATS if s in hands}
