"""Pure numpy geometry for oriented boxes: conversions, letterboxing, probabilistic IoU, rotated NMS.

The conventions follow Ultralytics' OBB head so that decoding the ONNX output here gives the same
boxes as `YOLO(...).predict` (xywhr, angle in radians, corners pt1..pt4 from
`ultralytics.utils.ops.xywhr2xyxyxyxy`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PAD_VALUE = 114  # Ultralytics' letterbox grey


@dataclass(frozen=True)
class Letterbox:
    """How a frame was mapped into the network input: input = frame * gain + pad."""

    gain_x: float
    gain_y: float
    pad_x: int
    pad_y: int

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        """Map (..., 2) network-input points back to frame pixels."""
        out = np.asarray(points, np.float32).copy()
        out[..., 0] = (out[..., 0] - self.pad_x) / self.gain_x
        out[..., 1] = (out[..., 1] - self.pad_y) / self.gain_y
        return out


def letterbox(image: np.ndarray, size: int, *, scaleup: bool = True,
              stride: int | None = None) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping aspect ratio so the long side is `size` and pad, centred, as Ultralytics'
    LetterBox does: to size x size, or with `stride` (a model with dynamic input) only up to the
    next multiple of the stride on each side, which spends no network time on padding."""
    h, w = image.shape[:2]
    r = min(size / h, size / w)
    if not scaleup:
        r = min(r, 1.0)
    new_w, new_h = max(round(w * r), 1), max(round(h * r), 1)
    if (new_w, new_h) != (w, h):
        image = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    out_w, out_h = (size, size) if stride is None else (-(-new_w // stride) * stride, -(-new_h // stride) * stride)
    dw, dh = (out_w - new_w) / 2, (out_h - new_h) / 2
    top, bottom = round(dh - 0.1), round(dh + 0.1)
    left, right = round(dw - 0.1), round(dw + 0.1)
    image = cv2.copyMakeBorder(
        image, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(PAD_VALUE,) * 3
    )
    return image, Letterbox(new_w / w, new_h / h, left, top)


def xywhr_to_corners(xywhr: np.ndarray) -> np.ndarray:
    """(N, 5) -> (N, 4, 2) corners, in Ultralytics' order."""
    xywhr = np.asarray(xywhr, np.float32).reshape(-1, 5)
    ctr = xywhr[:, None, :2]
    w, h, a = xywhr[:, 2:3], xywhr[:, 3:4], xywhr[:, 4:5]
    cos, sin = np.cos(a), np.sin(a)
    v1 = np.concatenate([w / 2 * cos, w / 2 * sin], axis=1)[:, None, :]
    v2 = np.concatenate([-h / 2 * sin, h / 2 * cos], axis=1)[:, None, :]
    return np.concatenate([ctr + v1 + v2, ctr + v1 - v2, ctr - v1 - v2, ctr - v1 + v2], axis=1)


def corners_to_xywhr(corners: np.ndarray) -> np.ndarray:
    """(N, 4, 2) rectangle corners (any starting corner, either direction) -> (N, 5) xywhr.

    Width is the side pt2->pt3 and height pt1->pt2, the inverse of `xywhr_to_corners`.
    """
    c = np.asarray(corners, np.float32).reshape(-1, 4, 2)
    ctr = c.mean(axis=1)
    side_w = c[:, 2] - c[:, 1]
    side_h = c[:, 1] - c[:, 0]
    w = np.linalg.norm(side_w, axis=1)
    h = np.linalg.norm(side_h, axis=1)
    # pt2 - pt3 = 2 * v1 = w * (cos a, sin a)
    a = np.arctan2(-side_w[:, 1], -side_w[:, 0])
    return np.column_stack([ctr, w, h, a]).astype(np.float32)


def _covariance(xywhr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = xywhr[..., 2] ** 2 / 12
    b = xywhr[..., 3] ** 2 / 12
    cos, sin = np.cos(xywhr[..., 4]), np.sin(xywhr[..., 4])
    return a * cos**2 + b * sin**2, a * sin**2 + b * cos**2, (a - b) * cos * sin


def probiou(obb1: np.ndarray, obb2: np.ndarray, eps: float = 1e-7) -> np.ndarray:
    """(N, 5) x (M, 5) -> (N, M) probabilistic IoU, as Ultralytics' batch_probiou (arXiv 2106.06072)."""
    obb1 = np.asarray(obb1, np.float64).reshape(-1, 5)
    obb2 = np.asarray(obb2, np.float64).reshape(-1, 5)
    return _probiou(obb1[:, None, :], obb2[None, :, :], eps)


def paired_probiou(obb1: np.ndarray, obb2: np.ndarray, eps: float = 1e-7) -> np.ndarray:
    """(K, 5) x (K, 5) -> (K,) probabilistic IoU of each box with its partner (same values as `probiou`)."""
    return _probiou(np.asarray(obb1, np.float64).reshape(-1, 5), np.asarray(obb2, np.float64).reshape(-1, 5), eps)


def _probiou(obb1: np.ndarray, obb2: np.ndarray, eps: float) -> np.ndarray:
    """Probabilistic IoU of boxes (..., 5) broadcast against each other."""
    x1, y1, x2, y2 = obb1[..., 0], obb1[..., 1], obb2[..., 0], obb2[..., 1]
    a1, b1, c1 = _covariance(obb1)
    a2, b2, c2 = _covariance(obb2)
    den = (a1 + a2) * (b1 + b2) - (c1 + c2) ** 2 + eps
    t1 = ((a1 + a2) * (y1 - y2) ** 2 + (b1 + b2) * (x1 - x2) ** 2) / den * 0.25
    t2 = ((c1 + c2) * (x2 - x1) * (y1 - y2)) / den * 0.5
    det1 = np.clip(a1 * b1 - c1**2, 0, None)
    det2 = np.clip(a2 * b2 - c2**2, 0, None)
    t3 = np.log(den / (4 * np.sqrt(det1 * det2) + eps) + eps) * 0.5
    bd = np.clip(t1 + t2 + t3, eps, 100.0)
    return 1.0 - np.sqrt(1.0 - np.exp(-bd) + eps)


def _may_overlap(xywhr: np.ndarray, iou_threshold: float) -> np.ndarray:
    """(N, N) bool: the pairs whose probabilistic IoU can exceed `iou_threshold`; for the others it
    certainly does not, so NMS need not compute it. The Bhattacharyya distance of two boxes is at
    least d^2 / (4 * (l1^2 + l2^2) / 12), d their centres' distance and l their longer sides (the
    Gaussians' widest variance is l^2 / 12; the log-determinant term is never negative), and the
    IoU exceeds t only below the distance -ln(1 - (1 - t)^2); pairs within twice that bound are kept."""
    b = -np.log(max(1.0 - (1.0 - iou_threshold) ** 2, 1e-12))
    x, y = xywhr[:, 0], xywhr[:, 1]
    dx, dy = x[:, None] - x[None, :], y[:, None] - y[None, :]
    longer2 = np.maximum(xywhr[:, 2], xywhr[:, 3]) ** 2 * (2.0 * b / 3.0)
    return dx * dx + dy * dy <= longer2[:, None] + longer2[None, :]


def rotated_nms(
    xywhr: np.ndarray,
    scores: np.ndarray,
    iou_threshold: float,
    class_id: np.ndarray | None = None,
) -> np.ndarray:
    """Indices of the boxes to keep, best score first.

    Fast-NMS as in Ultralytics (a box is dropped when any higher-scored box overlaps it by more than
    iou_threshold in probabilistic IoU). With class_id, only boxes of the same class suppress each
    other; without it the suppression is class-agnostic.
    """
    scores = np.asarray(scores)
    if len(scores) == 0:
        return np.zeros(0, np.int64)
    order = np.argsort(-scores, kind="stable")
    boxes = np.asarray(xywhr, np.float64).reshape(-1, 5)[order]
    near = np.triu(_may_overlap(boxes, iou_threshold), k=1)
    if class_id is not None:
        cls = np.asarray(class_id)[order]
        near &= cls[:, None] == cls[None, :]
    # only the pairs that can overlap (a few per box, not N^2: 280 candidate boxes of a frame took
    # 3.7 ms as a full matrix); the result is the same
    first, second = np.nonzero(near)
    suppressed = np.zeros(len(order), bool)
    suppressed[second[paired_probiou(boxes[first], boxes[second]) > iou_threshold]] = True
    return order[~suppressed]
