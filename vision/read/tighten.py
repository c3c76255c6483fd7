"""Tighten a detector box on the full-resolution frame.

Box errors of a few pixels or degrees push corner pips out of a half crop (measured: 94 % per half
at 4 px / 6 deg), so before reading we re-find the tile's own edges. The tile body is thresholded
by its colour and its pips filled; the angle is the one whose row profile of that mask has the
sharpest long edges (projection-profile deskew, robust to pips and to neighbours that touch with a
seam); the sides and ends are the strongest steps of the profiles near where the box put them.
An end fused with a touching neighbour is left to the divider bar (see `tile.py`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.geometry import Box, canvas_matrix, canvas_to_frame, warp
from vision.read.pips import channel_median, colour_distance

S = 32  # canvas pixels per tile width
MARGIN = 16  # canvas pixels around the expected tile
ANGLES = np.array([-6.0, 0.0, 6.0])  # with parabolic refinement; 5 angles bought 0.07 % per half
FINE_ANGLES = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
MIN_STEP = 0.3  # profile step (fraction of a row) that counts as an edge


@dataclass(frozen=True)
class Tightened:
    quad: np.ndarray  # (4, 2) frame corners: half-0 end first, as Box.corners()
    sides: int  # long sides found (0..2)
    ends: tuple[bool, bool]  # (half-0 end, half-1 end) found
    body_lab: tuple[float, float, float]


def body_mask(canvas_lab: np.ndarray, body: np.ndarray, min_t: float = 14.0,
              dist: np.ndarray | None = None) -> np.ndarray:
    """Pixels of the tile body colour (True), by Otsu on the colour distance to the body colour."""
    if dist is None:
        dist = colour_distance(canvas_lab, body)
    d8 = np.minimum(dist, 255).astype(np.uint8)  # distances are >= 0
    t, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = min(max(float(t), min_t), 70.0)
    return dist < t


def fill_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill non-body blobs (pips, divider, pin) that do not touch the canvas border."""
    inv = (~mask).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(inv, connectivity=4)
    h, w = mask.shape
    x, y, bw, bh, area = stats.T
    keep = (area <= max_area) & (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    keep[0] = False
    return mask | keep[labels]


def _row_means(mask: np.ndarray) -> np.ndarray:
    """Mean of each row of a 0/255 mask as a fraction (`mask.mean(axis=1) / 255`, summed by OpenCV)."""
    sums = cv2.reduce(mask, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0].astype(np.float64)
    return sums / mask.shape[1] / 255.0


def _step(profile: np.ndarray, lo: float, hi: float, sign: int) -> tuple[float | None, float]:
    """Strongest step of `profile` between indices lo..hi; sign +1 looks for a rise (entering the
    body going forward), -1 for a fall. Returns (edge position, step size)."""
    lo_i, hi_i = max(int(np.floor(lo)), 0), min(int(np.ceil(hi)), len(profile) - 2)
    if hi_i <= lo_i:
        return None, 0.0
    # a two-pixel difference tolerates a soft edge
    p = profile
    d = sign * (p[lo_i + 2 : hi_i + 2] - p[lo_i:hi_i]) if hi_i + 2 <= len(p) else None
    if d is None or len(d) == 0:
        return None, 0.0
    j = int(np.argmax(d))
    if d[j] < MIN_STEP:
        return None, float(d[j])
    return lo_i + j + 1.0, float(d[j])


def tighten(frame: np.ndarray, box: Box) -> Tightened:
    """Re-fit `box` to the tile edges seen in `frame`; keeps the given box where edges are unclear.
    (Centring on the divider bar first was tried and measured worse: pip columns and neighbours'
    bars pass for it.)"""
    return tighten_edges(frame, box)


def tighten_edges(frame: np.ndarray, box: Box, keep_centre: bool = False) -> Tightened:
    """Re-fit `box` to the tile edges seen in `frame`; keeps the given box where edges are unclear."""
    scale = S / max(box.width, 1.0)
    size = (int(2 * S + 2 * MARGIN), int(S + 2 * MARGIN + S // 2))
    w, h = size
    cx, cy = (w - 1) / 2, (h - 1) / 2
    canvas = warp(frame, box, scale, size)
    lab = cv2.cvtColor(canvas, cv2.COLOR_BGR2LAB).astype(np.float32)
    inner = lab[int(cy - 0.3 * S) : int(cy + 0.3 * S), int(cx - 0.7 * S) : int(cx + 0.7 * S)]
    body = channel_median(inner.reshape(-1, 3))
    dist = colour_distance(lab, body)
    filled = fill_holes(body_mask(lab, body, dist=dist), 0.15 * S * S).astype(np.uint8) * 255
    c0, c1 = int(cx - 0.8 * S), int(cx + 0.8 * S)
    half_len = box.length * scale / 2
    # deskew: the angle with the sharpest long-side steps
    best = (-1.0, 0.0)
    scores = []
    angles = FINE_ANGLES if keep_centre else ANGLES
    for a in angles:
        rot = cv2.getRotationMatrix2D((cx, cy), float(a), 1.0)
        # only the columns the profile reads are rotated (the best angle's full turn comes below)
        rot_cols = rot - np.array([[0.0, 0.0, c0], [0.0, 0.0, 0.0]])
        r = cv2.warpAffine(filled, rot_cols, (c1 - c0, h), flags=cv2.INTER_LINEAR, borderValue=0)
        p = _row_means(r)
        _, st = _step(p, cy - 0.85 * S, cy - 0.15 * S, +1)
        _, sb = _step(p, cy + 0.15 * S, cy + 0.85 * S, -1)
        sc = max(st, 0) + max(sb, 0)
        scores.append(sc)
        if sc > best[0]:
            best = (sc, float(a))
    i = int(np.argmax(scores))
    a_best = best[1]
    if 0 < i < len(scores) - 1:
        y0, y1, y2 = scores[i - 1], scores[i], scores[i + 1]
        den = y0 - 2 * y1 + y2
        if den < 0:
            a_best += min(max(0.5 * (y0 - y2) / den, -0.5), 0.5) * float(angles[1] - angles[0])
    rot = cv2.getRotationMatrix2D((cx, cy), a_best, 1.0)
    r = cv2.warpAffine(filled, rot, size, flags=cv2.INTER_LINEAR, borderValue=0)
    p = _row_means(r[:, c0:c1])
    yt, _ = _step(p, cy - 0.85 * S, cy - 0.15 * S, +1)
    yb, _ = _step(p, cy + 0.15 * S, cy + 0.85 * S, -1)
    sides = int(yt is not None) + int(yb is not None)
    width = float(S)
    ycen = cy
    if yt is not None and yb is not None and 0.7 * S < yb - yt < 1.3 * S:
        width, ycen = yb - yt, (yt + yb) / 2
    elif yt is not None:
        ycen, sides = yt + S / 2, 1
    elif yb is not None:
        ycen, sides = yb - S / 2, 1
    else:
        a_best = 0.0 if best[0] < 2 * MIN_STEP else a_best
    band = r[int(ycen - 0.3 * width) : int(ycen + 0.3 * width) + 1]
    q = band.mean(axis=0) / 255.0
    xl, _ = _step(q, cx - half_len - 0.35 * S, cx - half_len + 0.35 * S, +1)
    xr, _ = _step(q, cx + half_len - 0.35 * S, cx + half_len + 0.35 * S, -1)
    length = half_len * 2
    xcen = cx
    if keep_centre:
        # the divider is the middle: trust ends only when they agree with it
        if xl is not None and xr is not None and abs((xl + xr) / 2 - cx) < 0.12 * S \
                and 1.6 * width < xr - xl < 2.4 * width:
            length = xr - xl
        else:
            xl = xr = None
        if sides < 2 or abs(ycen - cy) > 0.15 * S:
            ycen = cy
    elif xl is not None and xr is not None and 1.5 * width < xr - xl < 2.5 * width:
        xcen, length = (xl + xr) / 2, xr - xl
    elif xl is not None:
        xcen = xl + half_len
    elif xr is not None:
        xcen = xr - half_len
    rot = cv2.getRotationMatrix2D((cx, cy), a_best, 1.0)
    inv = cv2.invertAffineTransform(rot)
    m = canvas_matrix(box, scale, size)

    def to_frame(pts: np.ndarray) -> np.ndarray:
        can = pts @ inv[:, :2].T + inv[:, 2]
        return canvas_to_frame(m, can)

    # each edge as its own line (oblique views make tiles parallelograms / trapezoids)
    xl0, xr0 = xcen - length / 2, xcen + length / 2
    yt0, yb0 = ycen - width / 2, ycen + width / 2
    cols = np.arange(int(xl0 + 0.2 * width), int(xr0 - 0.2 * width))
    rows = np.arange(int(yt0 + 0.2 * width), int(yb0 - 0.2 * width) + 1)
    rf = r.astype(np.float32) / 255.0
    top = _edge_line(rf, cols, yt0, +1, axis=0) if yt is not None else None
    bot = _edge_line(rf, cols, yb0, -1, axis=0) if yb is not None else None
    lef = _edge_line(rf, rows, xl0, +1, axis=1) if xl is not None else None
    rig = _edge_line(rf, rows, xr0, -1, axis=1) if xr is not None else None
    quad = np.array([
        _meet(top, lef, yt0, xl0), _meet(top, rig, yt0, xr0), _meet(bot, rig, yb0, xr0), _meet(bot, lef, yb0, xl0)
    ])
    if not _plausible(quad):
        quad = np.array([[xl0, yt0], [xr0, yt0], [xr0, yb0], [xl0, yb0]])
    # keep the refit only if its outline separates tile from table at least as well as the box's
    q_can = quad @ inv[:, :2].T + inv[:, 2]
    hl, hw = box.length * scale / 2, S / 2
    orig = np.array([[cx - hl, cy - hw], [cx + hl, cy - hw], [cx + hl, cy + hw], [cx - hl, cy + hw]])
    new_c, old_c = outline_contrasts(dist, np.stack([q_can, orig]))
    if new_c < old_c - 2.0:
        return Tightened(box.corners(), 0, (False, False), tuple(float(b) for b in body))
    q_fr = canvas_to_frame(m, q_can)
    return Tightened(q_fr, sides, (xl is not None, xr is not None), tuple(float(b) for b in body))


_T = np.linspace(0.15, 0.85, 8)[None, :, None]


def outline_contrasts(dist: np.ndarray, quads: np.ndarray, off: float = 0.08 * S) -> np.ndarray:
    """For each quad (k, 4, 2): the mean over its outline of (colour distance just outside) -
    (just inside), high when the quad follows the tile's edge. `dist` is the distance to the body
    colour; quads in its pixels."""
    a = quads
    e = quads[:, [1, 2, 3, 0]] - a
    norm = np.maximum(np.hypot(e[..., 0], e[..., 1]), 1e-6)[..., None]
    n = np.stack([e[..., 1], -e[..., 0]], axis=-1) / norm
    n *= np.sign(((a - quads.mean(axis=1, keepdims=True)) * n).sum(axis=-1))[..., None]  # outward
    pts = a[:, :, None] + e[:, :, None] * _T  # (k, 4, 8, 2)
    h, w = dist.shape
    q = np.rint(np.stack([pts + off * n[:, :, None], pts - off * n[:, :, None]])).astype(np.intp)
    v = dist[np.clip(q[..., 1], 0, h - 1), np.clip(q[..., 0], 0, w - 1)]  # (2, k, 4, 8)
    return v[0].reshape(len(quads), -1).mean(axis=1) - v[1].reshape(len(quads), -1).mean(axis=1)


def _edge_line(rf: np.ndarray, idx: np.ndarray, at: float, sign: int, axis: int):
    """Per column (axis 0) or row (axis 1) the strongest step near `at`; a robust line through
    them as (slope, intercept) in the form pos = slope * idx + intercept."""
    lo, hi = int(at - 0.2 * S), int(at + 0.2 * S)
    n = rf.shape[axis]
    lo, hi = max(lo, 0), min(hi, n - 3)
    if hi <= lo or len(idx) < 6:
        return None
    idx = idx[(idx >= 0) & (idx < rf.shape[1 - axis])]
    prof = rf[:, idx] if axis == 0 else rf[idx, :].T  # (n along the scan, len(idx))
    d = sign * (prof[lo + 2 : hi + 2] - prof[lo:hi])
    j = np.argmax(d, axis=0)
    ok = d[j, np.arange(len(idx))] >= 0.5
    if ok.sum() < 0.4 * len(idx):
        return None
    pos = lo + j[ok] + 1.0
    return _robust_line(idx[ok].astype(float), pos)


def _fit_line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    xm, ym = x.sum() / len(x), y.sum() / len(y)  # = mean(), without its bookkeeping
    dx = x - xm
    k = float((dx * (y - ym)).sum() / max(float((dx * dx).sum()), 1e-9))
    return k, float(ym - k * xm)


def _median1(x: np.ndarray) -> float:
    """`np.median` of a 1-D array (same value), by one partition."""
    m = len(x) // 2
    if len(x) % 2:
        return float(np.partition(x, m)[m])
    p = np.partition(x, (m - 1, m))
    return float((p[m - 1] + p[m]) / 2)


def _robust_line(x: np.ndarray, y: np.ndarray):
    if len(x) < 5:
        return None
    k, b = _fit_line(x, y)
    res = np.abs(y - (k * x + b))
    keep = res <= max(1.0, 2.5 * _median1(res))
    if keep.sum() < 5:
        return None
    k, b = _fit_line(x[keep], y[keep])
    if abs(k) > 0.45:  # more than ~24 degrees off the deskewed axis: not this tile's edge
        return None
    return k, b


def _meet(h, v, y0: float, x0: float) -> np.ndarray:
    """Intersection of a horizontal-ish line y = kh x + bh and a vertical-ish x = kv y + bv; a
    missing line is the axis-parallel one through the prior position."""
    kh, bh = h if h is not None else (0.0, y0)
    kv, bv = v if v is not None else (0.0, x0)
    # y = kh (kv y + bv) + bh
    y = (kh * bv + bh) / (1 - kh * kv)
    return np.array([kv * y + bv, y])


def _plausible(q: np.ndarray) -> bool:
    e = [(float(q[(i + 1) % 4][0] - q[i][0]), float(q[(i + 1) % 4][1] - q[i][1])) for i in range(4)]
    n = [math.hypot(*x) for x in e]
    if min(n) < 0.5 * S:
        return False
    length, width = (n[0] + n[2]) / 2, (n[1] + n[3]) / 2
    if not (0.65 * S < width < 1.35 * S and 1.5 * width < length < 2.6 * width):
        return False
    for i in range(4):
        a, b = e[i], e[(i + 1) % 4]
        cos = abs(a[0] * b[0] + a[1] * b[1]) / (n[i] * n[(i + 1) % 4])
        if cos > 0.45:
            return False
    return abs(n[0] - n[2]) < 0.2 * length and abs(n[1] - n[3]) < 0.25 * width
