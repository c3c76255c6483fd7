"""Closed doubles at the chain's ends: a double laid face down across an open end closes it (SPI-4,
BAL-12), and the network scores such a back low (dark on a dark board, no pips to see): held-out
render s21_000043 has two 140 px ones at 0.10 and 0.11. The detector keeps its doubtful boxes
aside (`DetectorSettings.doubtful_conf`); here a face-down one lying by an open end is taken when
it passes the physical checks and the layout, rebuilt with it, joins it at that end as a closed
double without losing a tile. Face-up doubtful boxes are not taken: on the held-out renders they
broke as many chains as they mended.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.read.box import box_from_corners
from vision.read.layout import FrameLayout, build_layout
from vision.read.tile import TileRead, face_down, no_face_confidence, read_tiles
from vision.read.verify import END_RUNS_ON, NO_FACE_SURE, body, canonical, physical_tiles

DOWN = 1  # detector class id of a face-down tile
REACH = 1.5  # of the end tile's length: how far from its centre a closing double's centre may lie
MAX_TRIES = 8  # doubtful boxes looked at per frame, the surest first
SURELY_NO_FACE = 0.95  # the classifier's "no tile face" on both halves this surely: it shows none


def near_open_ends(tiles: list[TileRead], layout: FrameLayout, centres: np.ndarray) -> np.ndarray:
    """Whether each centre lies within REACH tile lengths of a tile with an open end."""
    near = np.zeros(len(centres), bool)
    for i, _ in layout.ends:
        t = tiles[i]
        length = 2 * t.width
        near |= np.hypot(*(centres - t.quad.mean(axis=0)).T) < REACH * length
    return near


def close_ends(frame: np.ndarray, tiles: list[TileRead], layout: FrameLayout, doubtful,
               layout_tiles, size: tuple[int, int]) -> tuple[list[TileRead], FrameLayout]:
    """`tiles` and `layout` with the face-down doubtful boxes that close an open end taken in.
    `layout_tiles` turns TileReads into the layout's tiles (reader.layout_tiles)."""
    if doubtful is None or not len(doubtful) or not layout.ends:
        return tiles, layout
    down = np.flatnonzero(np.asarray(doubtful.class_id) == DOWN)
    if not len(down):
        return tiles, layout
    centres = np.asarray(doubtful.corners, float)[down].mean(axis=1)
    down = down[near_open_ends(tiles, layout, centres)]
    return take_doubtful(
        frame, tiles, layout, doubtful, down, "down", layout_tiles, size, MAX_TRIES,
        read_ok=lambda read: read.face == "down",
        layout_ok=lambda lay, old, new: new in lay.inferred and set(old.tiles) | {new} == set(lay.tiles),
    )


def take_doubtful(frame: np.ndarray, tiles: list[TileRead], layout: FrameLayout, doubtful,
                  boxes: np.ndarray, face: str, layout_tiles, size: tuple[int, int], max_tries: int, *,
                  read_ok: Callable[[TileRead], bool],
                  layout_ok: Callable[[FrameLayout, FrameLayout, int], bool]) -> tuple[list[TileRead], FrameLayout]:
    """Try the doubtful boxes `boxes` (indices into `doubtful`), the surest `max_tries` first, each
    read as `face`: one is taken where `read_ok(read)`, it is one whole tile body overlapping none,
    and `layout_ok(new layout, layout before it, its index)`."""
    for k in boxes[np.argsort(-np.asarray(doubtful.confidence)[boxes])][:max_tries]:
        (read,) = read_tiles(frame, [(box_from_corners(doubtful.corners[k]), face, float(doubtful.confidence[k]))])
        if not read_ok(read):
            continue
        trial = [*tiles, read]
        if len(physical_tiles(frame, trial)) < len(trial):
            continue  # overlaps a tile or is no tile
        lay = build_layout(layout_tiles(trial), size)
        if layout_ok(lay, layout, len(trial) - 1):
            tiles, layout = trial, lay
    return tiles, layout


def _plain_body(frame: np.ndarray, t: TileRead) -> bool:
    """A face-up box the detector is sure of (as sure as `verify` needs of a box showing no face),
    both halves surely showing no tile face, whose body ends at both ends of the box (not part of
    something larger)."""
    return (t.face == "up" and t.detection_confidence >= NO_FACE_SURE
            and min(no_face_confidence(t, 0), no_face_confidence(t, 1)) >= SURELY_NO_FACE
            and max(body(canonical(frame, t.quad)).ends) < END_RUNS_ON)


def close_plain_ends(frame: np.ndarray, tiles: list[TileRead], layout: FrameLayout,
                     layout_tiles, size: tuple[int, int]) -> tuple[list[TileRead], FrameLayout]:
    """`tiles` and `layout` with each face-up box showing no face that closes an open end read
    face down: a whole tile body showing nothing, taken by the layout as a closed double with no
    tile lost, is one laid face down (fresh42 h963, faint divider, Baltic: Gleb's closed 6-6, a
    white back with a green groove, boxed face up at 0.77 on every reading, both halves no face at
    1.00, in a set whose backs are the faces' colour: an unread face that joined nothing, never a
    move). On the robustness matrix such boxes elsewhere lay 6-26 px off a face-up tile, their body
    running on past an end, and a blank double with no divider shows nothing either: one the chain
    goes on past from both sides is read face up again (`vision.read.between`)."""
    for i in [i for i, t in enumerate(tiles) if _plain_body(frame, t)]:
        trial = list(tiles)
        trial[i] = face_down(tiles[i].quad, tiles[i].halves, tiles[i].detection_confidence)
        lay = build_layout(layout_tiles(trial), size)
        if i in lay.inferred and set(layout.tiles) | {i} <= set(lay.tiles):
            tiles, layout = trial, lay
    return tiles, layout
