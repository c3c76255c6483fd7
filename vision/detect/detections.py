"""The detector's result: parallel numpy columns, one row per oriented tile box."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detect.obb import corners_to_xywhr

# Class ids of the training labels (CONTRACTS.md, rendered data).
CLASS_NAMES: tuple[str, ...] = ("tile_up", "tile_down")


@dataclass(frozen=True)
class Detections:
    """Oriented tile boxes in ORIGINAL frame pixels.

    corners: (N, 4, 2) float32, each box's corners in order around the rectangle.
    confidence: (N,) float32 detector score.
    class_id: (N,) int64 index into CLASS_NAMES (0 face up, 1 face down).
    """

    corners: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.confidence)
        if self.corners.shape != (n, 4, 2) or self.class_id.shape != (n,):
            raise ValueError(
                f"Detections columns disagree: corners {self.corners.shape}, "
                f"confidence {self.confidence.shape}, class_id {self.class_id.shape}"
            )

    @classmethod
    def empty(cls) -> Detections:
        return cls(
            np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64)
        )

    @classmethod
    def concat(cls, parts: list[Detections]) -> Detections:
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.corners for p in parts]).astype(np.float32),
            np.concatenate([p.confidence for p in parts]).astype(np.float32),
            np.concatenate([p.class_id for p in parts]).astype(np.int64),
        )

    def __len__(self) -> int:
        return len(self.confidence)

    def __getitem__(self, index) -> Detections:
        """Rows selected by a boolean mask, an index array or a slice."""
        if isinstance(index, int | np.integer):
            index = [int(index)]
        return Detections(self.corners[index], self.confidence[index], self.class_id[index])

    @property
    def xywhr(self) -> np.ndarray:
        """(N, 5) centre x, centre y, width, height, angle in radians."""
        return corners_to_xywhr(self.corners)

    @property
    def long_side(self) -> np.ndarray:
        """(N,) length of each box's long side in frame pixels."""
        wh = self.xywhr[:, 2:4]
        return wh.max(axis=1) if len(wh) else np.zeros(0, np.float32)

    @property
    def face(self) -> list[str]:
        """'up' or 'down' per row."""
        return ["down" if c == 1 else "up" for c in self.class_id]
