"""Decoding the raw Ultralytics OBB output layout: (1, 4 + nc + 1, anchors)."""

import numpy as np
import pytest

from vision.detect.decode import decode_obb, suppress


def _raw(rows: list[tuple[float, float, float, float, float, float, float]], anchors: int = 32):
    """rows: (cx, cy, w, h, score_up, score_down, angle); other anchors score zero."""
    out = np.zeros((1, 7, anchors), np.float32)
    for k, row in enumerate(rows):
        out[0, :, k] = row
    return out


def test_decode_keeps_boxes_above_threshold_with_best_class_and_angle():
    raw = _raw([
        (100, 80, 60, 30, 0.9, 0.1, 0.5),
        (300, 200, 50, 25, 0.2, 0.8, -1.0),
        (500, 500, 40, 20, 0.1, 0.2, 0.0),  # below 0.25
    ])
    boxes = decode_obb(raw, 2, 0.25)
    assert len(boxes) == 2
    assert boxes.class_id.tolist() == [0, 1]
    assert boxes.confidence.tolist() == pytest.approx([0.9, 0.8])
    assert np.allclose(boxes.xywhr, [[100, 80, 60, 30, 0.5], [300, 200, 50, 25, -1.0]])


def test_decode_then_nms_removes_overlapping_anchor_duplicates():
    raw = _raw([
        (100, 80, 60, 30, 0.9, 0.0, 0.0),
        (102, 81, 60, 30, 0.7, 0.0, 0.05),  # same tile from a neighbouring anchor
        (100, 80, 60, 30, 0.0, 0.6, 0.0),   # same tile, other class: agnostic NMS drops it
        (200, 80, 60, 30, 0.5, 0.0, 0.0),
    ])
    kept = suppress(decode_obb(raw, 2, 0.25), 0.7)
    assert kept.confidence.tolist() == pytest.approx([0.9, 0.5])
    class_aware = suppress(decode_obb(raw, 2, 0.25), 0.7, agnostic=False)
    assert len(class_aware) == 3


def test_decode_rejects_a_model_with_other_outputs():
    with pytest.raises(ValueError, match="OBB output has 6 rows"):
        decode_obb(np.zeros((1, 6, 10), np.float32), 2, 0.25)
