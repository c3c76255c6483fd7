"""python benchmarks/diagnose/rows_show.py SET NAME OUT.png [x0 y0 x1 y1]: the network's boxes (green), boxes the
row completion added (blue), truth tiles (red, thin)."""
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.detect import DEFAULT_MODEL, DetectorSettings, TileDetector
from vision.detect.rows import RowSettings, complete_rows
from vision.read.evaluate import load_frame, load_truth

ti = next(t for t in load_truth(Path(sys.argv[1])) if t.name == sys.argv[2])
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
if len(sys.argv) > 4:
    x0, y0, x1, y1 = map(int, sys.argv[4:8])
    img = img[y0:y1, x0:x1]
    img = cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
cv2.imwrite(sys.argv[3], img)
