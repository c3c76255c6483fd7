"""A stand-in for the ONNX network: finds bright rectangles in the network input with OpenCV.

It answers in the exact raw layout of an Ultralytics OBB export, (1, 4 + nc + 1, anchors), and,
like a real detector, misses tiles that are too small at the network input (`min_long_px`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect.obb import corners_to_xywhr, xywhr_to_corners

ANCHORS = 256


def fake_runner(min_long_px: float = 20.0, num_classes: int = 2):
    def run(blob: np.ndarray) -> np.ndarray:
        img = (blob[0].transpose(1, 2, 0) * 255).astype(np.uint8)
        gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
        _, mask = cv2.threshold(gray, 200, 255, cv2.THRESH_BINARY)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = np.zeros((1, 4 + num_classes + 1, ANCHORS), np.float32)
        k = 0
        for contour in contours:
            rect = cv2.minAreaRect(contour)
            if max(rect[1]) < min_long_px or k >= ANCHORS:
                continue
            xywhr = corners_to_xywhr(cv2.boxPoints(rect)[None])[0]
            out[0, :4, k] = xywhr[:4]
            out[0, 4, k] = 0.9  # class 0, tile_up
            out[0, -1, k] = xywhr[4]
            k += 1
        return out

    return run


def draw_tiles(size: tuple[int, int], tiles: np.ndarray) -> np.ndarray:
    """A dark frame (w, h) with white filled boxes for tiles given as (N, 5) xywhr."""
    w, h = size
    frame = np.full((h, w, 3), 40, np.uint8)
    for corners in xywhr_to_corners(tiles):
        cv2.fillPoly(frame, [np.round(corners).astype(np.int32)], (255, 255, 255))
    return frame


def scatter_tiles(rng: np.random.Generator, size: tuple[int, int], n: int, long_px: float) -> np.ndarray:
    """n non-touching tiles (xywhr, 2:1) of the given length, at random angles, inside the frame."""
    w, h = size
    tiles: list[list[float]] = []
    for _ in range(200 * n):
        if len(tiles) == n:
            break
        c = rng.uniform(long_px, [w - long_px, h - long_px])
        if all(np.hypot(*(c - t[:2])) > 1.4 * long_px for t in np.asarray(tiles).reshape(-1, 5)):
            tiles.append([c[0], c[1], long_px, long_px / 2, rng.uniform(0, np.pi)])
    if len(tiles) < n:
        raise ValueError(f"cannot place {n} tiles of {long_px} px in {size}")
    return np.asarray(tiles, np.float32)
