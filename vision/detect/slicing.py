"""Sliced inference: overlapping network-sized windows over a (rescaled) frame, merged with NMS.

A tile cut by a window edge is dropped from that window; the overlap, larger than a tile, makes
sure the same tile lies whole inside a neighbouring window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Window:
    """A window of the scaled frame: x0, y0 and its size; which of its sides are frame borders."""

    x0: int
    y0: int
    width: int
    height: int
    frame_width: int
    frame_height: int

    def inner_edges(self) -> tuple[bool, bool, bool, bool]:
        """(left, top, right, bottom): True where the window side lies inside the frame."""
        return (
            self.x0 > 0,
            self.y0 > 0,
            self.x0 + self.width < self.frame_width,
            self.y0 + self.height < self.frame_height,
        )


def _starts(length: int, window: int, overlap: int) -> list[int]:
    if length <= window:
        return [0]
    stride = max(window - overlap, 1)
    n = math.ceil((length - window) / stride) + 1
    return [round(i * (length - window) / (n - 1)) for i in range(n)]


def windows(frame_width: int, frame_height: int, size: int, overlap: int) -> list[Window]:
    """Evenly spread size x size windows covering the frame, neighbours overlapping >= overlap px."""
    if overlap >= size:
        raise ValueError(f"slice overlap {overlap} must be smaller than the window size {size}")
    out = []
    for y0 in _starts(frame_height, size, overlap):
        for x0 in _starts(frame_width, size, overlap):
            w = min(size, frame_width - x0)
            h = min(size, frame_height - y0)
            out.append(Window(x0, y0, w, h, frame_width, frame_height))
    return out


def cut_by_edge(corners: np.ndarray, window: Window, margin: float) -> np.ndarray:
    """(N,) True for boxes (corners in window pixels) that touch an inner side of the window."""
    if len(corners) == 0:
        return np.zeros(0, bool)
    lo = corners.min(axis=1)
    hi = corners.max(axis=1)
    left, top, right, bottom = window.inner_edges()
    cut = np.zeros(len(corners), bool)
    if left:
        cut |= lo[:, 0] < margin
    if top:
        cut |= lo[:, 1] < margin
    if right:
        cut |= hi[:, 0] > window.width - margin
    if bottom:
        cut |= hi[:, 1] > window.height - margin
    return cut
