"""The layout as a tree: every placed tile names the tile it attaches to.

Open ends follow from the tree and the arm policy: two arms (BYK-1.6), four arms from the opening
double (SEV-1, SPI-2), a cross at the first closed double (BAL-9); a face-down double is closed for
good (SPI-4, BAL-12). A `Layout` is immutable: `add` returns a new one.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.tiles import TILES_WITH, Tile

UP, DOWN = "up", "down"


class PlacedTile(NamedTuple):
    """A tile on the table. `parent`/`joint` are None for the opening tile; `outward` is the value
    the tile offers to the next one (None for the opening tile, which offers both halves)."""

    tile: Tile
    parent: Tile | None
    joint: int | None
    outward: int | None
    face: str
    seat: str
    move: int

    def to_dict(self) -> dict:
        return {
            "tile": str(self.tile),
            "parent": None if self.parent is None else str(self.parent),
            "joint": self.joint,
            "outward": self.outward,
            "face": self.face,
            "seat": self.seat,
            "move": self.move,
        }


class Layout:
    """Placed tiles plus what is needed to list the open ends quickly."""

    __slots__ = ("placed", "arms", "cross", "_kids", "_at", "_count", "_ends")

    def __init__(self, arms: str = "line"):
        self.placed: tuple[PlacedTile, ...] = ()
        self.arms = arms  # "line" | "cross_opening" | "cross_first_closed"
        self.cross: Tile | None = None  # the double that takes four sides
        self._kids: dict[Tile, tuple[int, ...]] = {}  # joint values of each tile's children
        self._at: dict[Tile, PlacedTile] = {}
        self._count: tuple[int, ...] = (0,) * 7  # tiles on the table showing each value
        self._ends: tuple[tuple[Tile, int], ...] | None = None

    def __contains__(self, tile: Tile) -> bool:
        return tile in self._kids

    def __len__(self) -> int:
        return len(self.placed)

    def __repr__(self) -> str:
        return f"<Layout {' '.join(str(p.tile) for p in self.placed)} ends={self.open_ends()}>"

    @property
    def tiles(self):
        return self._kids.keys()

    def get(self, tile: Tile) -> PlacedTile | None:
        return self._at.get(tile)

    def capacity(self, p: PlacedTile) -> int:
        """How many tiles may touch `p` (its parent included)."""
        if p.face == DOWN:
            return 1
        if not p.tile.is_double:
            return 2
        return 4 if p.tile == self.cross else 2

    def sides(self, p: PlacedTile) -> list[int]:
        """The values `p` still offers (a double's free sides repeat its value)."""
        if p.face == DOWN:
            return []
        kids = self._kids[p.tile]
        t = p.tile
        if p.parent is None and p.tile != self.placed[0].tile:
            return []  # a loose tile kept by camera mode offers nothing
        if p.parent is None and not t.is_double:
            free = [t.a, t.b]
            for j in kids:
                if j in free:
                    free.remove(j)
            return free
        free = self.capacity(p) - len(kids) - (0 if p.parent is None else 1)
        if free <= 0:
            return []
        return [t.a if t.is_double else p.outward] * free

    def open_ends(self) -> list[tuple[Tile, int]]:
        """Every free side as (tile, value); a double with two free sides appears twice."""
        ends = self._ends
        if ends is None:
            ends = tuple((p.tile, v) for p in self.placed for v in self.sides(p))
            self._ends = ends
        return list(ends)

    def end_values(self) -> set[int]:
        if self._ends is None:
            self.open_ends()
        return {v for _, v in self._ends}

    def exhausted(self, value: int) -> bool:
        """All 7 tiles showing `value` are on the table."""
        return self._count[value] == 7

    def is_fished(self) -> bool:
        """Fish from the table alone: no open end, or every open end shows an exhausted value."""
        if self._ends is None:
            self.open_ends()
        return all(self._count[v] == 7 for _, v in self._ends)

    def add(self, placed: PlacedTile) -> Layout:
        """A new layout with `placed` attached (no legality check: see engine.game)."""
        new = Layout.__new__(Layout)
        new.placed = self.placed + (placed,)
        new.arms = self.arms
        new.cross = self.cross
        kids = dict(self._kids)
        kids[placed.tile] = ()
        new._at = dict(self._at)
        new._at[placed.tile] = placed
        count = list(self._count)
        t = placed.tile
        count[t.a] += 1
        if t.b != t.a:
            count[t.b] += 1
        new._count = tuple(count)
        if placed.parent is None:
            if self.arms == "cross_opening" and t.is_double and not self.placed:
                new.cross = t
        elif placed.parent in kids:
            kids[placed.parent] = kids[placed.parent] + (placed.joint,)
            parent = self._at[placed.parent]
            # BAL-9: the first double touched on both long-axis sides becomes the cross.
            if (
                self.arms == "cross_first_closed"
                and new.cross is None
                and parent.tile.is_double
                and parent.face == UP
                and len(kids[parent.tile]) + (0 if parent.parent is None else 1) == 2
            ):
                new.cross = parent.tile
        new._kids = kids
        # Only the parent's and the new tile's sides change (and the parent may become the cross).
        if self._ends is not None and placed.parent is not None and placed.parent in self._at:
            parent = self._at[placed.parent]
            ends = [e for e in self._ends if e[0] != parent.tile]
            ends.extend((parent.tile, v) for v in new.sides(parent))
            ends.extend((t, v) for v in new.sides(placed))
            new._ends = tuple(ends)
        else:
            new._ends = None
        return new


def tiles_left_with(layout: Layout, value: int) -> frozenset[Tile]:
    """Tiles showing `value` that are not on the table."""
    return frozenset(t for t in TILES_WITH[value] if t not in layout)
