"""One image's misread tiles: the reader's quad against the truth and the crop it read.
python -m lab.diagnose.misread SET NAME OUT.png"""
import sys
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.reader import read_frame
from vision.read.tile import rectify


def main(argv: list[str]) -> None:
    ti = next(t for t in load_truth(Path(argv[0])) if t.name == argv[1])
    frame = load_frame(ti)
    reading = read_frame(frame, TileDetector(DEFAULT_MODEL).detect(frame))
    quads = np.array([t.quad for t in reading.tiles], float).reshape(-1, 4, 2)
    m = match(quads, ti.tiles)
    cells = []
    for i, j in m.items():
        t, r = ti.tiles[j], reading.tiles[i]
        if t.face != "up" or t.values is None or r.face != "up":
            continue
        vals = list(r.half_values)
        if np.hypot(*(r.halves[0] - t.halves[0])) > np.hypot(*(r.halves[0] - t.halves[1])):
            vals = vals[::-1]
        if vals == list(t.values):
            continue
        tq = np.asarray(t.corners, float).reshape(4, 2)
        print(t.values, "->", vals, "conf", np.round(r.half_confidence, 2), r.reasons if hasattr(r, "reasons") else "",
              "\n   truth halves", np.round(t.halves, 1).tolist(), "read halves", np.round(r.halves, 1).tolist(),
              "\n   truth quad", np.round(tq, 0).tolist(), "\n   read quad", np.round(r.quad, 0).tolist())
        a = rectify(frame, r.quad)
        cells.append(cv2.resize(a, (256, 128)))
    if cells:
        cv2.imwrite(argv[2], np.vstack(cells))


if __name__ == "__main__":
    main(sys.argv[1:])
