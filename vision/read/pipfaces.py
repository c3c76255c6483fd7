"""A face boxed as a back because it has no divider and a blank half: told by its pips.

A tile of a set with no divider line and a blank half (0-1, 0-2, ...) is mostly plain body, and the
detector boxes it as a face-down tile now and then (robustness matrix, no-divider look: 0-1, 2-0
and 0-0 read face down). Where backs and faces differ in colour `vision.read.blanks` tells them
apart; where they share it (a third of the sets the renderer draws, most bone-white sets) only
the pips can: a back shows none (its pattern, a ring, a line, a border, is read as no tile face by
the half classifiers, which were trained on backs), a face shows them. So a "face-down" box one of
whose halves reads surely as pips, the other half surely too or plain body of the same colour
beside it (a blank), is a face.
"""

from __future__ import annotations

from vision.read.box import box_from_corners
from vision.read.tile import SURE_FACE, TileRead, read_tiles

# the blank half of such a tile is read by `tile._blank_beside` at its BLANK_CONFIDENCE (0.7)
BLANK_HALF_AT_LEAST = 0.7


def faces_boxed_down(frame, tiles: list[TileRead], prepare=None) -> list[TileRead]:
    """`tiles` with face-down boxes that show pips read face up (see the module's docstring).
    `prepare`: as `read_tiles` takes it (worker processes)."""
    down = [i for i, t in enumerate(tiles) if t.face == "down"]
    if not down:
        return tiles
    again = read_tiles(frame, [(box_from_corners(tiles[i].quad), "up", tiles[i].detection_confidence)
                               for i in down], prepare=prepare)
    out = list(tiles)
    for i, t in zip(down, again, strict=True):
        if shows_pips(t):
            out[i] = t
    return out


def shows_pips(t: TileRead) -> bool:
    """Both halves read, not both blank: a half with pips surely, the other surely too or, blank,
    at least as sure as a blank beside a sure half is read."""
    if t.values is None or t.values == (0, 0):
        return False
    need = [SURE_FACE if v else BLANK_HALF_AT_LEAST for v in t.half_values]
    return all(c >= n for c, n in zip(t.half_confidence, need, strict=True))
