"""Check the ONNX decoding of vision.detect against Ultralytics' own predictions (training side).

    python -m lab.detect.compare_ultralytics models/tiles-obb.pt models/tiles-obb.onnx IMAGE... [--conf 0.1]

Imports torch and ultralytics: never used at run time.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import cv2
import numpy as np


def compare(pt: Path, onnx: Path, image: Path, conf: float) -> dict:
    from ultralytics import YOLO

    from vision.detect import DetectorSettings, TileDetector
    from vision.detect.obb import probiou

    frame = cv2.imread(str(image))
    det = TileDetector(onnx, DetectorSettings(conf=conf, slicing=False))
    ours = det.detect(frame)
    out = {"image": str(image), "ours": len(ours)}
    # the .onnx through Ultralytics uses the same static letterbox; the .pt may pad to a rectangle
    for label, weights in (("ultralytics_onnx", onnx), ("ultralytics_pt", pt)):
        r = YOLO(str(weights), task="obb").predict(
            frame, imgsz=det.imgsz, conf=conf, iou=det.settings.iou, agnostic_nms=True, verbose=False
        )[0]
        theirs = r.obb.xywhr.numpy()
        row = {"boxes": len(theirs)}
        if len(theirs) and len(ours):
            iou = probiou(theirs, ours.xywhr)
            j = iou.argmax(1)
            corners = r.obb.xyxyxyxy.numpy()
            diff = np.abs(corners[:, :, None] - ours.corners[j][:, None]).max(-1).min(-1).max(-1)
            row.update(min_probiou=round(float(iou.max(1).min()), 4),
                       max_corner_px=round(float(diff.max()), 3),
                       max_conf_diff=round(float(np.abs(r.obb.conf.numpy() - ours.confidence[j]).max()), 4))
        out[label] = row
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("pt", type=Path)
    p.add_argument("onnx", type=Path)
    p.add_argument("images", type=Path, nargs="+")
    p.add_argument("--conf", type=float, default=0.1)
    p.add_argument("--config-dir", type=Path, default=Path(".ultralytics"))
    args = p.parse_args()
    os.environ.setdefault("YOLO_CONFIG_DIR", str(args.config_dir.resolve()))
    os.environ.setdefault("YOLO_OFFLINE", "1")
    for image in args.images:
        print(json.dumps(compare(args.pt, args.onnx, image, args.conf)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
