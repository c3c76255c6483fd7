"""Oriented tile boxes: conversion from detector corners, back to corners, and warps.

A box is centre, long-axis unit vector `u` (from half 0 to half 1), length along `u` and width
across it. Pixel coordinates are those of the full-resolution frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Box:
    cx: float
    cy: float
    ux: float  # unit vector along the long axis, half 0 -> half 1
    uy: float
    length: float
    width: float

    @property
    def centre(self) -> np.ndarray:
        return np.array([self.cx, self.cy])

    @property
    def u(self) -> np.ndarray:
        return np.array([self.ux, self.uy])

    @property
    def v(self) -> np.ndarray:
        return np.array([-self.uy, self.ux])

    @property
    def angle_deg(self) -> float:
        return float(np.degrees(np.arctan2(self.uy, self.ux)))

    def corners(self) -> np.ndarray:
        """Four corners (4, 2): half-0 end first, going round."""
        c, du, dv = self.centre, self.u * self.length / 2, self.v * self.width / 2
        return np.array([c - du - dv, c + du - dv, c + du + dv, c - du + dv])

    def halves(self) -> np.ndarray:
        """Centres of half 0 and half 1 (2, 2)."""
        c, du = self.centre, self.u * self.length / 4
        return np.array([c - du, c + du])

    def flipped(self) -> Box:
        return Box(self.cx, self.cy, -self.ux, -self.uy, self.length, self.width)


def box_from_corners(corners: np.ndarray) -> Box:
    """Box from four corners in any order that goes round the quadrilateral."""
    p = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    c = p.mean(axis=0)
    e1 = ((p[1] - p[0]) + (p[2] - p[3])) / 2
    e2 = ((p[2] - p[1]) + (p[3] - p[0])) / 2
    n1, n2 = float(np.hypot(*e1)), float(np.hypot(*e2))
    if n1 < n2:
        e1, e2, n1, n2 = e2, e1, n2, n1
    u = e1 / n1 if n1 > 1e-9 else np.array([1.0, 0.0])
    # a canonical direction so the same tile always gets the same half order: u points right/down
    if u[0] < -1e-9 or (abs(u[0]) <= 1e-9 and u[1] < 0):
        u = -u
    return Box(float(c[0]), float(c[1]), float(u[0]), float(u[1]), n1, n2)


def box_from_halves(h0, h1, width_ratio: float = 0.5) -> Box:
    """Box from the two half centres (as in the real photos' truth): length = 2 * distance."""
    h0, h1 = np.asarray(h0, float), np.asarray(h1, float)
    d = h1 - h0
    n = float(np.hypot(*d))
    u = d / max(n, 1e-9)
    c = (h0 + h1) / 2
    return Box(float(c[0]), float(c[1]), float(u[0]), float(u[1]), 2 * n, 2 * n * width_ratio)


def at_frame_edge(quad: np.ndarray, size: tuple[int, int], margin: float = 3.0) -> bool:
    """Whether a box's corners (4, 2) come within `margin` pixels of the border of a frame of
    `size` (w, h): a tile there may be cut by the frame, its box short of it."""
    w, h = size
    return bool(min(quad[:, 0].min(), quad[:, 1].min(), w - 1 - quad[:, 0].max(), h - 1 - quad[:, 1].max()) < margin)


def canvas_matrix(box: Box, scale: float, size: tuple[int, int]) -> np.ndarray:
    """2x3 matrix mapping canvas pixels to frame pixels; the box centre sits at the canvas centre,
    `u` along +x. `scale` is canvas pixels per frame pixel; `size` is (w, h)."""
    w, h = size
    u, v = box.u / scale, box.v / scale
    ox = box.centre - u * (w - 1) / 2 - v * (h - 1) / 2
    return np.array([[u[0], v[0], ox[0]], [u[1], v[1], ox[1]]])


def _roi(frame: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The part of `frame` a warp of the canvas with these frame `corners` samples, and its origin:
    OpenCV's warps walk the whole source image otherwise (measured: the warp of a tile from a
    1080p frame costs several times the warp from its crop). Bilinear sampling reads one pixel
    beyond each point; where the canvas leaves the frame, the crop ends at the frame's edge, so
    BORDER_REPLICATE repeats the same pixels."""
    h, w = frame.shape[:2]
    lo = np.floor(corners.min(axis=0)).astype(int) - 2
    hi = np.ceil(corners.max(axis=0)).astype(int) + 3
    x0, y0 = min(max(int(lo[0]), 0), w - 1), min(max(int(lo[1]), 0), h - 1)
    x1, y1 = max(min(int(hi[0]), w), x0 + 1), max(min(int(hi[1]), h), y0 + 1)
    return frame[y0:y1, x0:x1], x0, y0


def warp(frame: np.ndarray, box: Box, scale: float, size: tuple[int, int]) -> np.ndarray:
    m = canvas_matrix(box, scale, size)
    w, h = size
    corners = canvas_to_frame(m, [[-1, -1], [w, -1], [w, h], [-1, h]])
    src, x0, y0 = _roi(frame, corners)
    m = m - np.array([[0.0, 0.0, x0], [0.0, 0.0, y0]])
    return cv2.warpAffine(
        src, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


def canvas_to_frame(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, float).reshape(-1, 2)
    return pts @ m[:, :2].T + m[:, 2]


def quad_homography(quad: np.ndarray, half: int, pad: int) -> np.ndarray:
    """3x3 homography from a canonical crop (half 0 on the left, `half` px per half side, `pad`
    columns beyond each end) to frame pixels, for a tile quad ordered as `Box.corners()`."""
    src = np.float32([[pad, 0], [pad + 2 * half, 0], [pad + 2 * half, half], [pad, half]]) - 0.5
    return cv2.getPerspectiveTransform(src, np.float32(quad))


ANTIALIAS_ABOVE = 1.25  # tile length over crop length past which the region is shrunk first


def warp_quad(frame: np.ndarray, quad: np.ndarray, half: int, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical crop of a tile quad (see `quad_homography`) and the homography crop -> frame."""
    h = quad_homography(quad, half, pad)
    w = 2 * half + 2 * pad
    src, x0, y0 = _roi(frame, apply_h(h, [[-1, -1], [w, -1], [w, half], [-1, half]]))
    h_src = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ h
    # A tile much longer than the crop would alias under a bilinear warp (a pip sampled at a few
    # of its pixels, wood grain and scratches turned to speckle): area-average the region down first.
    f = float(np.hypot(*(quad[1] - quad[0]))) / (2 * half)
    if f > ANTIALIAS_ABOVE and min(src.shape[:2]) > 2:
        small = cv2.resize(src, (max(int(round(src.shape[1] / f)), 1), max(int(round(src.shape[0] / f)), 1)),
                           interpolation=cv2.INTER_AREA)
        sx, sy = small.shape[1] / src.shape[1], small.shape[0] / src.shape[0]
        h_src = np.array([[sx, 0.0, 0.5 * sx - 0.5], [0.0, sy, 0.5 * sy - 0.5], [0.0, 0.0, 1.0]]) @ h_src
        src = small
    crop = cv2.warpPerspective(src, h_src, (w, half),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return crop, h


def apply_h(h: np.ndarray, pts) -> np.ndarray:
    pts = np.asarray(pts, float).reshape(-1, 2)
    p = pts @ h[:, :2].T + h[:, 2]
    return p[:, :2] / p[:, 2:3]
