"""The blank double of a set with no divider, told from the backs by its colour.

A 0-0 with no divider line is a plain body, and the detector boxes it as a face-down tile (held-out
live deal h02, no-divider set, blue backs: the opener 0-0 read face down on every frame, so no
move of the deal was written). A back and a face differ in colour in most sets: where the frame
shows several face-down tiles of one colour and a "face-down" box clearly of another (the faces'
body colour where face-up tiles show it), that box is a face, and a face with nothing on it is the
blank double. Where backs and faces share a colour, nothing changes: the two cannot be told apart
from one frame. A camera's reader remembers the backs' colour from the frames that showed it
(`backs`): at the recount the hands lie face up, and a lone blank double boxed as a back has no
backs beside it to be told from (held-out live deal h05: a pinned 0-0 of a black-backed set).

Measured on the held-out live deals (docs/lab-notes/2026-12-02-live-blank-opener.md).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.read.box import box_from_corners
from vision.read.tile import SURE_FACE, TileRead, read_tiles

MIN_BACKS = 3  # face-down tiles of one colour needed to know the backs' colour
MIN_FACES = 3  # face-up tiles read needed to know the faces' colour without the backs'
BACK_SPREAD = 12.0  # Lab distance within which those backs agree (their median distance)
APART = 30.0  # a box this far (Lab) from the backs' median colour is no back
# A box that far from the frame's own backs, left face down, and boxed under this confidence is no
# tile: on the robustness matrix (25 looks) and the held-out 1280 renders, of the face-down boxes
# in frames whose backs agree, 21 false boxes and no true tile (true backs that far, lit or in a
# shadow, were boxed at 0.75 or more).
UNSURE_BACK = 0.6
# ... and a box this far from them is no back at any confidence: true backs lay at most 68 away
# (lit, in a shadow); a black phone among light backs, boxed at 0.3-0.8, 177-225.
NO_BACK = 100.0
# ... and one this near (Lab) the table's colour, its tint nearer the table's than the backs', is the
# table at any confidence: a gap in a hand's row where a tile was taken out, boxed as a back at
# 0.8-0.9 on frames at JPEG quality 40 (fresh live deal h449: Anna's row one tile more after each
# play, the play written as a draw and laid), 11 from the table's colour and 61 from the backs'.
TABLE_NEAR = 15.0
BLANK_CONFIDENCE = 0.9  # a half of such a box: sure it is blank, less sure than a read pip count
SHRINK = 0.6  # the share of the box's inside sampled (clear of its edges and shadow)
MARK = 35.0  # a pixel this far (Lab) from the body's colour is a mark on it (a pip)
PLAIN_SHARE = 0.02  # a body with fewer marked pixels than this shows nothing
# The middle of a tile, this share of its width round its centre, is left out of "nothing on it": a
# set's centre pin lies there, and no pip does (the nearest, a 1's, lies a width away).
PIN_CLEAR = 0.25
# Lab a, b: backs and faces whose tints lie this far apart are told apart by tint whatever the light
CHROMA_APART = 8.0
# Lab: where faces show, a box this near their colour only. Nearer the faces than the backs was
# not enough: on the robustness matrix (16 scenes a look, 25 looks) a black phone and a dark
# block boxed as backs became 29 phantom 0-0s (22-174 from the faces, 146 of them 56 or more);
# the one true blank lay 4 from them.
FACE_NEAR = 20.0
# Backs with a pattern (`_marks`, Lab): a back shows it at PATTERNED or more, a plain face under
# PLAIN_MARKS; at least MIN_PATTERNED backs and PATTERNED_SHARE of them must show it.
PATTERNED = 20.0
PLAIN_MARKS = 10.0
MIN_PATTERNED = 5
PATTERNED_SHARE = 0.9


def _inner_labs(frame: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Lab pixels of the middle of a box, (N, 3), and the same without its centre (PIN_CLEAR:
    where a pin lies), from one conversion."""
    q = np.asarray(quad, np.float32)
    c = q.mean(axis=0)
    inner = (c + SHRINK * (q - c)).round().astype(np.int32)
    x0, y0 = np.maximum(inner.min(axis=0), 0)
    x1, y1 = inner.max(axis=0) + 1
    roi = frame[y0:y1, x0:x1]
    if roi.size == 0:
        empty = np.zeros((0, 3), np.float32)
        return empty, empty
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, inner - [x0, y0], 1)
    lab = cv2.cvtColor(roi, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    whole = mask.reshape(-1) > 0
    width = min(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[2] - q[1])))
    cx, cy = (c - [x0, y0]).round().astype(int)
    cv2.circle(mask, (int(cx), int(cy)), max(1, int(round(PIN_CLEAR * width))), 0, -1)
    return lab[whole], lab[mask.reshape(-1) > 0]


