"""python -m lab.diagnose.rows_show SET NAME OUT.png [x0 y0 x1 y1]: the network's boxes (green), boxes the
row completion added (blue), truth tiles (red, thin)."""
import sys
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import load_frame, load_truth
from vision.detect import DEFAULT_MODEL, DetectorSettings, TileDetector
from vision.detect.rows import RowSettings, complete_rows


def main(argv: list[str]) -> None:
    ti = next(t for t in load_truth(Path(argv[0])) if t.name == argv[1])
    frame = load_frame(ti)
    d = TileDetector(DEFAULT_MODEL, DetectorSettings(rows=RowSettings(enabled=False))).detect(frame)
    e = complete_rows(frame, d)
    img = frame.copy()
    for t in ti.tiles:
        cv2.polylines(img, [np.asarray(t.corners, np.int32).reshape(4, 2)], True, (0, 0, 255), 1)
    old = {tuple(np.round(c.ravel(), 1)) for c in d.corners}
    for c, k in zip(d.corners, d.class_id, strict=True):
        cv2.polylines(img, [c.astype(np.int32)], True, (0, 255, 0) if k == 0 else (0, 200, 255), 1)
    for c in e.corners:
        if tuple(np.round(c.ravel(), 1)) not in old:
            cv2.polylines(img, [c.astype(np.int32)], True, (255, 0, 0), 2)
    if len(argv) > 3:
        x0, y0, x1, y1 = map(int, argv[3:7])
        img = img[y0:y1, x0:x1]
        img = cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(argv[2], img)


if __name__ == "__main__":
    main(sys.argv[1:])
