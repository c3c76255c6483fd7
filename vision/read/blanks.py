"""The blank double of a set with no divider, told from the backs by its colour.

A 0-0 with no divider line is a plain body, and the detector boxes it as a face-down tile (held-out
live deal h02, no-divider set, blue backs: the opener 0-0 read face down on every frame, so no
move of the deal was written). A back and a face differ in colour in most sets: where the frame
shows several face-down tiles of one colour and a "face-down" box clearly of another (the faces'
body colour where face-up tiles show it), that box is a face, and a face with nothing on it is the
blank double. Where backs and faces share a colour, nothing changes: the two cannot be told apart
from one frame.

Measured on the held-out live deals (docs/lab-notes/2026-12-02-live-blank-opener.md).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.read.box import box_from_corners
from vision.read.tile import SURE_FACE, TileRead, read_tiles

MIN_BACKS = 3  # face-down tiles of one colour needed to know the backs' colour
BACK_SPREAD = 12.0  # Lab distance within which those backs agree (their median distance)
APART = 30.0  # a box this far (Lab) from the backs' median colour is no back
BLANK_CONFIDENCE = 0.9  # a half of such a box: sure it is blank, less sure than a read pip count
SHRINK = 0.6  # the share of the box's inside sampled (clear of its edges and shadow)
MARK = 35.0  # a pixel this far (Lab) from the body's colour is a mark on it (a pip)
PLAIN_SHARE = 0.02  # a body with fewer marked pixels than this shows nothing


def _inner_lab(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The Lab pixels of the middle of a box, (N, 3)."""
    q = np.asarray(quad, np.float32)
    c = q.mean(axis=0)
    inner = (c + SHRINK * (q - c)).round().astype(np.int32)
    x0, y0 = np.maximum(inner.min(axis=0), 0)
    x1, y1 = inner.max(axis=0) + 1
    roi = frame[y0:y1, x0:x1]
    if roi.size == 0:
        return np.zeros((0, 3), np.float32)
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, inner - [x0, y0], 1)
    return cv2.cvtColor(roi, cv2.COLOR_BGR2LAB).reshape(-1, 3)[mask.reshape(-1) > 0].astype(np.float32)


def _colour(lab: np.ndarray) -> np.ndarray:
    """The median of Lab pixels (a box's body: pips are few of its pixels)."""
    return np.median(lab, axis=0) if len(lab) else np.full(3, np.nan, np.float32)


def inner_colour(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The median Lab colour of the middle of a box."""
    return _colour(_inner_lab(frame, quad))


def _plain(lab: np.ndarray) -> bool:
    """Nothing on these pixels but the body: no pip."""
    if not len(lab):
        return False
    return float((np.linalg.norm(lab - np.median(lab, axis=0), axis=1) > MARK).mean()) < PLAIN_SHARE


def blank_doubles(frame: np.ndarray, tiles: list[TileRead]) -> list[TileRead]:
    """Face-down boxes of another colour than the backs' (and nearer the faces', where faces show)
    are faces: read again face up, kept where both halves read surely; of those with nothing on
    them, one is the blank double (a set has one 0-0: several plain ones are something else,
    backs in a shadow)."""
    down = [i for i, t in enumerate(tiles) if t.face == "down"]
    if len(down) < MIN_BACKS + 1:
        return tiles
    labs = [_inner_lab(frame, tiles[i].quad) for i in down]
    colours = np.stack([_colour(lab) for lab in labs])
    backs = np.median(colours, axis=0)
    far = np.linalg.norm(colours - backs, axis=1)
    near = far[far <= APART]
    if len(near) < MIN_BACKS or float(np.median(near)) > BACK_SPREAD:
        return tiles  # no clear colour of the backs
    odd = np.flatnonzero(far > APART)
    if not len(odd):
        return tiles
    faces = [inner_colour(frame, t.quad) for t in tiles if t.face == "up" and t.values is not None]
    if faces:  # nearer the backs than the faces: some other thing
        body = np.median(np.stack(faces), axis=0)
        odd = [k for k in odd if np.linalg.norm(colours[k] - body) < far[k]]
    # one reading of them all: one classifier run, not one per box (a shadow over backs makes many)
    agains = read_tiles(frame, [(box_from_corners(tiles[down[k]].quad), "up", tiles[down[k]].detection_confidence)
                                for k in odd]) if len(odd) else []
    out, plain = list(tiles), []
    for k, again in zip(odd, agains, strict=True):
        if again.values not in (None, (0, 0)) and min(again.half_confidence) >= SURE_FACE:
            out[down[k]] = again
        elif _plain(labs[k]):
            plain.append(down[k])
    if len(plain) == 1:
        t = tiles[plain[0]]
        why = "blank: a face's colour, not the backs'"
        out[plain[0]] = replace(t, face="up", half_values=(0, 0),
                                half_confidence=(BLANK_CONFIDENCE, BLANK_CONFIDENCE), reasons=(why, why))
    return out
