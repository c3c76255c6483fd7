"""Oriented-box geometry, letterboxing and rotated NMS, on hand-made arrays."""

import numpy as np
import pytest

from vision.detect.detections import Detections
from vision.detect.obb import (
    corners_to_xywhr,
    letterbox,
    paired_probiou,
    probiou,
    rotated_nms,
    xywhr_to_corners,
)


def test_corners_round_trip_keeps_centre_size_and_direction():
    rng = np.random.default_rng(3)
    boxes = np.column_stack([
        rng.uniform(0, 500, (50, 2)), rng.uniform(10, 90, (50, 2)), rng.uniform(-3, 3, 50)
    ]).astype(np.float32)
    back = corners_to_xywhr(xywhr_to_corners(boxes))
    assert np.allclose(back[:, :4], boxes[:, :4], atol=1e-3)
    # same direction modulo a full turn
    assert np.allclose(np.cos(back[:, 4] - boxes[:, 4]), 1.0, atol=1e-5)


def test_corners_follow_ultralytics_order():
    corners = xywhr_to_corners(np.float32([[100, 50, 40, 20, 0]]))[0]
    # pt1 = c + v1 + v2 with v1 along +x (w/2), v2 along +y (h/2)
    assert np.allclose(corners, [[120, 60], [120, 40], [80, 40], [80, 60]])


def test_probiou_is_one_for_identical_and_near_zero_for_far_boxes():
    a = np.float32([[100, 100, 60, 30, 0.3]])
    b = np.float32([[400, 100, 60, 30, 0.3]])
    assert probiou(a, a)[0, 0] == pytest.approx(1.0, abs=1e-3)
    assert probiou(a, b)[0, 0] < 1e-3


def test_probiou_sees_rotation():
    a = np.float32([[100, 100, 60, 20, 0.0]])
    same_turned_half = np.float32([[100, 100, 60, 20, np.pi]])
    crossed = np.float32([[100, 100, 60, 20, np.pi / 2]])
    assert probiou(a, same_turned_half)[0, 0] == pytest.approx(1.0, abs=1e-3)
    assert probiou(a, crossed)[0, 0] < 0.6


def test_rotated_nms_drops_duplicates_and_keeps_touching_neighbours():
    boxes = np.float32([
        [100, 100, 60, 30, 0.0],   # tile A
        [101, 100, 60, 30, 0.02],  # duplicate of A, lower score
        [100, 130, 60, 30, 0.0],   # neighbour touching A's long side
        [300, 300, 60, 30, 1.0],   # far away
    ])
    scores = np.float32([0.9, 0.8, 0.7, 0.6])
    keep = rotated_nms(boxes, scores, 0.7)
    assert sorted(keep.tolist()) == [0, 2, 3]
    assert keep[0] == 0  # best first


def test_rotated_nms_class_aware_keeps_other_class():
    boxes = np.float32([[100, 100, 60, 30, 0.0], [101, 100, 60, 30, 0.0]])
    scores = np.float32([0.9, 0.8])
    assert rotated_nms(boxes, scores, 0.7).tolist() == [0]
    assert sorted(rotated_nms(boxes, scores, 0.7, class_id=np.array([0, 1])).tolist()) == [0, 1]


def _full_matrix_nms(xywhr, scores, iou_threshold, class_id=None):
    """The reference: Fast-NMS over every pair's probabilistic IoU."""
    order = np.argsort(-scores, kind="stable")
    ious = probiou(xywhr[order], xywhr[order])
    if class_id is not None:
        cls = class_id[order]
        ious = np.where(cls[:, None] == cls[None, :], ious, 0.0)
    return order[(np.triu(ious, k=1) > iou_threshold).sum(axis=0) == 0]


@pytest.mark.parametrize("iou_threshold", [0.05, 0.3, 0.6, 0.7, 0.95])
def test_rotated_nms_skipping_far_pairs_keeps_what_every_pair_keeps(iou_threshold):
    rng = np.random.default_rng(11)
    for _ in range(40):
        n = int(rng.integers(1, 300))
        spread = rng.choice([40.0, 300.0, 1500.0])  # crowded clusters to sparse frames
        boxes = np.column_stack([rng.uniform(0, spread, (n, 2)), rng.uniform(2, 120, n),
                                 rng.uniform(1, 60, n), rng.uniform(-3, 3, n)]).astype(np.float32)
        scores = rng.random(n).astype(np.float32)
        cls = rng.integers(0, 2, n)
        assert np.array_equal(rotated_nms(boxes, scores, iou_threshold),
                              _full_matrix_nms(boxes, scores, iou_threshold))
        assert np.array_equal(rotated_nms(boxes, scores, iou_threshold, cls),
                              _full_matrix_nms(boxes, scores, iou_threshold, cls))


def test_paired_probiou_matches_the_matrix():
    rng = np.random.default_rng(5)
    a = np.column_stack([rng.uniform(0, 200, (30, 2)), rng.uniform(5, 80, (30, 2)), rng.uniform(-3, 3, 30)])
    b = a + rng.normal(0, 10, a.shape)
    assert np.array_equal(paired_probiou(a, b), np.diag(probiou(a, b)))


def test_letterbox_maps_points_back_to_the_frame():
    frame = np.zeros((300, 800, 3), np.uint8)
    net, box = letterbox(frame, 640)
    assert net.shape == (640, 640, 3)
    assert box.gain_x == pytest.approx(0.8) and box.pad_x == 0 and box.pad_y == 200
    # frame point (400, 150) lands at (320, 320) in the network input
    assert np.allclose(box.to_frame(np.float32([[320, 320]])), [[400, 150]])
    assert (net[:200] == 114).all()  # padding rows are Ultralytics' grey


def test_letterbox_without_scaleup_pads_a_small_crop():
    crop = np.full((200, 640, 3), 7, np.uint8)
    net, box = letterbox(crop, 640, scaleup=False)
    assert box.gain_x == 1.0 and box.pad_x == 0 and box.pad_y == 220
    assert (net[220:420] == 7).all()


def test_letterbox_with_a_stride_pads_only_to_the_next_multiple():
    frame = np.full((1080, 1920, 3), 9, np.uint8)
    net, box = letterbox(frame, 640, stride=32)
    assert net.shape == (384, 640, 3)  # 1080 * 640 / 1920 = 360 rows, padded to 384
    assert box.pad_x == 0 and box.pad_y == 12
    assert np.allclose(box.to_frame(np.float32([[320, 12 + 180]])), [[960, 540]], atol=1.5)
    assert (net[:12] == 114).all() and (net[12:372] == 9).all()


def test_detections_columns_must_agree():
    with pytest.raises(ValueError, match="disagree"):
        Detections(np.zeros((2, 4, 2)), np.zeros(3), np.zeros(2, np.int64))
    dets = Detections(
        xywhr_to_corners(np.float32([[10, 10, 40, 20, 0], [50, 50, 80, 40, 0]])),
        np.float32([0.5, 0.9]), np.array([0, 1]),
    )
    assert dets.long_side.tolist() == pytest.approx([40, 80])
    assert dets.face == ["up", "down"]
    assert len(dets[dets.confidence > 0.6]) == 1
    assert len(Detections.concat([dets, Detections.empty(), dets])) == 4