def _colour(lab: np.ndarray) -> np.ndarray:
    """The median of Lab pixels (a box's body: pips are few of its pixels)."""
    return np.median(lab, axis=0) if len(lab) else np.full(3, np.nan, np.float32)


def inner_colour(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The median Lab colour of the middle of a box."""
    return _colour(_inner_labs(frame, quad)[0])


def _plain(lab: np.ndarray) -> bool:
    """Nothing on these pixels but the body: no pip."""
    if not len(lab):
        return False
    return float((np.linalg.norm(lab - np.median(lab, axis=0), axis=1) > MARK).mean()) < PLAIN_SHARE


def agreed(colours) -> np.ndarray | None:
    """The colour most of these boxes' colours (Lab) agree on, or None."""
    colours = np.asarray(colours, np.float32)
    backs = np.median(colours, axis=0)
    near = np.linalg.norm(colours - backs, axis=1)
    near = near[near <= APART]
    if len(near) < MIN_BACKS or float(np.median(near)) > BACK_SPREAD:
        return None
    return backs


def blank_doubles(frame: np.ndarray, tiles: list[TileRead],
                  backs=None) -> tuple[list[TileRead], np.ndarray | None]:
    """Face-down boxes of another colour than the backs' (and of the faces' own, where faces show)
    are faces: read again face up, kept where both halves read surely; of those with nothing on
    them, one is the blank double (a set has one 0-0: several plain ones are something else,
    backs in a shadow). The backs' colour is the frame's own; where the frame shows too few
    backs to agree on one, `backs` (a Lab colour remembered from earlier frames), if given: then only a box
    of the faces' own colour (within FACE_NEAR) is taken. Returns the tiles and the colour this
    frame's backs agree on (None if they do not)."""
    down = [i for i, t in enumerate(tiles) if t.face == "down"]
    if not down:
        return tiles, None
    samples = [_inner_labs(frame, tiles[i].quad) for i in down]
    colours = np.stack([_colour(whole) for whole, _ in samples])
    cleared = {i: c for i, (_, c) in zip(down, samples, strict=True)}  # without a pin: "nothing on it"
    own = agreed(colours) if len(down) >= MIN_BACKS + 1 else None
    backs = own if own is not None else (None if backs is None else np.asarray(backs, np.float32))
    if backs is None:  # no clear colour of the backs
        return _faces_among_few_backs(frame, tiles, down, colours, cleared), None
    far = np.linalg.norm(colours - backs, axis=1)
    odd = np.flatnonzero(far > APART)
    strange = list(odd) if own is not None else []
    if not len(odd):
        return (tiles if own is None else _plain_among_patterned(tiles, down, cleared)), own
    faces = [inner_colour(frame, t.quad) for t in tiles if t.face == "up" and t.values is not None]
    if faces:  # not the faces' colour: some other thing (a hand over a back, a phone, a pen)
        body = np.median(np.stack(faces), axis=0)
        odd = [k for k in odd if np.linalg.norm(colours[k] - body) < FACE_NEAR]
    elif own is None:
        return tiles, None  # remembered backs and no face to compare with: too little to go on
    # one reading of them all: one classifier run, not one per box (a shadow over backs makes many)
    agains = read_tiles(frame, [(box_from_corners(tiles[down[k]].quad), "up", tiles[down[k]].detection_confidence)
                                for k in odd]) if len(odd) else []
    out, plain = list(tiles), []
    for k, again in zip(odd, agains, strict=True):
        if again.values not in (None, (0, 0)) and min(again.half_confidence) >= SURE_FACE:
            out[down[k]] = again
        elif _plain(cleared[down[k]]):
            plain.append(down[k])
    if len(plain) == 1 and faces and _backs_tint(colours[down.index(plain[0])], body, backs):
        # a back in other light: neither the blank nor a strange thing among the backs to drop
        strange = [k for k in strange if down[k] != plain[0]]
    elif len(plain) == 1:
        t = tiles[plain[0]]
        why = "blank: a face's colour, not the backs'"
        out[plain[0]] = replace(t, face="up", half_values=(0, 0),
                                half_confidence=(BLANK_CONFIDENCE, BLANK_CONFIDENCE), reasons=(why, why))
    elif own is not None:  # a box of another colour than the backs' is none of the patterned backs
        others = {down[k] for k in strange}
        out = _plain_among_patterned(out, [i for i in down if out[i].face == "down" and i not in others], cleared)
    cloth = table_colour(frame) if strange else None
    table = [_is_table(colours[k], backs, cloth) for k in strange]
    # A back in brighter light keeps the backs' tint: an unsure box of it is still a back (fresh24
    # h546: a closed 5-5 of a dark red set in the lit middle of the table, 40 from the backs'
    # colour, boxed at 0.36-0.72, dropped on most readings: the deal's last play never written).
    # Not a darker one: dark things (a phone, a shadow's edge) are what the detector boxes unsure.
    tinted = [bool(faces) and colours[k][0] > backs[0] and _backs_tint(colours[k], body, backs) for k in strange]
    return _drop_strange(out, [down[k] for k in strange], far[strange] if strange else [], table, tinted), own


def _faces_among_few_backs(frame: np.ndarray, tiles: list[TileRead], down: list[int], colours: np.ndarray,
                           cleared: dict[int, np.ndarray]) -> list[TileRead]:
    """Too few backs to agree on their colour (hands laid face up at the recount): a "face-down"
    box of the faces' own colour that reads surely with pips is a face, and the one with nothing
    on it is the 0-0 where the frame's other backs are of another colour than the faces (robustness
    matrix, no-divider sets: a 0-0, 0-1, 0-2 boxed as backs in the hands; with a divider the reader
    takes such a box itself, `read_tiles`)."""
    read = [t for t in tiles if t.face == "up" and t.values is not None]
    if len(read) < MIN_FACES:
        return tiles
    faces = np.stack([inner_colour(frame, t.quad) for t in read])
    centres = np.array([t.quad.mean(axis=0) for t in read])
    # the faces' colour near each box: the light falls off across a table
    bodies = np.stack([np.median(faces[np.argsort(np.linalg.norm(centres - tiles[i].quad.mean(axis=0), axis=1))[:MIN_FACES]],
                                 axis=0) for i in down])
    apart = np.linalg.norm(colours - bodies, axis=1)
    near = apart < FACE_NEAR
    like = [k for k in range(len(down)) if near[k]]
    if not like:
        return tiles
    agains = read_tiles(frame, [(box_from_corners(tiles[down[k]].quad), "up", tiles[down[k]].detection_confidence)
                                for k in like])
    out, plain = list(tiles), []
    for k, again in zip(like, agains, strict=True):
        if again.values not in (None, (0, 0)) and min(again.half_confidence) >= SURE_FACE:
            out[down[k]] = again
        elif _plain(cleared[down[k]]):
            plain.append(down[k])
    others = [k for k in range(len(down)) if not near[k]]
    if len(plain) == 1 and others and all(apart[k] > APART for k in others) and not _backs_tint(
            colours[down.index(plain[0])], bodies[down.index(plain[0])], np.median(colours[others], axis=0)):
        why = "blank: a face's colour, where the backs are of another"
        out[plain[0]] = replace(tiles[plain[0]], face="up", half_values=(0, 0),
                                half_confidence=(BLANK_CONFIDENCE, BLANK_CONFIDENCE), reasons=(why, why))
    return out


def _backs_tint(colour: np.ndarray, body: np.ndarray, backs: np.ndarray) -> bool:
    """Whether a plain box has the backs' tint rather than the faces', where the two tints differ
    (CHROMA_APART): a back in brighter light than the others is no blank face (fresh live deal
    h423: tan backs, white faces, a closed 0-0 in the lit middle of the table as light as the faces
    and as tan as the backs in the shade of the hand rows, read as a face-up blank)."""
    tint, face, back = colour[1:], body[1:], np.asarray(backs, np.float32)[1:]
    return bool(np.linalg.norm(face - back) >= CHROMA_APART
                and np.linalg.norm(tint - back) < np.linalg.norm(tint - face))


def _drop_strange(tiles: list[TileRead], strange: list[int], far, table: list[bool],
                  tinted: list[bool]) -> list[TileRead]:
    """A "face-down" box of neither the backs' colour nor a face's, that the detector is unsure of
    (unless it has the backs' tint: `tinted`), that lies very far from the backs' colour (`far`,
    Lab) or that shows the table (`table`), is some other thing (the end of a pen, a phone, a patch
    of a box lid, the cloth between tiles)."""
    gone = {i for i, d, bare, tint in zip(strange, far, table, tinted, strict=True) if tiles[i].face == "down"
            and ((tiles[i].detection_confidence < UNSURE_BACK and not tint) or d > NO_BACK or bare)}
    return [t for i, t in enumerate(tiles) if i not in gone]


def table_colour(frame: np.ndarray) -> np.ndarray:
    """The frame's median Lab colour: the table's, which fills most of the picture."""
    sample = np.ascontiguousarray(frame[::8, ::8])
    return np.median(cv2.cvtColor(sample, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32), axis=0)


def _is_table(colour: np.ndarray, backs: np.ndarray, table: np.ndarray) -> bool:
    """Whether a box's middle shows the table: within TABLE_NEAR of its colour, and of a tint
    nearer the table's than the backs' (a back in a shadow darkens, it keeps its tint)."""
    backs = np.asarray(backs, np.float32)
    return bool(np.linalg.norm(colour - table) < TABLE_NEAR
                and np.linalg.norm(colour[1:] - table[1:]) < np.linalg.norm(colour[1:] - backs[1:]))


def _marks(lab: np.ndarray) -> float:
    """How strongly a box shows marks on its body (its Lab pixels, centre left out): the 98th
    percentile of their distance to their median."""
    if not len(lab):
        return float("inf")
    return float(np.percentile(np.linalg.norm(lab - np.median(lab, axis=0), axis=1), 98))


def _plain_among_patterned(tiles: list[TileRead], down: list[int], cleared: dict[int, np.ndarray]) -> list[TileRead]:
    """Backs of the faces' colour with a pattern on them (a groove, a ring): where nearly all the
    frame's backs show it and one box shows nothing at all, that one is the blank double (held-out
    live deal h17: backs with a groove along them, marks 27-65, the opener 0-0 4-5; plain backs,
    as most sets have, 2-17 and nothing changes)."""
    if len(down) < MIN_PATTERNED + 1:
        return tiles
    # This runs on every frame with backs; with plain backs (most sets) it stops after a few boxes.
    unpatterned_at_most = len(down) - max(MIN_PATTERNED, PATTERNED_SHARE * (len(down) - 1))
    plain, unpatterned = [], 0
    for i in down:
        marks = _marks(cleared[i])
        if marks < PATTERNED:
            unpatterned += 1
            if marks < PLAIN_MARKS:
                plain.append(i)
            if unpatterned > unpatterned_at_most or len(plain) > 1:
                return tiles
    if len(plain) != 1:
        return tiles
    why = "blank: nothing on it, where the backs show their pattern"
    out = list(tiles)
    out[plain[0]] = replace(tiles[plain[0]], face="up", half_values=(0, 0),
                            half_confidence=(BLANK_CONFIDENCE, BLANK_CONFIDENCE), reasons=(why, why))
    return out
