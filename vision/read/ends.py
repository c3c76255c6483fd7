"""Closed doubles at the chain's ends: a double laid face down across an open end closes it (SPI-4,
BAL-12), and the network scores such a back low (dark on a dark board, no pips to see): held-out
render s21_000043 has two 140 px ones at 0.10 and 0.11. The detector keeps its doubtful boxes
aside (`DetectorSettings.doubtful_conf`); here a face-down one lying by an open end is taken when
it passes the physical checks and the layout, rebuilt with it, joins it at that end as a closed
double without losing a tile. Face-up doubtful boxes are not taken: on the held-out renders they
broke as many chains as they mended.
"""

from __future__ import annotations

import numpy as np

from vision.read.box import box_from_corners
from vision.read.layout import FrameLayout, build_layout
from vision.read.tile import TileRead, read_tiles
from vision.read.verify import physical_tiles

DOWN = 1  # detector class id of a face-down tile
REACH = 1.5  # of the end tile's length: how far from its centre a closing double's centre may lie
MAX_TRIES = 8  # doubtful boxes looked at per frame, the surest first


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
    for k in down[np.argsort(-np.asarray(doubtful.confidence)[down])][:MAX_TRIES]:
        box = box_from_corners(doubtful.corners[k])
        (read,) = read_tiles(frame, [(box, "down", float(doubtful.confidence[k]))])
        if read.face != "down":
            continue
        trial = [*tiles, read]
        if len(physical_tiles(frame, trial)) < len(trial):
            continue  # overlaps a tile or is no tile
        lay = build_layout(layout_tiles(trial), size)
        new = len(trial) - 1
        if new in lay.inferred and set(layout.tiles) | {new} == set(lay.tiles):
            tiles, layout = trial, lay
    return tiles, layout

