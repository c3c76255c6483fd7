"""A back boxed as a face: told by the classifier and the backs' colour.

The detector now and then calls a face-down tile face up (fresh live deal h555, the renderer's own
set: Vera's closed 6-6 (SPI-4), a pink back at the chain's end, boxed face up at 0.81-0.83 on every
reading; both halves read as no tile face, so it stayed an unread face that joined nothing, and
every move after it was written one seat late). Where the frame's backs agree on a colour whose
tint the faces' body does not share, a "face-up" box whose halves the classifier takes for no tile
face or a blank (the back of h555 read 0 on one half or both at 0.52-0.57 on a third of the
readings) and whose body has the backs' colour is a back: a blank face has the faces' colour.
"""

from __future__ import annotations

import numpy as np

from vision.read.blanks import BACK_SPREAD, CHROMA_APART, MIN_BACKS, agreed, inner_colour
from vision.read.tile import SURE_FACE, TileRead, face_down, shows_no_face

MIN_FACES = 2  # face-up tiles read needed to know the faces' colour (an opener and one more)


def backs_boxed_up(frame: np.ndarray, tiles: list[TileRead], backs=None) -> list[TileRead]:
    """`tiles` with face-up boxes showing no pips (no tile face or unsure blank halves), of the backs'
    colour (within BACK_SPREAD of the colour the frame's face-down boxes agree on, else of
    `backs`, a Lab colour remembered from earlier frames) and tint where the faces' tint differs
    from it (CHROMA_APART), read face down. Before the body checks: a back boxed face up and
    unsure, one half no face, is else dropped as no tile (h555: at 0.39-0.49 on a fifth of the
    readings, each a take-back flag)."""
    # (a half read 0 surely is a blank face's: a 0-0 lies on many tables, and this runs on every frame)
    blank = [i for i, t in enumerate(tiles) if t.face == "up" and all(
        shows_no_face(t, k) or (t.half_values[k] == 0 and t.half_confidence[k] < SURE_FACE) for k in (0, 1))]
    if not blank:
        return tiles
    down = [t for t in tiles if t.face == "down"]
    own = agreed([inner_colour(frame, t.quad) for t in down]) if len(down) > MIN_BACKS else None
    backs = own if own is not None else (None if backs is None else np.asarray(backs, np.float32))
    if backs is None:
        return tiles
    # Of the backs' colour first: most such boxes are not (a blank face, a thing on the table), and
    # the faces' colour below costs a sample of every face read (8 ms a frame in fresh25 h560).
    near = {}
    for i in blank:
        colour = inner_colour(frame, tiles[i].quad)
        if np.linalg.norm(colour - backs) < BACK_SPREAD:
            near[i] = colour
    if not near:
        return tiles
    read = [t for t in tiles if t.face == "up" and t.values is not None and t.values != (0, 0)]
    if len(read) < MIN_FACES:
        return tiles
    body = np.median(np.stack([inner_colour(frame, t.quad) for t in read]), axis=0)
    if np.linalg.norm(body[1:] - backs[1:]) < CHROMA_APART:
        return tiles  # backs of the faces' tint: a plain face cannot be told from a back
    out = list(tiles)
    for i, colour in near.items():
        if np.linalg.norm(colour[1:] - backs[1:]) < np.linalg.norm(colour[1:] - body[1:]):
            t = tiles[i]
            out[i] = face_down(t.quad, t.halves, t.detection_confidence)
    return out
