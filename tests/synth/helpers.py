"""Shared helpers for the renderer tests: decode the JPEG a render would be saved as, and read
pips from a rectified half with a plain dark-blob counter (independent of the renderer's code)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth.camera import encode_jpeg


def as_saved(render) -> np.ndarray:
    """The pixels a reader would get from the written JPEG."""
    buf = np.frombuffer(encode_jpeg(render.image, render.jpeg_quality), np.uint8)
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def rectify(img: np.ndarray, corners: np.ndarray, long_px: int = 128) -> np.ndarray:
    """Warp a labelled quadrilateral to a long_px x long_px/2 grey image (first half on the left)."""
    dst = np.array([[0, 0], [long_px, 0], [long_px, long_px // 2], [0, long_px // 2]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.cvtColor(cv2.warpPerspective(img, m, (long_px, long_px // 2)), cv2.COLOR_BGR2GRAY)


def count_dark_blobs(half: np.ndarray) -> int:
    """Pips on a light face: dark connected blobs of about a pip's area, away from the border."""
    inset = 5
    crop = half[inset:-inset, inset:-inset]
    # compare with the local body brightness, so a shadow edge across the face does not merge pips
    local = cv2.medianBlur(crop, 25).astype(np.float32)
    dark = (crop < 0.65 * local).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    return int(((areas >= 15) & (areas <= 400)).sum())
