"""Draw detections on a frame: green face up, orange face down, red truth tiles that were missed."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect.detections import Detections

COLOURS = {0: (60, 200, 60), 1: (0, 140, 255)}
MISSED = (0, 0, 255)


def draw_detections(frame: np.ndarray, dets: Detections, missed_halves: np.ndarray | None = None) -> np.ndarray:
    """A copy of frame with each box, its confidence, and a red line through each missed tile."""
    out = frame.copy()
    thick = max(1, round(max(frame.shape[:2]) / 800))
    for corners, conf, cls in zip(dets.corners, dets.confidence, dets.class_id, strict=True):
        pts = np.round(corners).astype(np.int32)
        cv2.polylines(out, [pts], True, COLOURS.get(int(cls), (255, 255, 255)), thick, cv2.LINE_AA)
        x, y = pts.min(axis=0)
        cv2.putText(out, f"{conf:.2f}", (int(x), int(y) - 2), cv2.FONT_HERSHEY_SIMPLEX,
                    0.35 * thick, COLOURS.get(int(cls), (255, 255, 255)), thick, cv2.LINE_AA)
    if missed_halves is not None:
        for a, b in np.asarray(missed_halves).reshape(-1, 2, 2):
            cv2.line(out, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), MISSED, 2 * thick)
            cv2.circle(out, tuple(np.round(a).astype(int)), 3 * thick, MISSED, -1)
    return out
