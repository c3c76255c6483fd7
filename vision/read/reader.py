"""One frame in, every tile with its values and the layout out."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from vision.read.backs_up import backs_boxed_up
from vision.read.between import blank_between
from vision.read.blanks import blank_doubles
from vision.read.box import Box, box_from_corners
from vision.read.ends import close_ends, close_plain_ends
from vision.read.gaps import fill_chain_gaps
from vision.read.layout import FrameLayout, LayoutTile, build_layout
from vision.read.opener import take_doubtful_faces
from vision.read.pipfaces import faces_boxed_down
from vision.read.refit import refit_off_length
from vision.read.tile import TileRead, read_tiles, shows_no_face
from vision.read.turn import turn_unread
from vision.read.verify import physical_tiles

SETTLED_CONFIDENCE = 0.9  # a half settled by a sure neighbour's joint


@dataclass
class FrameReading:
    size: tuple[int, int]  # (w, h)
    tiles: list[TileRead]
    layout: FrameLayout
    ms: float  # reading + layout time (detection not included)
    ms_layout: float = 0.0  # of which the layout
    backs: tuple[float, float, float] | None = None  # the Lab colour the frame's face-down tiles agree on, if they do


# The layout meets tiles at their ends, placed from the halves. Where the divider was found this
# far (a share of the tile's length) from the middle of the box, in small blurred tiles mostly a
# column of pips taken for it, the box's own halves place the ends better (held-out renders,
# 2026-12-01: layout exact from the detector's boxes 640 90.9 -> 93.5 %, 1280 and 1080p the
# same; from the renderer's boxes 92.2 -> 94.8 / 94.9 / 92.6 -> 96.3 %).
DIVIDER_OFF_CENTRE = 0.1


def _along(t: TileRead) -> tuple[np.ndarray, float, float]:
    """The box's centre and where its ends lie from it along the tile (half 0's end, half 1's)."""
    q = np.asarray(t.quad, float)
    c = q.mean(axis=0)
    proj = (q - c) @ t.u
    return c, float(proj.min()), float(proj.max())


def _layout_halves(t: TileRead) -> np.ndarray:
    c, lo, hi = _along(t)
    length = hi - lo
    if abs(float((t.halves.mean(axis=0) - c) @ t.u)) <= DIVIDER_OFF_CENTRE * length:
        return t.halves
    return np.stack([c - t.u * length / 4, c + t.u * length / 4])


def layout_tiles(tiles: list[TileRead]) -> list[LayoutTile]:
    out = []
    for t in tiles:
        vals = None if t.face == "down" else t.half_values
        no_face = (shows_no_face(t, 0), shows_no_face(t, 1)) if t.face == "up" else (False, False)
        out.append(LayoutTile(_layout_halves(t), t.u, t.width, vals, t.face, t.half_confidence, no_face,
                              t.detection_confidence))
    return out


# A tile running off the image is boxed on its part inside (the detector learnt clipped boxes), so
# the half at the frame's edge may have pips beyond it. Where a box ends at the edge and is short
# of the frame's typical tile, that half's reading is kept but made doubtful: held-out renders,
# session 14, detector's boxes: such halves read right 24, wrong 10, unread 14 times (halves of boxes
# of full length at the edge: 49 right, 8 wrong). Doubtful, a joint may settle it and `recount`
# names it to check; leaving it unread would have lost the 24.
EDGE_PX = 3.0  # a box's end this near the frame's border lies at the edge
EDGE_SHORT = 0.9  # of the frame's median tile length
EDGE_CONFIDENCE = 0.7  # 24 of the 34 read right


def doubt_cut_halves(tiles: list[TileRead], size: tuple[int, int]) -> list[TileRead]:
    """Halves at the frame's edge of boxes shorter than the frame's tiles: confidence capped."""
    if len(tiles) < 3:
        return tiles
    typical = float(np.median([2.0 * t.width for t in tiles]))
    w, h = size
    out = list(tiles)
    for i, t in enumerate(tiles):
        if t.face != "up":
            continue
        c, lo, hi = _along(t)
        if hi - lo >= EDGE_SHORT * typical:
            continue
        conf, why = list(t.half_confidence), list(t.reasons)
        for k, reach in ((0, lo), (1, hi)):
            x, y = c + t.u * reach
            if t.half_values[k] is not None and min(x, y, w - 1 - x, h - 1 - y) < EDGE_PX and conf[k] > EDGE_CONFIDENCE:
                conf[k], why[k] = EDGE_CONFIDENCE, "at the frame's edge: pips may lie beyond it"
        if why != list(t.reasons):
            out[i] = replace(t, half_confidence=(conf[0], conf[1]), reasons=(why[0], why[1]))
    return out


def settle(tiles: list[TileRead], layout: FrameLayout) -> list[TileRead]:
    """Apply the values the layout's joints settled (a doubtful half touching a sure one)."""
    if not layout.fixed:
        return tiles
    tiles = list(tiles)
    for (i, k), v in layout.fixed.items():
        t = tiles[i]
        vals, conf, why = list(t.half_values), list(t.half_confidence), list(t.reasons)
        vals[k], conf[k] = v, max(conf[k], SETTLED_CONFIDENCE)
        why[k] = f"settled by the joint: read {t.half_values[k] if t.half_values[k] is not None else 'nothing'}"
        tiles[i] = replace(t, half_values=(vals[0], vals[1]), half_confidence=(conf[0], conf[1]),
                           reasons=(why[0], why[1]))
    return tiles


def detection_jobs(detections) -> list[tuple[Box, str, float]]:
    """The reader's jobs (box, "up" / "down", detection confidence), one per detection."""
    return [(box_from_corners(c), "down" if int(k) == 1 else "up", float(p))
            for c, p, k in zip(detections.corners, detections.confidence, detections.class_id, strict=True)]


