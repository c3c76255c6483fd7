"""Decoding the raw output of an Ultralytics OBB model exported to ONNX (no NMS in the graph)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detect.obb import rotated_nms


@dataclass(frozen=True)
class RawBoxes:
    """Boxes in network-input pixels: xywhr (N, 5), confidence (N,), class_id (N,)."""

    xywhr: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray

    def __len__(self) -> int:
        return len(self.confidence)

    def take(self, index: np.ndarray) -> RawBoxes:
        return RawBoxes(self.xywhr[index], self.confidence[index], self.class_id[index])


def decode_obb(output: np.ndarray, num_classes: int, conf_threshold: float) -> RawBoxes:
    """(1, 4 + nc + 1, A) -> candidate boxes above conf_threshold (best class per anchor).

    Rows are centre x, centre y, width, height, one score per class, then the angle in radians.
    """
    pred = np.asarray(output)
    if pred.ndim == 3:
        if pred.shape[0] != 1:
            raise ValueError(f"decode_obb takes one image at a time, got batch {pred.shape[0]}")
        pred = pred[0]
    expected = 4 + num_classes + 1
    if pred.shape[0] != expected:
        raise ValueError(
            f"OBB output has {pred.shape[0]} rows, expected {expected} for {num_classes} classes: "
            "is this an Ultralytics OBB model exported with nms=False?"
        )
    scores = pred[4 : 4 + num_classes]
    class_id = scores.argmax(axis=0)
    confidence = scores.max(axis=0)
    keep = confidence > conf_threshold
    xywhr = np.concatenate([pred[:4, keep], pred[-1:, keep]], axis=0).T.astype(np.float32)
    return RawBoxes(xywhr, confidence[keep].astype(np.float32), class_id[keep].astype(np.int64))


def suppress(
    boxes: RawBoxes, iou_threshold: float, *, agnostic: bool = True, max_det: int = 300
) -> RawBoxes:
    """Rotated NMS; agnostic by default because a tile is either face up or face down, never both."""
    keep = rotated_nms(
        boxes.xywhr, boxes.confidence, iou_threshold, None if agnostic else boxes.class_id
    )
    return boxes.take(keep[:max_det])
