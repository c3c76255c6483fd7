"""A nearly square face-up box the reader cannot read at all, turned about its centre and read again.

A small tile is boxed nearly square (a 20 px tile as 19x14), so the detector's angle is the least
sure thing about its box: held-out renders, session 15, 5 of 5757 matched boxes lay 29-37 degrees
off their tile, and all 5 were read as no tile face on either half (a 1080p chain lost its joint to
one). A turn of the box whose two halves both read surely stands in for it; the verifier then
judges the turned box like any other.

Only boxes the detector is sure of and that are nearly square are turned: of the 352 face-up boxes
read on neither half on the held-out renders (detector's boxes), about 316 lay on no tile, and
turning every one gave six sure readings: four of tiles that are not there (boxes scored 0.30-0.48),
a 6-6 boxed half as wide as long (scored 0.49; lost again with the bounds: 640 recall 96.47 ->
96.44 %) and the 1080p tile above (scored 0.64, 0.72 as wide as long). Each box turned costs seven
more reads: a 1080p frame with eight such boxes read in 145 ms instead of 51 without the bounds, 80
with them; 40 of the 352 boxes pass them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.read.box import Box
from vision.read.tile import TileRead, read_tiles
from vision.read.verify import NO_FACE_SURE

TURNS_DEG = (-45.0, -30.0, -15.0, 15.0, 30.0, 45.0, 90.0)
SURE = 0.95  # both halves of the turned box read at least this surely
MIN_SCORE = NO_FACE_SURE  # the detector's score of a box worth turning: one it is sure is a tile
MIN_SQUARE = 0.6  # its width over its length


def turned(box: Box, degrees: float) -> Box:
    a = np.radians(degrees)
    c, s = float(np.cos(a)), float(np.sin(a))
    return Box(box.cx, box.cy, box.ux * c - box.uy * s, box.ux * s + box.uy * c, box.length, box.width)


def unread(t: TileRead) -> bool:
    return t.face == "up" and t.half_values == (None, None)


def worth_turning(t: TileRead, box: Box) -> bool:
    return unread(t) and t.detection_confidence >= MIN_SCORE and box.width >= MIN_SQUARE * box.length


def turn_unread(frame: np.ndarray, tiles: list[TileRead], jobs: list[tuple[Box, str, float]],
                prepare: Callable | None = None) -> list[TileRead]:
    """`tiles` (read from `jobs`, in order) with each face-up tile read on neither half, scored
    `MIN_SCORE` or more and nearly square, replaced by its box's surest turn (`TURNS_DEG`) where both
    halves of that read at `SURE` or more."""
    todo = [i for i, t in enumerate(tiles) if worth_turning(t, jobs[i][0])]
    if not todo:
        return tiles
    tries = [(turned(jobs[i][0], d), "up", jobs[i][2]) for i in todo for d in TURNS_DEG]
    reads = read_tiles(frame, tries, prepare=prepare)
    out = list(tiles)
    for n, i in enumerate(todo):
        sure = [r for r in reads[n * len(TURNS_DEG) : (n + 1) * len(TURNS_DEG)]
                if r.face == "up" and r.values is not None and min(r.half_confidence) >= SURE]
        if sure:
            out[i] = max(sure, key=lambda r: min(r.half_confidence))
    return out
