"""Classical pip counting on one rectified half.

Pips of any colour on any body colour: contrast is the Lab distance to the half's own median
(body) colour. Blobs are filtered by area, aspect and fill; the count is then checked against
the standard layouts 0..6, which are all point-symmetric about the half centre, odd counts with
a centre pip and even counts without.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

MIN_CONTRAST = 28.0  # Lab distance below which nothing counts as a pip


@dataclass(frozen=True)
class Blob:
    x: float  # half-relative, 0..1 along the tile's long axis
    y: float  # 0..1 across it
    area: float  # fraction of the half's area
    contrast: float
    edge: bool = False  # touches the read region's border: a tile corner or the table, not a pip


@dataclass(frozen=True)
class HalfRead:
    value: int | None
    score: float  # 0..1, how well the blobs fit the standard layout (raw, before calibration)
    reason: str  # why value is None, or "" when read
    blobs: tuple[Blob, ...]
    margin: float  # contrast of the weakest pip over the threshold, Lab units


def _symmetry_error(pts: list[tuple[float, float]], centre: tuple[float, float]) -> float:
    """How far the points are from point symmetry about `centre`: the largest distance from a
    point's reflection to its nearest point."""
    cx2, cy2 = 2 * centre[0], 2 * centre[1]
    return max(min(math.sqrt(_square(cx2 - x - u) + _square(cy2 - y - v)) for u, v in pts) for x, y in pts)


def _square(v: float) -> float:
    return v * v  # as numpy squares (Python's v ** 2 calls pow(), which can differ in the last bit)


def layout_error(pts: np.ndarray) -> float:
    """How far blob positions (n, 2) in half units are from a standard layout of n pips; 0 = exact.
    Returns a large value for counts outside 0..6. (Plain floats: on at most six points numpy's
    per-call cost was most of the reader's time here.)"""
    n = len(pts)
    if n == 0:
        return 0.0
    if n > 6:
        return 9.0
    p = [(float(x), float(y)) for x, y in np.asarray(pts, float).reshape(-1, 2)]
    mx, my = sum(x for x, _ in p) / n, sum(y for _, y in p) / n
    err = _symmetry_error(p, (mx, my))
    err = max(err, 2 * (float(np.hypot(mx - 0.5, my - 0.5)) - 0.08))
    has_centre = min(math.sqrt(_square(x - mx) + _square(y - my)) for x, y in p) < 0.12
    if (n % 2 == 1) != has_centre:
        err += 0.3
    if n >= 2:
        # outer pips sit between 0.12 and 0.4 of the half from its centre
        spread = max(max(abs(x - mx) for x, _ in p), max(abs(y - my) for _, y in p))
        if spread < 0.1 or spread > 0.42:
            err += 0.3
    if n == 6:
        # two rows of three: along one axis three distinct positions, along the other two
        sx, sy = sorted(x for x, _ in p), sorted(y for _, y in p)
        rows = min((sx[1] - sx[0]) + (sx[5] - sx[4]) + (sx[3] - sx[2]), (sy[1] - sy[0]) + (sy[5] - sy[4]) + (sy[3] - sy[2]))
        cols = min((sx[2] - sx[0]) + (sx[5] - sx[3]), (sy[2] - sy[0]) + (sy[5] - sy[3]))
        err = max(err, min(rows, cols) / 2)
    return err


