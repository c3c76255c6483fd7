"""A tile the detector missed in a straight run of the chain, found by the two tiles either side.

Tiles laid end to end in a line touch: where two face-up tiles lie on one axis with exactly one
tile's length of gap between their facing ends, and that gap shows a tile's body (not the table),
a tile lies there that the detector did not box (fresh live deal h199: a groove set under a camera
turned 20 degrees, its 1-6 between 0-1 and 6-3 unboxed on every frame, so five moves were lost).
The gap is boxed and read; the box is kept only where it is read surely on both halves and each
half shows the value of the tile it touches (BYK-1.6: a joint shows one value on both sides), so
no box is made up where the table shows between two tiles that are not one chain.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.box import Box, box_from_corners, warp
from vision.read.pips import body_colour, colour_distance
from vision.read.tile import MIN_HALF_CONFIDENCE, TileRead, read_tiles
from vision.read.verify import tile_length

MIN_BOXES = 3  # boxes a frame needs for its median to be its tiles' size
IN_LINE = 0.97  # |cos| of the angle between the two tiles' axes
OFF_AXIS = 0.25  # of the tiles' width: how far the other tile's centre may lie off the first's axis
GAP = (0.85, 1.15)  # of the tiles' length: the gap between the facing ends that holds one tile
BODY_LAB = 18.0  # a pixel this near the neighbours' body colour (Lab) is body
BODY_SHARE = 0.6  # of the gap's pixels (pips and divider take the rest): it shows a tile's body
DETECTED = 0.25  # the detection confidence given to a tile so found (under the detector's sure boxes)


def _facing_value(t: TileRead, towards: np.ndarray) -> int | None:
    """The value of the half of `t` nearer the point `towards`."""
    d = [float(np.hypot(*(h - towards))) for h in t.halves]
    return t.half_values[int(np.argmin(d))]


def _overlaps(box: Box, tiles: list[TileRead]) -> bool:
    """Whether the proposed box covers the centre of a box already there (tiles never overlap)."""
    for t in tiles:
        c = t.quad.mean(axis=0) - box.centre
        if abs(float(c @ box.u)) < 0.5 * box.length and abs(float(c @ box.v)) < 0.5 * box.width:
            return True
        if cv2.pointPolygonTest(t.quad.astype(np.float32).reshape(-1, 1, 2), (box.cx, box.cy), False) >= 0:
            return True
    return False


def _shows_body(frame: np.ndarray, box: Box, a: TileRead, b: TileRead) -> bool:
    """Whether the gap's pixels are mostly the neighbours' body colour (a tile lies there)."""
    scale = 48.0 / max(box.width, 1.0)
    size = (int(round(box.length * scale)), 48)

    def lab(bx: Box) -> np.ndarray:
        return cv2.cvtColor(warp(frame, bx, scale, size), cv2.COLOR_BGR2LAB).astype(np.float32)

    body = body_colour(np.concatenate([lab(box_from_corners(a.quad)), lab(box_from_corners(b.quad))], axis=1))
    inner = Box(box.cx, box.cy, box.ux, box.uy, box.length * 0.9, box.width * 0.8)
    return float((colour_distance(lab(inner), body) < BODY_LAB).mean()) >= BODY_SHARE


def fill_chain_gaps(frame: np.ndarray, tiles: list[TileRead], prepare=None) -> list[TileRead]:
    """`tiles` and a tile read in each one-tile gap of a straight run of the chain."""
    if len(tiles) < MIN_BOXES:
        return tiles
    length = float(np.median([tile_length(t.quad) for t in tiles]))
    width = float(np.median([t.width for t in tiles]))
    # each read face-up tile (not a double) with its centre, axis and length, worked out once
    up = [(t, t.quad.mean(axis=0), t.u, tile_length(t.quad)) for t in tiles
          if t.face == "up" and t.values is not None
          and min(t.half_confidence) >= MIN_HALF_CONFIDENCE and t.values[0] != t.values[1]]
    found: list[TileRead] = []
    for i, (a, ca, ua, la) in enumerate(up):
        for b, cb, ub, lb in up[i + 1:]:
            if abs(float(ua @ ub)) < IN_LINE:
                continue
            d = cb - ca
            along = float(d @ ua)
            if abs(float(d @ np.array([-ua[1], ua[0]]))) > OFF_AXIS * width:
                continue
            gap = abs(along) - 0.5 * (la + lb)
            if not GAP[0] * length <= gap <= GAP[1] * length:
                continue
            u = ua if along > 0 else -ua
            mid = ca + u * (0.5 * la + 0.5 * gap)
            box = Box(float(mid[0]), float(mid[1]), float(u[0]), float(u[1]), gap, width)
            if _overlaps(box, tiles + found) or not _shows_body(frame, box, a, b):
                continue
            read = read_tiles(frame, [(box, "up", DETECTED)], prepare)[0]
            if read.values is None or min(read.half_confidence) < MIN_HALF_CONFIDENCE:
                continue
            if (_facing_value(read, ca), _facing_value(read, cb)) != (_facing_value(a, mid), _facing_value(b, mid)):
                continue
            found.append(read)
    return tiles + found
