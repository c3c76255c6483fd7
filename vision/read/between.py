"""The blank double between two blanks: a "closed" double the chain goes on past is the 0-0 face up.

A double laid face down closes its leg: nothing attaches to it (SPI-4, BAL-12). So where a box
the reader takes for a back lies across the chain with a tile's blank end against each of its
long sides, in line, the chain goes on through it, and the only double that shows nothing is the
0-0 (robustness matrix, no-divider look, s9300_000008: a 0-0 between a 6-0 and a 0-3 boxed as a
back, so the layout joined it once, as a closed double, and left the 12 tiles beyond it apart).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.read.layout import FrameLayout, build_layout, candidate_joins
from vision.read.tile import TileRead

BLANK = 0
CONFIDENCE = 0.9  # read from the chain, not from pips: under the reader's sure 0.95


def _other_side(tile: TileRead, centres: np.ndarray) -> bool:
    """Whether the neighbours' centres lie on both sides of the tile's long axis."""
    normal = np.array([-tile.u[1], tile.u[0]])
    sides = np.sign((centres - tile.quad.mean(axis=0)) @ normal)
    return bool((sides > 0).any() and (sides < 0).any())


def blank_between(tiles: list[TileRead], layout: FrameLayout, layout_tiles,
                  size: tuple[int, int]) -> tuple[list[TileRead], FrameLayout]:
    """`tiles` and `layout` with each face-down "closed 0-0" that two blank ends meet from both
    its long sides read face up as the 0-0. `layout_tiles` as in `vision.read.ends.close_ends`."""
    closed = [i for i, v in layout.inferred.items() if v == (BLANK, BLANK) and tiles[i].face == "down"]
    if not closed:
        return tiles, layout
    joins = candidate_joins(layout_tiles(tiles))
    out, turned = list(tiles), False
    for i in closed:
        partners = sorted({j.b if j.a == i else j.a for j in joins
                           if i in (j.a, j.b) and j.joint == BLANK and not j.mismatch})
        if len(partners) < 2:
            continue
        centres = np.array([tiles[k].quad.mean(axis=0) for k in partners])
        if _other_side(tiles[i], centres):
            why = "the 0-0: the chain goes on past it from blank ends on both sides (a closed double takes none)"
            out[i] = replace(tiles[i], face="up", half_values=(BLANK, BLANK),
                             half_confidence=(CONFIDENCE, CONFIDENCE), reasons=(why, why))
            turned = True
    if not turned:
        return tiles, layout
    return out, build_layout(layout_tiles(out), size)