def _median(values: list[float]) -> float:
    """The median as np.median gives it, without its per-call cost (a few values)."""
    v = sorted(values)
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def _blobs(mask: np.ndarray, dist: np.ndarray, t: float, area_half: float, s: int,
           depth: int, lim: tuple[int, int, int, int]) -> list[Blob]:
    """Pip-shaped components of `mask`; a component too long or too big for one pip (touching pips
    at a soft threshold) is split by thresholding it again, halfway to its peak contrast."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out: list[Blob] = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        a = area / area_half
        if a < 0.004:
            continue
        sl = (slice(y, y + bh), slice(x, x + bw))
        peak = float(dist[sl][labels[sl] == i].max())
        elongated = max(bw, bh) > 1.6 * min(bw, bh) or area < 0.5 * bw * bh
        if (elongated or a > 0.09) and depth < 2 and a < 0.3:
            t2 = t + 0.4 * (peak - t)
            sub = np.zeros_like(mask)
            sub[sl] = ((labels[sl] == i) & (dist[sl] > t2)).astype(np.uint8)
            parts = _blobs(sub, dist, t2, area_half, s, depth + 1, lim)
            if len(parts) >= 2:
                out.extend(parts)
                continue
        if a > 0.09 or max(bw, bh) > 2.2 * min(bw, bh) or area < 0.45 * bw * bh:
            continue
        cxn, cyn = cents[i][0] / s, cents[i][1] / s
        touches = x <= lim[0] or y <= lim[1] or x + bw >= lim[2] or y + bh >= lim[3]
        near = min(cyn, 1 - cyn) < 0.12 or (lim[0] > 0 and cxn < 0.12) or (lim[2] < s and cxn > 0.88)
        edge = touches and near
        out.append(Blob(cents[i][0] / s, cents[i][1] / s, a, peak, bool(edge)))
    return out


def channel_median(pixels: np.ndarray) -> np.ndarray:
    """Per-channel median of (n, c) pixels, as `np.median(pixels, axis=0)` (same values) without
    its checks and copies, which cost more than the partition on a few hundred pixels."""
    cols = np.ascontiguousarray(pixels.T)
    n = cols.shape[1]
    m = n // 2
    if n % 2:
        return np.partition(cols, m, axis=1)[:, m]
    part = np.partition(cols, (m - 1, m), axis=1)
    return (part[:, m - 1] + part[:, m]) / cols.dtype.type(2)


def body_colour(lab: np.ndarray) -> np.ndarray:
    """The body colour of a half or tile crop: the median of a pixel subsample (pips are few)."""
    return channel_median(lab[::3, ::3].reshape(-1, 3))


def colour_distance(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Lab distance of every pixel of `lab` (h, w, 3) float32 to `colour` (3,) or to a same-size
    image, as a float32 (h, w) map. OpenCV does it in four passes (3.5x faster than numpy here,
    same values); numpy takes the arrays OpenCV cannot (other dtypes, reversed strides)."""
    if lab.dtype == np.float32 and lab.strides[1] == 12 and lab.strides[2] == 4:
        other = colour.astype(np.float32)
        d = cv2.subtract(lab, tuple(float(v) for v in other) + (0.0,)) if other.ndim == 1 \
            else cv2.subtract(lab, np.ascontiguousarray(other))
        d = cv2.multiply(d, d)
        return cv2.sqrt(cv2.transform(d, _ONES3)).reshape(lab.shape[:2])
    d = lab - colour.astype(np.float32)
    d *= d
    s = d[:, :, 0] + d[:, :, 1]
    s += d[:, :, 2]
    return np.sqrt(s, out=s)


_ONES3 = np.ones((1, 3), np.float32)


def half_maps(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(body colour, colour distance to it) of a Lab half crop."""
    body = body_colour(lab)
    return body, colour_distance(lab, body)


def read_half(half_bgr: np.ndarray, divider_side: str = "right") -> HalfRead:
    """Count the pips of one square half crop (BGR); see `read_half_dist`."""
    lab = cv2.cvtColor(half_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    return read_half_dist(half_maps(lab)[1], divider_side)


def read_half_dist(dist: np.ndarray, divider_side: str = "right", border: float = 0.07) -> HalfRead:
    """Count the pips of one square half given its distance-to-body-colour map. `divider_side` is
    where the divider bar is, so a strip there is ignored."""
    s = dist.shape[0]
    b = max(1, int(round(border * s)))
    strip = max(1, int(round(0.09 * s)))
    # the region read: inside the border, without the strip along the divider (a rectangle)
    c0, c1 = (b, min(s - b, s - strip)) if divider_side == "right" else (max(b, strip), s - b)
    roi = (slice(b, s - b), slice(c0, max(c1, c0)))
    # blobs touching the region's outer border are corners of the table showing, not pips
    lim = (b, b, s - b, s - b)
    if divider_side == "right":
        lim = (b, b, s - strip + 99, s - b)
    else:
        lim = (strip - 99, b, s - b, s - b)
    vals = dist[roi].ravel()
    d8 = np.minimum(vals, 255).astype(np.uint8)  # distances are >= 0
    otsu, _ = cv2.threshold(d8.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = max(float(otsu), MIN_CONTRAST)
    mask = np.zeros(dist.shape, np.uint8)
    mask[roi] = dist[roi] > t
    area_half = float(s * s)
    cand = [bl for bl in _blobs(mask, dist, t, area_half, s, 0, lim) if not bl.edge]
    # pips of one set have one size: drop blobs far smaller than the typical one (noise, glare)
    if len(cand) >= 2:
        med = _median([bl.area for bl in cand])
        cand = [bl for bl in cand if bl.area > 0.35 * med]
    blobs = tuple(cand)
    margin = min((bl.contrast - t for bl in blobs), default=float(vals.max() - t) if len(vals) else 0.0)
    if len(blobs) > 6:
        return HalfRead(None, 0.0, f"{len(blobs)} pip-like blobs, more than 6", blobs, margin)
    pts = np.array([[bl.x, bl.y] for bl in blobs]).reshape(-1, 2)
    err = layout_error(pts)
    if len(blobs) >= 2:
        areas = np.array([bl.area for bl in blobs])
        err += max(0.0, float(areas.max() / areas.min()) - 2.2) * 0.1
    score = min(max(1.0 - float(err) / 0.25, 0.0), 1.0)
    if score <= 0.0:
        return HalfRead(None, 0.0, f"{len(blobs)} blobs do not form a standard pip layout", blobs, margin)
    return HalfRead(len(blobs), score, "", blobs, margin)
