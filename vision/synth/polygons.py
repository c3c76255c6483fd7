"""Plane geometry for the renderer: rotated rectangles, overlap tests, point transforms."""

from __future__ import annotations

import math

import numpy as np


def axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit vector along `angle` and the one 90 degrees counter-clockwise (image y points down)."""
    u = np.array([math.cos(angle), math.sin(angle)])
    return u, np.array([-u[1], u[0]])


def rect_corners(center, angle: float, length: float, width: float) -> np.ndarray:
    """Four corners (4, 2) of a rectangle whose long axis points along `angle`.

    Order: the two corners of the first half's end, then the second half's end, going round.
    """
    c = np.asarray(center, dtype=np.float64)
    u, v = axes(angle)
    hl, hw = length / 2.0, width / 2.0
    return np.array([c - u * hl - v * hw, c + u * hl - v * hw, c + u * hl + v * hw, c - u * hl + v * hw])


def rounded_rect(center, angle: float, length: float, width: float, radius: float, n_arc: int = 5) -> np.ndarray:
    """Polygon (N, 2) of a rectangle with rounded corners."""
    radius = max(0.0, min(radius, width / 2.0 - 1e-6, length / 2.0 - 1e-6))
    hl, hw = length / 2.0 - radius, width / 2.0 - radius
    pts = []
    for (sx, sy), a0 in (((1, 1), 0.0), ((-1, 1), 0.5 * math.pi), ((-1, -1), math.pi), ((1, -1), 1.5 * math.pi)):
        for k in range(n_arc + 1):
            a = a0 + 0.5 * math.pi * k / n_arc
            pts.append((sx * hl + radius * math.cos(a), sy * hw + radius * math.sin(a)))
    local = np.array(pts)
    u, v = axes(angle)
    return np.asarray(center, dtype=np.float64) + local[:, :1] * u + local[:, 1:] * v


def polygons_overlap(a: np.ndarray, b: np.ndarray, tolerance: float = 0.0) -> bool:
    """Separating-axis test for convex polygons; touching (overlap <= tolerance) is allowed."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            edge = poly[(i + 1) % n] - poly[i]
            normal = np.array([-edge[1], edge[0]])
            norm = math.hypot(*normal)
            if norm == 0:
                continue
            normal /= norm
            pa, pb = a @ normal, b @ normal
            if min(pa.max(), pb.max()) - max(pa.min(), pb.min()) <= tolerance:
                return False
    return True


def inside_rect(poly: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> bool:
    return bool(poly[:, 0].min() >= x0 and poly[:, 0].max() <= x1 and poly[:, 1].min() >= y0 and poly[:, 1].max() <= y1)


def apply_homography(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    hom = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return hom[:, :2] / hom[:, 2:3]


def distort_points(pts: np.ndarray, k: float, center, scale: float) -> np.ndarray:
    """Forward radial distortion: find p_d with p_d * (1 + k r_d^2) == p_u (normalised by `scale`).

    The image is resampled with the inverse (p_u from p_d), which is closed-form; points go the
    other way, so solve r_d + k r_d^3 = r_u by Newton's method on the radius. With k < 0 the
    mapping folds at r_d = sqrt(-1 / 3k) (far outside the frame for |k| <= 0.15); points beyond the
    fold have no image and come back as NaN.
    """
    c = np.asarray(center, dtype=np.float64)
    pu = (np.asarray(pts, dtype=np.float64) - c) / scale
    ru = np.hypot(pu[:, 0], pu[:, 1])
    r = ru.copy()
    for _ in range(30):
        step = (r + k * r**3 - ru) / np.maximum(1.0 + 3.0 * k * r**2, 1e-9)
        r = r - step
        if k < 0:
            r = np.clip(r, 0.0, np.sqrt(-1.0 / (3.0 * k)))
        if not np.any(np.abs(step) > 1e-12):  # Newton has converged: the rest would change nothing
            break
    ok = np.abs(r + k * r**3 - ru) < 1e-6 * np.maximum(1.0, ru)
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(ru > 1e-12, r / ru, 1.0)
    out = pu * f[:, None] * scale + c
    out[~ok] = np.nan
    return out
