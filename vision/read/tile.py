"""Read one tile: tighten its box on the full-resolution frame, rectify, read both halves."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.calibrate import half_confidence
from vision.read.geometry import Box, warp
from vision.read.pips import HalfRead, read_half
from vision.read.tighten import Tightened, tighten

HALF = 48  # canonical pixels per half side


@dataclass(frozen=True)
class TileRead:
    box: Box  # tightened box; halves()[k] is where values[k] was read
    face: str  # "up" | "down"
    values: tuple[int, int] | None
    half_values: tuple[int | None, int | None]
    half_confidence: tuple[float, float]
    reasons: tuple[str, str]
    detection_confidence: float
    tight: Tightened | None = None

    @property
    def confidence(self) -> float:
        """Detection confidence times the confidence of both halves (face-down: detection only)."""
        if self.face == "down":
            return self.detection_confidence
        return self.detection_confidence * self.half_confidence[0] * self.half_confidence[1]


PAD = HALF // 4  # canonical pixels read beyond each end, in case the box is short


def rectify(frame: np.ndarray, box: Box, pad: int = 0) -> np.ndarray:
    """Canonical crop (HALF x 2*HALF, plus `pad` columns at each end), half 0 on the left."""
    return warp(frame, box, HALF / max(box.width, 1.0), (2 * HALF + 2 * pad, HALF))


def find_divider(crop: np.ndarray, pad: int) -> float | None:
    """Column of the divider bar: the one line near the centre that is long across the tile
    (a vertical run of at least 45 % of the width), which no pip is."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    c = pad + HALF
    inner = lab[HALF // 5 : HALF - HALF // 5, c - HALF // 2 : c + HALF // 2]
    body = np.median(inner.reshape(-1, 3), axis=0)
    x0, x1 = c - int(0.22 * HALF), c + int(0.22 * HALF)
    dist = np.sqrt(((lab[:, x0:x1] - body) ** 2).sum(axis=2))
    d8 = np.clip(dist, 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (d8 > max(t, 28)).astype(np.uint8)
    run = int(0.45 * HALF)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    prof = opened.sum(axis=0).astype(float)
    if prof.max() < run:
        return None
    j = int(np.argmax(prof))
    lo, hi = max(j - 2, 0), min(j + 3, len(prof))
    w = prof[lo:hi]
    return x0 + float((np.arange(lo, hi) * w).sum() / w.sum())


def read_halves(crop: np.ndarray, pad: int = 0, divider: float | None = None) -> tuple[HalfRead, HalfRead]:
    """Read both halves of a padded canonical crop, split at the divider (or the centre)."""
    d = int(round(divider if divider is not None else pad + HALF))
    w = crop.shape[1]
    left = crop[:, max(d - HALF, 0) : d]
    right = crop[:, d : min(d + HALF, w)]
    if left.shape[1] < HALF:
        left = cv2.copyMakeBorder(left, 0, 0, HALF - left.shape[1], 0, cv2.BORDER_REPLICATE)
    if right.shape[1] < HALF:
        right = cv2.copyMakeBorder(right, 0, 0, 0, HALF - right.shape[1], cv2.BORDER_REPLICATE)
    return read_half(left, divider_side="right"), read_half(right, divider_side="left")


def read_tile(frame: np.ndarray, box: Box, face: str = "up", detection_confidence: float = 1.0,
              refine: bool = True) -> TileRead:
    tight = tighten(frame, box) if refine else None
    b = tight.box if tight is not None else box
    if face == "down":
        return TileRead(b, "down", None, (None, None), (1.0, 1.0), ("face down", "face down"),
                        detection_confidence, tight)
    crop = rectify(frame, b, PAD)
    div = find_divider(crop, PAD)
    if div is not None:
        # the divider is the tile's true middle: re-centre the box on it
        shift = (div - PAD - HALF) * b.width / HALF
        b = Box(b.cx + b.ux * shift, b.cy + b.uy * shift, b.ux, b.uy, b.length, b.width)
    h0, h1 = read_halves(crop, PAD, div)
    conf = (half_confidence(h0), half_confidence(h1))
    vals = (h0.value, h1.value)
    values = (h0.value, h1.value) if h0.value is not None and h1.value is not None else None
    return TileRead(b, "up", values, vals, conf, (h0.reason, h1.reason), detection_confidence, tight)
