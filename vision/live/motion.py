"""Motion gating on a small grey frame: is the scene settled, is an arm over the table, and from
which table edge did it come.

Two differences per frame: against the previous frame (something is moving) and against the last
settled frame, the background (something new is there, moving or not). A changed blob that touches
a band along a table edge is an arm reaching in from that edge; the detector runs only on settled
frames with no arm. Global light flicker is removed by subtracting the median difference.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.live.calibration import EDGES, TableCalibration


@dataclass(frozen=True)
class MotionInfo:
    """The gate's verdict on one frame."""

    settled: bool  # still long enough and no arm over the table: run the detector
    arm: bool  # a changed blob touches a table edge
    edge: str | None  # the edge that blob touches most (where the arm entered)
    moving: float  # fraction of table pixels changed since the previous frame
    changed: float  # fraction of table pixels changed since the last settled frame


SETTLED = MotionInfo(settled=True, arm=False, edge=None, moving=0.0, changed=0.0)


def arm_from(edge: str) -> MotionInfo:
    """An unsettled frame with an arm over `edge` (for tests and replays without pixels)."""
    return MotionInfo(settled=False, arm=True, edge=edge, moving=0.1, changed=0.1)


@dataclass
class MotionConfig:
    work_width: int = 160
    threshold: int = 22  # grey levels, after the median is removed
    moving_frac: float = 0.002  # above this share of moving pixels the scene is moving
    settle_s: float = 0.25  # still for this long before it counts as settled
    max_still_s: float = 1.0  # a still change at an edge this long becomes background (hands laid out)
    band: float = 0.07  # width of the edge bands, as a share of the table
    arm_frac: float = 0.004  # smallest blob, as a share of the table, taken for an arm


class MotionGate:
    """Feed every frame in order: `update(frame, t) -> MotionInfo`."""

    def __init__(self, calibration: TableCalibration, config: MotionConfig | None = None) -> None:
        self.calibration = calibration
        self.config = config or MotionConfig()
        self._shape: tuple[int, int] | None = None
        self._prev: np.ndarray | None = None
        self._background: np.ndarray | None = None
        self._still_since: float | None = None

    def set_calibration(self, calibration: TableCalibration) -> None:
        self.calibration = calibration
        self._shape = None  # rebuild the masks on the next frame

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        cw = self.config.work_width
        ch = max(1, round(h * cw / w))
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (cw, ch), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (5, 5), 0).astype(np.int16)
        if self._shape != (ch, cw):
            self._build_masks(w, h, cw, ch)
            self._prev = None
            self._background = None
        return small

    def _build_masks(self, w: int, h: int, cw: int, ch: int) -> None:
        calib = self.calibration.scaled(cw / w, ch / h) if self.calibration.size is None else (
            self.calibration.scaled(cw / self.calibration.size[0], ch / self.calibration.size[1])
        )
        ys, xs = np.mgrid[0:ch, 0:cw].astype(np.float32)
        pts = np.stack([xs.ravel(), ys.ravel()], axis=1)[None]
        uv = cv2.perspectiveTransform(pts, calib._to_unit)[0]  # type: ignore[attr-defined]
        u = uv[:, 0].reshape(ch, cw)
        v = uv[:, 1].reshape(ch, cw)
        inside = (u >= -0.02) & (u <= 1.02) & (v >= -0.02) & (v <= 1.02)
        b = self.config.band
        self._inside = inside
        self._table_px = max(1, int(inside.sum()))
        self._bands = {
            "top": inside & (v < b),
            "bottom": inside & (v > 1 - b),
            "left": inside & (u < b),
            "right": inside & (u > 1 - b),
        }
        self._shape = (ch, cw)

    def _mask(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        diff = np.abs(a - b)
        inside = diff[self._inside]
        level = float(np.median(inside)) if inside.size else 0.0
        return (diff > level + self.config.threshold) & self._inside

    def update(self, frame: np.ndarray, t: float) -> MotionInfo:
        cfg = self.config
        small = self._prepare(frame)
        if self._prev is None:
            self._prev = small
            self._background = small
            self._still_since = t
            return MotionInfo(False, False, None, 0.0, 0.0)
        moving_mask = self._mask(small, self._prev)
        self._prev = small
        moving = float(moving_mask.sum()) / self._table_px
        changed_mask = self._mask(small, self._background)  # type: ignore[arg-type]
        changed_mask = cv2.morphologyEx(
            changed_mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
        )
        changed = float(changed_mask.sum()) / self._table_px
        edge = self._arm_edge(changed_mask | moving_mask.astype(np.uint8))

        if moving > cfg.moving_frac:
            self._still_since = None
        elif self._still_since is None:
            self._still_since = t
        still_for = 0.0 if self._still_since is None else t - self._still_since
        # A change resting at an edge for long (a cup, a forearm at rest) becomes background.
        arm = edge is not None and still_for < cfg.max_still_s
        settled = still_for >= cfg.settle_s and not arm
        if settled:
            self._background = small
        return MotionInfo(settled, arm, edge if arm else None, moving, changed)

    def _arm_edge(self, mask: np.ndarray) -> str | None:
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        min_area = self.config.arm_frac * self._table_px
        best, best_count = None, 0
        for k in range(1, n):
            if stats[k, cv2.CC_STAT_AREA] < min_area:
                continue
            blob = labels == k
            for name in EDGES:
                count = int((blob & self._bands[name]).sum())
                if count > best_count:
                    best, best_count = name, count
        return best if best_count >= 4 else None
