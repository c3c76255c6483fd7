"""Which of the reader's tiles are the boneyard: the face-down heap of undealt tiles.

The reader gives every tile outside the layout to the seat of the nearest table edge; in play
the boneyard lies among them. `find_pile` names the tiles of its heap on one frame (the geometry,
rows against a heap, is vision/read/heap.py's, which the recount shares); `PileMemory` remembers
where the heap was, so its last tiles, too few to make a heap, stay boneyard tiles until they are
drawn. Only for variants with a boneyard (the tracker's
`boneyard_size`): without one, a player's untidy hand must not become a heap.
"""

from __future__ import annotations

import math
from dataclasses import replace

from vision.live.observation import BONEYARD, LAYOUT, Observation
from vision.read import heap

PLACE_REACH = 0.5  # a remembered place holds a tile centred within this many tile lengths
# The detector may box a tile of the heap twice: a heap of 15 boxes for the 14 undealt tiles was
# no boneyard until the first draw left 14 (fresh deal h184: that draw, unseen, shifted all 39
# moves). A few boxes more still tell the boneyard from the shuffle's 28.
EXTRA_BOXES = 2


def _loose(obs: Observation) -> list[int]:
    """Face-down tiles the reader left out of the layout (given to seats)."""
    return [i for i, t in enumerate(obs.tiles) if t.face == "down" and t.owner not in (LAYOUT, BONEYARD)]


def tile_length(obs: Observation, indices: list[int]) -> float:
    return heap.tile_length([t.halves for t in obs.tiles], indices)


def find_pile(obs: Observation, most: int | None = None, rows: list[heap.Halves] | None = None,
              gather: bool = False) -> list[int]:
    """Indices of the tiles of the boneyard heap on this frame ([] when there is none); see
    `vision.read.heap.find_heap` (`most`: the tiles a deal leaves undealt; `rows`: tiles seen in
    hands' rows before; `gather`: a scattered heap's clusters near it too)."""
    return heap.find_heap([t.halves for t in obs.tiles], _loose(obs), most, EXTRA_BOXES, rows or (), gather)


class PileMemory:
    """Where the boneyard heap was seen this deal; `mark(obs)` gives its tiles to the boneyard."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A new deal: the heap is found again."""
        self.places: list[heap.Halves] = []  # a tile of the heap as it lay when its place was learnt
        self.tile_len = 0.0
        self.rows: list[heap.Halves] = []  # the tiles seen in hands' rows this deal, where they lay

    def mark(self, obs: Observation, most: int | None = None) -> Observation:
        """`obs` with the boneyard's tiles owned by the boneyard. A reader that already names the
        boneyard (the renderer's truth) is left alone.

        A hand's row keeps its line all deal: a tile in the line of a row seen before is the
        hand's, not the heap's, however few tiles the row holds now and however near the heap it
        lies, and its place is not remembered as the pile's (fresh16 h339: Boris's row, down to
        scattered tiles by the pile, was taken into the heap and its places remembered, so his
        row no longer showed that he laid a tile drawn unseen). A tile at a place of the pile
        remembered before stays the pile's (fresh16 h344: a drawn tile put at the end of a row
        half over a pile tile, whose part in view was boxed squared to the row)."""
        if any(t.owner == BONEYARD for t in obs.tiles):
            return obs
        halves = [t.halves for t in obs.tiles]
        for i in heap.hand_rows_seen(halves, _loose(obs)):
            self._remember_row(halves[i])
            self._forget_row_tile(halves[i])
        # The pile's clusters are gathered only where it is first seen, before any tile is laid:
        # later a tile laid near it, a blank read as a back, would join it (fresh28 h632, no
        # divider: the opening 0-0, and Anna's arm laying it taken for a draw).
        found = set(find_pile(obs, most, self.rows, gather=not self.places))
        if found:
            self.tile_len = max(self.tile_len, tile_length(obs, sorted(found)))
            for i in found:
                self._remember(halves[i])
        reach = PLACE_REACH * self.tile_len
        bones = [i for i in _loose(obs) if i in found or any(
            math.dist(obs.tiles[i].centre, heap.centre(p)) <= reach for p in self.places)]
        if not bones:
            return obs
        tiles = list(obs.tiles)
        for i in bones:
            tiles[i] = replace(tiles[i], owner=BONEYARD)
        return replace(obs, tiles=tuple(tiles))

    def _remember(self, h: heap.Halves) -> None:
        c = heap.centre(h)
        if all(math.dist(c, heap.centre(q)) > PLACE_REACH * self.tile_len for q in self.places):
            self.places.append(h)

    def _forget_row_tile(self, h: heap.Halves) -> None:
        """A place learnt from a tile that lay as a hand's row tile now lies there, squared to it,
        was that row's tile all along: its row, cut by tiles the detector missed, looked like
        scattered tiles by the heap (fresh36 h836, black tiles: on the first frame two of Anna's
        backs beside the pile, two of her row unboxed, were learnt as the pile's, and her tiles
        there went on as the heap's, their places drawn when she played them). A pile tile put
        in a row's line later lay at its own angle when learnt, and stays the pile's."""
        c = heap.centre(h)
        near = 0.25 * heap.tile_length([h], [0])
        self.places = [p for p in self.places if math.dist(heap.centre(p), c) > near or not heap.squared(p, h)]

    def _remember_row(self, h: heap.Halves) -> None:
        """A tile of a hand's row where it lies now (its place's last tile, one per place)."""
        c = heap.centre(h)
        near = 0.25 * heap.tile_length([h], [0])
        self.rows = [r for r in self.rows if math.dist(heap.centre(r), c) > near] + [h]
