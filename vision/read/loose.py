"""Tiles lying apart, found by their body colour: the enrolment's second look (`vision.read.enrol`).

In a photo of a set laid out (no two tiles touching) every tile is a blob of the set's body colour
of one size and a 2:1 shape. Where the detector boxed some tiles but not all (it scores blank and
undivided faces low), the boxed tiles give the body colour and the size, and the blobs of that
colour and size the detector missed are the others.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

from vision.read.box import box_from_corners, warp_quad
from vision.read.pips import channel_median, colour_distance

log = logging.getLogger(__name__)

MIN_KNOWN = 8  # boxed tiles needed to learn the body colour and the size
AREA = (0.7, 1.35)  # a blob's area, of the boxed tiles' median box area
RATIO = (1.6, 2.5)  # its rectangle's long side over the short one
FILL = 0.8  # its area over its rectangle's area
SPREAD = 3.0  # the body colour's reach: this many times the boxed bodies' median distance to it
MIN_REACH = 20.0  # Lab units, at least
L_WEIGHT = 0.5  # of the lightness in the colour distances here


def _lab(img: np.ndarray) -> np.ndarray:
    """Lab (float32) with the lightness weighed down by L_WEIGHT: the light falls unevenly on a
    table, one tile lit and the next in shade; its colour changes less."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[:, :, 0] *= L_WEIGHT
    return lab


def _middle(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The Lab pixels (n, 3) of a box's middle, clear of its edges: the tile's body and pips."""
    return _lab(warp_quad(frame, quad, 24, 0)[0])[4:-4, 4:-4].reshape(-1, 3)


def _body(frame: np.ndarray, quads: list[np.ndarray]) -> tuple[np.ndarray, float]:
    """The tiles' body colour (Lab) and how far from it a pixel may lie to be body: SPREAD times
    the median distance of the boxed bodies' pixels (pips are a small share of them), at most
    halfway to the table's colour (the photo's median pixel outside the boxes)."""
    inner = np.ascontiguousarray(np.concatenate([_middle(frame, q) for q in quads]).reshape(-1, 1, 3))
    body = channel_median(inner.reshape(-1, 3))
    spread = float(np.median(colour_distance(inner, body)))
    outside = np.ones(frame.shape[:2], np.uint8)
    for q in quads:
        cv2.fillPoly(outside, [np.round(q).astype(np.int32)], 0)
    table = channel_median(_lab(frame)[outside > 0][::7])
    return body, min(max(MIN_REACH, SPREAD * spread), 0.5 * float(np.linalg.norm(table - body)))


def off_colour(frame: np.ndarray, quads: list[np.ndarray], known: list[np.ndarray]) -> list[bool]:
    """Whether the middle of each box lies off the body colour of the `known` tiles' boxes (its
    median beyond their body's reach): the table, not a tile of the set. False for all where too
    few tiles are known."""
    if len(known) < MIN_KNOWN or not quads:
        return [False] * len(quads)
    body, reach = _body(frame, known)
    return [bool(np.linalg.norm(channel_median(_middle(frame, q)) - body) > reach) for q in quads]


def _bodies(frame: np.ndarray, quads: list[np.ndarray], skip: bool) -> tuple[np.ndarray, float, float]:
    """The body-coloured blobs of the photo, holes (pips, divider, pin) filled and thin bridges
    cut; with `skip` the boxed tiles and a margin round them left out. And the tiles' median
    length and width."""
    lab = _lab(frame)
    body, reach = _body(frame, quads)
    mask = (colour_distance(lab, body) < reach).astype(np.uint8)
    boxes = [box_from_corners(q) for q in quads]
    length = float(np.median([b.length for b in boxes]))
    width = float(np.median([b.width for b in boxes]))
    if skip:
        for q in quads:
            cv2.fillPoly(mask, [np.round(_grown(q, 0.15 * width)).astype(np.int32)], 0)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    k = max(3, int(round(0.08 * width)) | 1)
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return filled, length, width


def _tile_rect(contour: np.ndarray, want: float) -> np.ndarray | None:
    """The corners of a blob's rectangle where the blob has a tile's area and 2:1 shape."""
    area = float(cv2.contourArea(contour))
    if not AREA[0] * want <= area <= AREA[1] * want:
        return None
    rect = cv2.minAreaRect(contour)
    w, h = rect[1]
    if min(w, h) <= 0 or not RATIO[0] <= max(w, h) / min(w, h) <= RATIO[1] or area < FILL * w * h:
        return None
    return box_from_corners(cv2.boxPoints(rect)).corners()


def missed_tiles(frame: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    """Corners (4, 2) of body-coloured blobs of the tiles' size and shape on none of `quads`."""
    if len(quads) < MIN_KNOWN:
        return []
    filled, length, width = _bodies(frame, quads, skip=True)
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = [r for r in (_tile_rect(c, length * width) for c in contours) if r is not None]
    if out:
        log.info("%d tile(s) found by the body colour that the detector did not box", len(out))
    return out


def fit_to_bodies(frame: np.ndarray, quads: list[np.ndarray]) -> list[tuple[np.ndarray, bool]]:
    """Each box replaced by the rectangle of the body-coloured blob under its centre, where that
    blob has a tile's size and shape (a detector's box may cover three quarters of a tile, or
    run past it onto its side and shadow); with whether it was."""
    if len(quads) < MIN_KNOWN:
        return [(q, False) for q in quads]
    filled, length, width = _bodies(frame, quads, skip=False)
    n, labels = cv2.connectedComponents(filled)
    h, w = filled.shape
    out = []
    for q in quads:
        x, y = np.round(q.mean(axis=0)).astype(int)
        lab = labels[y, x] if 0 <= x < w and 0 <= y < h else 0
        rect = None
        if lab:
            contours, _ = cv2.findContours((labels == lab).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            rect = _tile_rect(max(contours, key=cv2.contourArea), length * width)
        out.append((q, False) if rect is None else (_along(rect, q), True))
    return out


def _along(rect: np.ndarray, q: np.ndarray) -> np.ndarray:
    """`rect`'s corners in the order of `q` (half-0 end first, as the box's own direction)."""
    u = q[1] - q[0]
    return rect if float(np.dot(rect[1] - rect[0], u)) >= 0 else rect[[2, 3, 0, 1]]


def _grown(q: np.ndarray, by: float) -> np.ndarray:
    c = q.mean(axis=0)
    d = q - c
    n = np.linalg.norm(d, axis=1, keepdims=True)
    return c + d * (1 + by / np.maximum(n, 1e-9))
