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

from vision.read.geometry import box_from_corners, warp_quad
from vision.read.pips import channel_median, colour_distance

log = logging.getLogger(__name__)

MIN_KNOWN = 8  # boxed tiles needed to learn the body colour and the size
AREA = (0.7, 1.35)  # a blob's area, of the boxed tiles' median box area
RATIO = (1.6, 2.5)  # its rectangle's long side over the short one
FILL = 0.8  # its area over its rectangle's area
SPREAD = 3.0  # the body colour's reach: this many times the boxed bodies' median distance to it
MIN_REACH = 20.0  # Lab units, at least


def _body(frame: np.ndarray, quads: list[np.ndarray]) -> tuple[np.ndarray, float]:
    """The tiles' body colour (Lab) and how far from it a pixel may lie to be body: SPREAD times
    the median distance of the boxed bodies' pixels (pips are a small share of them), at most
    halfway to the table's colour (the photo's median pixel outside the boxes)."""
    crops = [cv2.cvtColor(warp_quad(frame, q, 24, 0)[0], cv2.COLOR_BGR2LAB).astype(np.float32) for q in quads]
    inner = np.ascontiguousarray(np.concatenate([c[4:-4, 4:-4].reshape(-1, 3) for c in crops]).reshape(-1, 1, 3))
    body = channel_median(inner.reshape(-1, 3))
    spread = float(np.median(colour_distance(inner, body)))
    outside = np.ones(frame.shape[:2], np.uint8)
    for q in quads:
        cv2.fillPoly(outside, [np.round(q).astype(np.int32)], 0)
    table = channel_median(cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)[outside > 0][::7].astype(np.float32))
    return body, min(max(MIN_REACH, SPREAD * spread), 0.5 * float(np.linalg.norm(table - body)))


def missed_tiles(frame: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    """Corners (4, 2) of body-coloured blobs of the tiles' size and shape on none of `quads`."""
    if len(quads) < MIN_KNOWN:
        return []
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB).astype(np.float32)
    body, reach = _body(frame, quads)
    mask = (colour_distance(lab, body) < reach).astype(np.uint8)
    boxes = [box_from_corners(q) for q in quads]
    length = float(np.median([b.length for b in boxes]))
    width = float(np.median([b.width for b in boxes]))
    for q in quads:  # the boxed tiles, and a margin round them, are no one else's
        cv2.fillPoly(mask, [np.round(_grown(q, 0.15 * width)).astype(np.int32)], 0)
    # pips, the divider and a pin are holes in a body: fill them; then part bodies from thin bridges
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    k = max(3, int(round(0.08 * width)) | 1)
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    want = length * width
    out = []
    for c in contours:
        area = float(cv2.contourArea(c))
        if not AREA[0] * want <= area <= AREA[1] * want:
            continue
        rect = cv2.minAreaRect(c)
        w, h = rect[1]
        if min(w, h) <= 0 or not RATIO[0] <= max(w, h) / min(w, h) <= RATIO[1] or area < FILL * w * h:
            continue
        out.append(box_from_corners(cv2.boxPoints(rect)).corners())
    if out:
        log.info("%d tile(s) found by the body colour that the detector did not box", len(out))
    return out


def _grown(q: np.ndarray, by: float) -> np.ndarray:
    c = q.mean(axis=0)
    d = q - c
    n = np.linalg.norm(d, axis=1, keepdims=True)
    return c + d * (1 + by / np.maximum(n, 1e-9))
