"""Face-up tiles the network scored low: the opener alone on the table, a tile by an open end.

Tiles in a chain give the detector context; the first tile of a deal lies alone in the middle of
the table and is sometimes scored far below the working threshold (held-out live deal h18, a set
with a faint divider on a purple cloth: a clear 1-1 at 0.07-0.22 on the frames before the second
tile came, 0.90 once it lay beside it, so the deal's opener was never seen and nothing of the
deal was written). A doubtful face-up box is taken when it reads surely on both halves, is one
whole tile body that overlaps none, and the layout rebuilt with it is that tile alone (the table
had no layout: the opener in the middle), or is the old layout and it, joined at an open end whose
value it shows (no mismatch). Doubtful boxes taken without those checks broke as many chains as
they mended (`vision.read.ends`).
"""

from __future__ import annotations

import numpy as np

from vision.read.ends import near_open_ends, take_doubtful
from vision.read.layout import FrameLayout
from vision.read.tile import SURE_FACE, TileRead

UP = 0  # detector class id of a face-up tile
MIDDLE = 0.3  # the opener's centre lies within this share of the frame from its middle (each way)
MAX_TRIES = 4  # doubtful boxes looked at, the surest first


def _joined_at_end(lay: FrameLayout, layout: FrameLayout, new: int) -> bool:
    """The rebuilt layout is the old one and `new`, joined at an end with no mismatch."""
    if set(lay.tiles) != set(layout.tiles) | {new}:
        return False
    at = [j for j in lay.joins if new in (j.a, j.b)]
    ends = {i for i, _ in layout.ends}
    return bool(at) and all(not j.mismatch and j.joint is not None and ({j.a, j.b} - {new}) <= ends for j in at)


def take_doubtful_faces(frame: np.ndarray, tiles: list[TileRead], layout: FrameLayout, doubtful,
                        layout_tiles, size: tuple[int, int]) -> tuple[list[TileRead], FrameLayout]:
    """`tiles` and `layout` with the doubtful face-up boxes taken that are the lone opener of an
    empty layout or join an open end. `layout_tiles` turns TileReads into the layout's tiles."""
    if doubtful is None or not len(doubtful):
        return tiles, layout
    up = np.flatnonzero(np.asarray(doubtful.class_id) == UP)
    if not len(up):
        return tiles, layout
    centres = np.asarray(doubtful.corners, float)[up].mean(axis=1)
    if layout.tiles:
        up = up[near_open_ends(tiles, layout, centres)]
    else:
        w, h = size
        up = up[(np.abs(centres[:, 0] / w - 0.5) < MIDDLE) & (np.abs(centres[:, 1] / h - 0.5) < MIDDLE)]
    return take_doubtful(
        frame, tiles, layout, doubtful, up, "up", layout_tiles, size, MAX_TRIES,
        read_ok=lambda read: read.values is not None and min(read.half_confidence) >= SURE_FACE,
        layout_ok=lambda lay, old, new: lay.tiles == [new] if not old.tiles else _joined_at_end(lay, old, new),
    )
