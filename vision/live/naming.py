"""Naming the tiles of one frame and finding what they touch: plain functions over an
Observation (and the moves already made), no state."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import replace

from vision.live.observation import BONEYARD, LAYOUT, Observation, TileObs, joined
from vision.live.places import Committed

Names = list[str | None]  # the engine's name of each tile of a frame (None: not a layout tile, unread)


def dist(p, q) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def reown(obs: Observation, committed: dict[str, Committed] | None = None) -> Observation:
    """A face-up tile the reader left out of the layout (a misread that broke its join) but
    that touches a layout tile is a layout tile: otherwise the move would be lost. A move not
    boxed on this frame still lies where it was last seen (fresh27 h602, no divider: the 2-2
    boxed at 0.36, then not at all for 4 s; Boris's 2-5 laid on it was a piece of nobody's chain,
    and written after Anna's next play)."""
    layout = [t for t in obs.tiles if t.owner == LAYOUT]
    layout += [c.obs for c in (committed or {}).values() if c.obs is not None]
    if not layout or all(t.owner == LAYOUT for t in obs.tiles):
        return obs
    tiles = list(obs.tiles)
    changed = True
    any_change = False
    while changed:  # a branch cut off by one failed join comes back tile by tile
        changed = False
        for i, tile in enumerate(tiles):
            if tile.owner in (LAYOUT, BONEYARD) or tile.face != "up" or tile.values is None:
                continue
            reach = 1.25 * max(tile.half_span, 1.0)
            if any(dist(h, g) <= reach for o in layout for h in tile.halves for g in o.halves):
                tiles[i] = replace(tile, owner=LAYOUT)
                layout.append(tiles[i])
                changed = any_change = True
    return replace(obs, tiles=tuple(tiles)) if any_change else obs


OPENER_MIDDLE = 0.3  # as the reader's lone opener: within this share of the frame of its middle
ALONE = 1.5  # tile lengths from its centre to every other tile's: no hand's row, no heap
BLANK = "0-0"


def blank_opener(obs: Observation, committed: dict[str, Committed], *, blank_may_open: bool,
                 closed_doubles: bool = False) -> Observation:
    """The 0-0 of a set with no divider and backs of its faces' colour is a back to the reader on
    every frame (fresh live deal h47: no play written, 3 of 33 moves). A play lies face up: only a
    double closing an end is laid face down (SPI-4, BAL-12), and there is no end before the first
    play. So with no move yet in this deal, a face-down tile alone near the middle of the table is
    the opener face up, and showing nothing, the 0-0 (where the engine lets the 0-0 open); once the
    0-0 is a move, a face-down box on its place is it. Either is made the layout's 0-0. Where a
    turn may lay several tiles and none is laid face down (not `closed_doubles`), the first
    settled frame may show the opener with the tiles laid on it: a back whose only neighbours are
    face-up layout tiles showing a 0 is the 0-0 too (fresh deal h154: a groove set's 0-0 and the
    0-2 laid with it in one visit; the 0-0 read as a back until the next player's arm had come,
    whose seat it then took)."""
    blank = committed.get(BLANK)
    if blank is not None and (blank.face != "up" or blank.obs is None):
        return obs
    if blank is None and (committed or not blank_may_open or obs.size is None):
        return obs
    tiles = list(obs.tiles)
    for i, tile in enumerate(tiles):
        if tile.face != "down" or tile.owner == BONEYARD:
            continue
        length = 2 * max(tile.half_span, 1.0)
        if blank is not None:
            here = dist(tile.centre, blank.obs.centre) <= 0.5 * length
        else:
            here = _alone_in_middle(obs, i, zeros_beside=not closed_doubles)
        if here:
            tiles[i] = replace(tile, values=(0, 0), face="up", owner=LAYOUT)
            return replace(obs, tiles=tuple(tiles))
    return obs


def blank_on_end(obs: Observation, committed: dict[str, Committed], join_factor: float) -> Observation:
    """Where no tile is laid face down (not SPI-4, BAL-12), a face-down box the reader joined to
    the layout, touching a move whose value towards it is 0, is the 0-0 of a set with no divider
    whose backs look like its faces (fresh23 h527, Sevastopol: Vera's last tile, the 0-0, laid
    across the 0 of the 0-6, a back to the reader on every frame: never a move, the deal blocked
    instead of Vera out). Made the layout's 0-0 face up; once it is a move, `blank_opener` keeps
    it so. (The caller's choice: only for variants with no closed doubles.)"""
    if BLANK in committed:
        return obs
    names = [t.name if t.owner == LAYOUT else None for t in obs.tiles]
    for i, tile in enumerate(obs.tiles):
        if tile.owner != LAYOUT or tile.face != "down" or not obs.neighbours(i):
            continue
        on = touching(obs, i, names, lambda n: n in committed, join_factor)
        if on is not None and value_towards(obs.tiles[on], tile.centre) == 0:
            tiles = list(obs.tiles)
            tiles[i] = replace(tile, values=(0, 0), face="up")
            return replace(obs, tiles=tuple(tiles))
    return obs


def blank_backs(obs: Observation, committed: dict[str, Committed], join_factor: float) -> Observation:
    """A blank face read in the layout away from where the 0-0 lies is a plain back: a double
    laid face down across an end (SPI-4, BAL-12) in a set whose backs bear no colour or mark the
    reader tells from a face (fresh live deal h105: a closed 2-2 read 0-0 up, nameless as a
    second 0-0 until read face down eight seconds later, while the next player's draws went to
    its player, still to move). With the 0-0 not on the table, one laid on an end showing no 0 is
    a back too (fresh deal h258: a faint-divider set's closed 5-5 read 0-0 on a 5, held as a misfit
    for the operator). Only for variants with closed doubles (the caller's choice)."""
    blank = committed.get(BLANK)
    if blank is not None and (blank.face != "up" or blank.obs is None):
        return obs

    names = [t.name if t.owner == LAYOUT else None for t in obs.tiles]

    def back(i: int, tile: TileObs) -> TileObs:
        if tile.owner != LAYOUT or tile.face != "up" or tile.values != (0, 0):
            return tile
        if blank is not None:
            if dist(tile.centre, blank.obs.centre) > max(tile.half_span, 1.0):  # half a length away
                return replace(tile, values=None, face="down")
            return tile
        # the double of the end it closes (name_tiles' rule, the reader's joins or none)
        on = touching(obs, i, names, lambda n: n in committed, join_factor)
        v = None if on is None else value_towards(obs.tiles[on], tile.centre)
        return tile if not v else replace(tile, values=(v, v), face="down")

    tiles = tuple(back(i, tile) for i, tile in enumerate(obs.tiles))
    return obs if tiles == obs.tiles else replace(obs, tiles=tiles)


def _alone_in_middle(obs: Observation, i: int, zeros_beside: bool = False) -> bool:
    """Tile `i` lies near the frame's middle with no other tile within ALONE tile lengths (no
    hand's row, no heap): where a deal's first tile lies. With `zeros_beside`, face-up layout
    tiles that may show a 0 (read with one, or unread) may lie by it: tiles laid on a 0-0."""
    tile = obs.tiles[i]
    length = 2 * max(tile.half_span, 1.0)
    w, h = obs.size  # type: ignore[misc]
    middle = max(abs(tile.centre[0] / w - 0.5), abs(tile.centre[1] / h - 0.5)) < OPENER_MIDDLE
    near = [o for k, o in enumerate(obs.tiles) if k != i and dist(tile.centre, o.centre) <= ALONE * length]
    if not zeros_beside or not near or tile.owner != LAYOUT:
        return middle and not near
    return middle and all(o.owner == LAYOUT and o.face == "up" and (o.values is None or 0 in o.values)
                          for o in near)


def middle_opener(obs: Observation, committed: dict[str, Committed]) -> Observation:
    """With no move yet, a face-up tile read alone near the middle of the table is the layout's,
    whatever hand the reader gave it: the hands lie by the table's edges (fresh live deal h62:
    the boneyard's heap of white backs, read as faces, was the reader's layout, and the 1-1 opener
    in the middle went to a hand, so the deal never opened)."""
    if committed or obs.size is None:
        return obs
    for i, tile in enumerate(obs.tiles):
        if (tile.owner not in (LAYOUT, BONEYARD) and tile.face == "up" and tile.values is not None
                and _alone_in_middle(obs, i)):
            tiles = list(obs.tiles)
            tiles[i] = replace(tile, owner=LAYOUT)
            return replace(obs, tiles=tuple(tiles))
    return obs


def name_tiles(obs: Observation, committed: dict[str, Committed], *, face_down: bool,
               join_factor: float, open_ends: Callable[[], list[tuple[str, int]]] | None = None) -> Names:
    """Engine names of the layout tiles; a face-down tile is the double of the end it closes
    (where the variant lets a double lie face down). `open_ends`: gives the layout's (tile,
    value) ends still open, where a face-down tile joined to a tile whose double lies elsewhere
    may close one instead (asked only then; none given: it is not named)."""
    names: Names = [t.name if t.owner == LAYOUT or t.face == "up" else None for t in obs.tiles]
    for i, tile in enumerate(obs.tiles):
        # Only a tile the reader joined to the layout: a face-down boneyard tile lying near
        # the chain is not a closed double.
        if (names[i] is None and tile.owner == LAYOUT and tile.face == "down"
                and face_down and obs.neighbours(i)):
            parent = touching(obs, i, names, lambda n: n is not None, join_factor)
            if parent is not None and obs.tiles[parent].values is not None:
                v = value_towards(obs.tiles[parent], tile.centre)
                if _played_elsewhere(f"{v}-{v}", tile, committed):
                    # Each tile is laid once: the reader joined it to a tile whose double lies
                    # elsewhere, so it closes the nearest open end (fresh31 h699, spider: Boris's
                    # closed 5-5 at the 1-5's end joined to the 2-2 beside it, named 2-2, dropped as
                    # a second 2-2; his play was lost and Anna's three draws after it were his). Only
                    # an open end: a back boxed in a gap of the chain closes nothing (fresh26 h576).
                    parent = _nearest_open(obs, i, names, parent, open_ends() if open_ends else [], join_factor)
                    v = None if parent is None else value_towards(obs.tiles[parent], tile.centre)
                if v is not None:
                    names[i] = f"{v}-{v}"
    # Two tiles read as the same: keep the one where that move lies, else the more confident.
    seen: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        if n is not None and obs.tiles[i].owner == LAYOUT:
            seen.setdefault(n, []).append(i)
    for n, idx in seen.items():
        if len(idx) < 2:
            continue
        placed = committed.get(n)
        if placed is not None and placed.obs is not None:
            keep = min(idx, key=lambda i, p=placed.obs: dist(obs.tiles[i].centre, p.centre))
        else:
            keep = max(idx, key=lambda i: obs.tiles[i].confidence)
        for i in idx:
            if i != keep:
                names[i] = None
    return names


def _played_elsewhere(name: str, tile: TileObs, committed: dict[str, Committed]) -> bool:
    """Whether move `name` lies somewhere else than `tile` (last seen farther than a half span)."""
    placed = committed.get(name)
    return (placed is not None and placed.obs is not None
            and math.dist(placed.obs.centre, tile.centre) > max(tile.half_span, 1.0))


def _nearest_open(obs: Observation, i: int, names: Names, parent: int, open_ends: list[tuple[str, int]],
                  join_factor: float) -> int | None:
    """The read layout tile nearest face-down tile `i`, within `join_factor` half spans, other
    than `parent`, whose end towards it is one of `open_ends`."""
    return _nearest_end(obs, i, join_factor,
                        lambda j, v: j != parent and names[j] is not None and (names[j], v) in open_ends)


def closed_by(obs: Observation, i: int, names: Names, accept: Callable[[str | None], bool],
              join_factor: float, open_ends: Collection[tuple[str, int]] | None = None) -> int | None:
    """The tile face-down double `i` (named v-v) was laid against: of those whose name passes
    `accept`, the nearest within `join_factor` half spans whose end towards it shows v; of
    those, one whose end is still open (`open_ends`: (tile, value), when known) first: a
    double closes an open end (fresh37 h846, Baltic: Gleb's closed 0-0 at the end of 0-3 lay
    corner to corner with 0-6, whose 0 was joined to 0-2 long before, and was held as laid
    against it, a misfit, until Anna's 4-5, laid after it, was written first)."""
    if names[i] is None:
        return None
    double = int(names[i].split("-")[0])

    def shows(j: int, v: int) -> bool:
        return v == double and accept(names[j])

    if open_ends is not None:
        found = _nearest_end(obs, i, join_factor, lambda j, v: shows(j, v) and (names[j], v) in open_ends)
        if found is not None:
            return found
    return _nearest_end(obs, i, join_factor, shows)


def _nearest_end(obs: Observation, i: int, join_factor: float, keep: Callable[[int, int], bool]) -> int | None:
    """The read layout tile nearest tile `i` (by its nearest halves), within `join_factor` half
    spans, for which `keep(j, value of its end towards i)` holds."""
    tile = obs.tiles[i]
    best, best_d = None, math.inf
    for j, o in enumerate(obs.tiles):
        if j == i or o.owner != LAYOUT or o.values is None or not keep(j, value_towards(o, tile.centre)):
            continue
        d = joint_distance(tile, o)
        if d < best_d and d <= join_factor * max(tile.half_span, o.half_span, 1.0):
            best, best_d = j, d
    return best


def value_towards(tile: TileObs, point) -> int:
    assert tile.values is not None
    d0, d1 = (dist(h, point) for h in tile.halves)
    return tile.values[0] if d0 <= d1 else tile.values[1]


def touching(obs: Observation, i: int, names: Names, accept: Callable[[str | None], bool],
             join_factor: float) -> int | None:
    """The tile `i` attaches to among those whose name passes `accept`: the reader's joins, else
    the nearest half within `join_factor` half spans."""
    tile = obs.tiles[i]
    joined = [j for j in obs.neighbours(i) if obs.tiles[j].owner == LAYOUT]
    linked = [j for j in joined if accept(names[j])]
    if len(linked) == 1:
        return linked[0]
    if joined and not linked:
        return None  # the reader joined it, to tiles not wanted here: no guessing
    pool = linked or [
        j for j, o in enumerate(obs.tiles)
        if j != i and o.owner == LAYOUT and accept(names[j])
    ]
    best, best_d = None, math.inf
    for j in pool:
        d = joint_distance(tile, obs.tiles[j])
        if d < best_d:
            best, best_d = j, d
    if best is None:
        return None
    if not linked:
        reach = join_factor * max(tile.half_span, obs.tiles[best].half_span, 1.0)
        if best_d > reach:
            return None
    return best


def beside(obs: Observation, i: int, names: Names, accept: Callable[[str | None], bool]) -> list[int]:
    """Every read layout tile whose name passes `accept` that read tile `i` touches as a joint
    (`joined`): the tiles it could have been laid against, whichever the reader joined it to."""
    tile = obs.tiles[i]
    if tile.values is None:
        return []
    return [j for j, o in enumerate(obs.tiles)
            if j != i and o.owner == LAYOUT and o.values is not None and accept(names[j]) and joined(tile, o)]


def joint_distance(a: TileObs, b: TileObs) -> float:
    """Closest pair of halves, preferring halves that show the same value."""
    best = math.inf
    for ka, ha in enumerate(a.halves):
        for kb, hb in enumerate(b.halves):
            d = dist(ha, hb)
            same = a.values is None or b.values is None or a.values[ka] == b.values[kb]
            best = min(best, d if same else d * 1.5)
    return best


def hops(obs: Observation, names: Names, committed: dict[str, Committed]) -> dict[int, int]:
    """Joins from each tile of the frame to the nearest move already made (BFS on edges)."""
    far = {i: 0 for i, n in enumerate(names) if n in committed and not committed[n].missing}
    frontier = list(far)
    while frontier:
        nxt = []
        for i in frontier:
            for k in obs.neighbours(i):
                if k not in far:
                    far[k] = far[i] + 1
                    nxt.append(k)
        frontier = nxt
    return far


def alias(tile: TileObs, absent: list[Committed]) -> Committed | None:
    """The move, missing where it was, that lies where `tile` lies (a misread of it)."""
    for c in absent:
        if dist(c.obs.centre, tile.centre) < 0.5 * max(c.obs.half_span, 1.0):
            return c
    return None
