"""The tile detector's runtime: an Ultralytics YOLO-OBB model exported to ONNX, run by onnxruntime.

Nothing here imports torch or ultralytics (the training side lives in `lab.detect.training`,
imported only by `dominocam train`).
"""

from vision.detect.detections import CLASS_NAMES, Detections
from vision.detect.detector import (
           DEFAULT_MODEL,
           LIVE_MODEL,
           DetectorSettings,
           TileDetector,
           live_model,
)

__all__ = ["CLASS_NAMES", "DEFAULT_MODEL", "LIVE_MODEL", "Detections", "DetectorSettings", "TileDetector",
           "live_model"]