def read_frame(frame: np.ndarray, detections, pool=None, doubtful=None,
               profile=None, backs: tuple[float, float, float] | None = None) -> FrameReading:
    """Read every detected tile on the full-resolution `frame` (BGR) and build the layout.
    `detections` is a `vision.detect.Detections` in frame pixels (any object with `corners`
    (N, 4, 2), `confidence` (N,) and `class_id` (N,), class 1 = face down). With `pool` (a
    `vision.read.workers.ReadingPool`) the per-tile work runs in its worker processes; the result
    is the same. (Threads do not pay: the per-tile work is many small numpy steps under the GIL;
    on the 29-tile bench frames two threads took 121-160 ms against 101-113 ms for one.)
    `doubtful` (the detector's `last.doubtful`) offers boxes it scored low: a face-down one that
    closes an open end of the chain is taken (`vision.read.ends`), and face-up ones read surely
    that open an empty table or join an open end (`vision.read.opener`). `profile` (a `SetProfile` of
    `dominocam enrol`) re-decides halves before the layout (`vision.read.profile`). `backs`: the
    backs' colour remembered from earlier frames (a camera's `FrameReading.backs`), for a blank
    double boxed as a back on a frame with too few backs to tell it by (`vision.read.blanks`)."""
    t0 = time.perf_counter()
    jobs = detection_jobs(detections)

    if pool is not None:
        shared = pool.share(np.ascontiguousarray(frame, np.uint8))
        prepare = shared.prepare
        tiles = read_tiles(frame, jobs, prepare=prepare)
        tiles = turn_unread(frame, tiles, jobs, prepare=prepare)
        tiles = refit_off_length(frame, tiles, jobs, prepare=prepare)
        tiles = backs_boxed_up(frame, tiles, backs)
        tiles = physical_tiles(frame, tiles, shared.bodies)
        tiles = fill_chain_gaps(frame, tiles, prepare=prepare)
    else:
        prepare = None
        tiles = read_tiles(frame, jobs)
        tiles = turn_unread(frame, tiles, jobs)  # the detector's angle of a small tile may be off
        tiles = refit_off_length(frame, tiles, jobs)  # and its length
        tiles = backs_boxed_up(frame, tiles, backs)  # a back boxed as a face, showing none
        tiles = physical_tiles(frame, tiles)  # boxes that are no tile: across two tiles, doubles, parts
        tiles = fill_chain_gaps(frame, tiles)  # a tile unboxed between two of a straight run
    tiles, seen = blank_doubles(frame, tiles, backs)  # a 0-0 with no divider, boxed as a back
    # a 0-1 with no divider, boxed as a back: every back read again, so in the workers too (live
    # frames of 22-25 backs: 15-16 ms of a 34 ms reading in one process)
    tiles = faces_boxed_down(frame, tiles, prepare)
    size = (frame.shape[1], frame.shape[0])
    tiles = doubt_cut_halves(tiles, size)
    if profile is not None:
        from vision.read.profile import apply_profile

        tiles = apply_profile(frame, tiles, profile)
    t1 = time.perf_counter()
    layout = build_layout(layout_tiles(tiles), size)
    tiles, layout = take_doubtful_faces(frame, tiles, layout, doubtful, layout_tiles, size)
    tiles, layout = close_ends(frame, tiles, layout, doubtful, layout_tiles, size)
    tiles, layout = close_plain_ends(frame, tiles, layout, layout_tiles, size)  # a back boxed up
    tiles, layout = blank_between(tiles, layout, layout_tiles, size)
    tiles = settle(tiles, layout)
    t2 = time.perf_counter()
    return FrameReading(size, tiles, layout, (t2 - t0) * 1000, (t2 - t1) * 1000,
                        None if seen is None else (float(seen[0]), float(seen[1]), float(seen[2])))


def reading_to_json(reading: FrameReading, image: str, ms: float | None = None) -> dict:
    """The `dominocam read --json` object for one image (issue 4's contract)."""
    tiles = []
    for i, t in enumerate(reading.tiles):
        values = list(t.values) if t.values is not None else None
        if t.face == "down" and i in reading.layout.inferred:
            values = None  # a closed double's values are inferred, never read: see "inferred"
        entry = {
            "values": values,
            "halves": [[round(float(x), 1) for x in p] for p in t.halves],
            "corners": [[round(float(x), 1) for x in p] for p in t.quad],
            "face": t.face,
            "confidence": round(float(t.confidence), 3),
        }
        if t.face == "up" and t.values is None:
            entry["unread"] = {str(k): t.reasons[k] for k in (0, 1) if t.half_values[k] is None}
        settled = [k for k in (0, 1) if (i, k) in reading.layout.fixed]
        if settled:
            entry["settled"] = {str(k): t.reasons[k] for k in settled}
        if i in reading.layout.inferred:
            entry["inferred"] = list(reading.layout.inferred[i])
        tiles.append(entry)
    lay = reading.layout
    layout = {"edges": [[a, b] for a, b in lay.edges], "ends": [{"tile": t, "value": v} for t, v in lay.ends]}
    odd = [[min(j.a, j.b), max(j.a, j.b)] for j in lay.joins if j.mismatch]
    if odd:
        layout["mismatches"] = odd  # edges whose touching halves read differently: a misread or a foul
    if lay.pieces:
        layout["pieces"] = lay.pieces  # bits of the chain apart from the layout (cut off by an arm): no one's hand
    return {
        "image": image,
        "tiles": tiles,
        "layout": layout,
        "hands": {seat: list(ix) for seat, ix in lay.hands.items()},
        "ms": round(float(ms if ms is not None else reading.ms), 1),
    }
