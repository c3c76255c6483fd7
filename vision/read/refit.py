"""A face-up box of another length than the frame's tiles, moved onto its tile's body.

All tiles of a set are one size, so a box much longer or shorter than the frame's others does not
lie on its tile, and read as drawn a half of it takes in what lies between the tile's halves: a
brass pin at the centre is then a pip (fresh live deal h155: a pinned set under a camera turned 20
degrees; the opener 0-1 boxed 60 x 15 px where the frame's boxes measure 46 x 23, running a quarter
tile past its end onto the wood, read 1-1 on every other frame and written so). The box is moved
along its axis onto its tile and read again: an end of the tile is where its body's colour stops
and the table's goes on to the box's end, or where the box of a tile touching it end to end
begins (tiles never overlap); the other end is the box's own where it is too long, the tiles'
length away where too short. A box with no such end, one that would not be a tile's length, and
one by the frame's edge (of a tile the edge cuts) stay as they were.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.read.box import Box, at_frame_edge, warp
from vision.read.pips import body_colour, colour_distance
from vision.read.tile import TileRead, read_tiles

OFF_LENGTH = 0.2  # a box this share longer or shorter than the frame's median box is refitted
MIN_BOXES = 6  # boxes a frame needs for its median to be its tiles' size
SURE_BOX = 0.5  # of the detector's score: the boxes that measure the tiles' size
MOST_OFF = (0.6, 1.6)  # a box shorter or longer than this share of the usual is left as it is
OFF_ASPECT = 0.3  # and its length over its width this share off theirs (a tile's box keeps its shape)
CANVAS_PX = 120  # canvas pixels along the strip (the box and a fifth of it beyond each end)
BEYOND = 0.2  # of the box's length: how far past each end the strip reaches
ACROSS = 0.7  # of the box's width: the strip's width (pips take a column's middle, not all of it)
BODY_LAB = 18.0  # a pixel this near the body's colour (Lab) is body
OFF_BODY = 0.35  # a stretch whose columns hold less body than this on average is off the tile
EDGE_PX = 2  # a box this near the frame's edge may be of a tile cut by it: left as it is
SURE_ENOUGH = 0.5  # the refitted box's reading replaces the box's where its less sure half is this sure


def _profile(frame: np.ndarray, box: Box) -> tuple[np.ndarray, float, float]:
    """Per column of a strip along `box` (its length and BEYOND past each end), the share of
    body-coloured pixels; and the canvas pixels per frame pixel and the columns beyond each end."""
    full = box.length * (1 + 2 * BEYOND)
    scale = CANVAS_PX / full
    height = max(int(round(box.width * ACROSS * scale)), 4)
    strip = warp(frame, Box(box.cx, box.cy, box.ux, box.uy, full, box.width * ACROSS), scale, (CANVAS_PX, height))
    lab = cv2.cvtColor(strip, cv2.COLOR_BGR2LAB).astype(np.float32)
    beyond = BEYOND * box.length * scale
    mid = CANVAS_PX / 2
    quarter = box.length * scale / 4
    body = body_colour(lab[:, int(mid - quarter):int(mid + quarter)])
    return (colour_distance(lab, body) < BODY_LAB).mean(axis=0), scale, beyond


def _free_end(share: np.ndarray, start: int, step: int, run: int) -> int | None:
    """From column `start` outwards (`step` +1 or -1): the first column past which the next
    `run` columns hold less body than OFF_BODY on average (the tile's end), or None."""
    x = start
    while 0 <= x + step * run < len(share) and 0 <= x < len(share):
        lo, hi = sorted((x, x + step * run))
        if share[lo:hi + 1].mean() < OFF_BODY:
            return x
        x += step
    return None


def _touching(box: Box, others: list[Box]) -> tuple[float | None, float | None]:
    """Where the boxes of the tiles touching `box` end to end begin, along its axis from its
    centre (frame pixels; None where none): the tile ends there (tiles never overlap)."""
    lo, hi = None, None
    for o in others:
        d = o.centre - box.centre
        along, across = float(d @ box.u), float(d @ box.v)
        if abs(float(o.u @ box.u)) < 0.9 or abs(across) > box.width / 2 or abs(along) < box.length / 4:
            continue
        if along > 0 and along - o.length / 2 < box.length / 2:
            hi = min(hi, along - o.length / 2) if hi is not None else along - o.length / 2
        elif along < 0 and along + o.length / 2 > -box.length / 2:
            lo = max(lo, along + o.length / 2) if lo is not None else along + o.length / 2
    return lo, hi


def refitted(frame: np.ndarray, box: Box, length: float, others: list[Box] = ()) -> Box | None:
    """`box` moved along its axis onto its tile: from a free end of the tile (where its body
    ends) or the start of a tile touching it (`others`, boxes of the frame's tile size) to the
    other, or its own end where it is too long and `length` away where too short; None where
    neither end is found."""
    share, scale, beyond = _profile(frame, box)
    n = len(share)
    lo_end, hi_end = beyond, n - beyond  # the box's ends on the strip
    run = max(int(round(0.15 * length * scale)), 2)
    mid = n // 2
    hi = _free_end(share, mid, +1, run)
    lo = _free_end(share, mid, -1, run)
    span = length * scale
    hi = hi if hi is not None and abs(hi - hi_end) <= 0.5 * span else None
    lo = lo if lo is not None and abs(lo - lo_end) <= 0.5 * span else None
    lo_box, hi_box = _touching(box, list(others))
    if hi is None and hi_box is not None:
        hi = n / 2 + hi_box * scale
    if lo is None and lo_box is not None:
        lo = n / 2 + lo_box * scale
    if lo is not None and hi is not None:
        a, b = lo, hi  # both ends free: the tile lies alone between them
    elif hi is not None:
        # one end free: the other is the box's own where the box is too long (it runs on over the
        # tile it touches), the tile's length away where too short
        a, b = (lo_end if hi_end - lo_end > span else hi - span), hi
    elif lo is not None:
        a, b = lo, (hi_end if hi_end - lo_end > span else lo + span)
    else:
        return None
    if abs((b - a) / span - 1.0) > OFF_LENGTH:
        return None  # not a tile's length either: the body's colour runs on (a cloth, a neighbour)
    shift = ((a + b) / 2 - n / 2) / scale
    return Box(box.cx + shift * box.ux, box.cy + shift * box.uy, box.ux, box.uy, (b - a) / scale, box.width)


def _sureness(t: TileRead) -> float:
    if t.face != "up" or t.values is None:
        return 0.0
    return float(min(t.half_confidence))


def refit_off_length(frame: np.ndarray, tiles: list[TileRead], jobs: list[tuple[Box, str, float]],
                     prepare: Callable | None = None) -> list[TileRead]:
    """`tiles` (read from `jobs`, in order) with each face-up tile whose box's length is off the
    frame's median by more than OFF_LENGTH, and its shape by more than OFF_ASPECT, read again on
    its `refitted` box, where that reads both halves at SURE_ENOUGH or more."""
    sure = [box for box, _, score in jobs if score >= SURE_BOX]  # false boxes are small, weak ones
    if len(sure) < MIN_BOXES:
        return tiles
    length = float(np.median([box.length for box in sure]))
    aspect = float(np.median([box.length / max(box.width, 1e-9) for box in sure]))
    typical = [box for box, _, _ in jobs if abs(box.length / length - 1.0) <= OFF_LENGTH]
    todo, tries = [], []
    for i, t in enumerate(tiles):
        box = jobs[i][0]
        if t.face != "up" or t.half_values == (None, None) or abs(box.length / length - 1.0) <= OFF_LENGTH:
            continue  # (a box read on neither half may be no tile at all: not made one)
        if not MOST_OFF[0] <= box.length / length <= MOST_OFF[1]:
            continue  # a piece of something, or two tiles
        if abs(box.length / max(box.width, 1e-9) / aspect - 1.0) <= OFF_ASPECT:
            continue  # a tile's shape: a tile of another size (a second set, nearer the camera)
        alt = refitted(frame, box, length, typical)
        size = (frame.shape[1], frame.shape[0])
        if alt is not None and not any(at_frame_edge(b.corners(), size, EDGE_PX) for b in (box, alt)):
            todo.append(i)
            tries.append((alt, "up", jobs[i][2]))
    if not todo:
        return tiles
    reads = read_tiles(frame, tries, prepare=prepare)
    out = list(tiles)
    for i, r in zip(todo, reads, strict=True):
        # Read on its tile's body, both halves: the geometry decides, not how sure each reading
        # is (a pin taken for a pip reads as surely as a pip).
        if r.values is not None and _sureness(r) >= SURE_ENOUGH:
            out[i] = r
    return out
