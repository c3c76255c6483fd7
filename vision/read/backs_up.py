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

import re

import numpy as np

from vision.read.blanks import BACK_SPREAD, CHROMA_APART, MIN_BACKS, agreed, inner_colour
from vision.read.tile import SURE_FACE, TileRead, face_down, shows_no_face
from vision.read.verify import END_RUNS_ON, body, canonical

MIN_FACES = 2  # face-up tiles read needed to know the faces' colour (an opener and one more)
SURE_BOX = 0.5  # a face-up box scored this much is a tile body (verify's NO_FACE_SURE)
NO_FACE_SURE = 0.95  # the classifier's "no tile face" on both halves this surely: a back


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
        return plain_backs(frame, tiles)
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
        return plain_backs(frame, tiles)
    body = np.median(np.stack([inner_colour(frame, t.quad) for t in read]), axis=0)
    if np.linalg.norm(body[1:] - backs[1:]) < CHROMA_APART:
        # Backs of the faces' tint: a plain face cannot be told from a back by colour; a box the
        # detector is sure of, whose halves the classifier surely takes for no tile face, shows no
        # face (a blank face reads 0, not "no face").
        return plain_backs(frame, tiles)
    out = list(tiles)
    for i, colour in near.items():
        if np.linalg.norm(colour[1:] - backs[1:]) < np.linalg.norm(colour[1:] - body[1:]):
            t = tiles[i]
            out[i] = face_down(t.quad, t.halves, t.detection_confidence)
    return out


def _no_face(t: TileRead, k: int) -> float:
    """How sure the classifier is that half k shows no tile face (0 where it read a face)."""
    if not shows_no_face(t, k):
        return 0.0
    m = re.search(r"\(([0-9.]+)\)$", t.reasons[k])
    return float(m.group(1)) if m else 0.0


def plain_backs(frame: np.ndarray, tiles: list[TileRead]) -> list[TileRead]:
    """`tiles` with the face-up boxes the detector is sure of (SURE_BOX) whose halves both show
    surely no tile face (NO_FACE_SURE) and whose body ends at both ends of the box read face down:
    a whole tile body showing no face is a back (fresh42 h963, faint divider, Baltic: Gleb's
    closed 6-6, white backs with a green groove along them, boxed face up at 0.77 on every
    reading, both halves no face at 1.00, brighter than the backs of the rows in the shade: an
    unread face that joined nothing, never a move). A box whose body runs on past an end is part
    of something larger: on the robustness matrix every such box but the closed doubles lay 6-26 px
    off a face-up tile, its body running on past an end (0.44-1.0 of the band beyond it; the
    closed doubles' 0.0), and one on no tile at all."""
    out = list(tiles)
    for i, t in enumerate(tiles):
        if (t.face == "up" and t.detection_confidence >= SURE_BOX
                and min(_no_face(t, 0), _no_face(t, 1)) >= NO_FACE_SURE
                and max(body(canonical(frame, t.quad)).ends) < END_RUNS_ON):
            out[i] = face_down(t.quad, t.halves, t.detection_confidence)
    return out
