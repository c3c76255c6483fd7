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

