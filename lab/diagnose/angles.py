"""Detected boxes whose angle is off their true tile's: how far, and what the reader made of them.
python -m lab.diagnose.angles SET [SET...]   (runs the detector)"""
import sys
from pathlib import Path

import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.box import box_from_corners
from vision.read.reader import read_frame


def main(argv: list[str]) -> None:
    det = TileDetector(DEFAULT_MODEL)
    for root in argv:
        hist = {}
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            reading = read_frame(frame, det.detect(frame))
            m = match(np.array([t.quad for t in reading.tiles], float).reshape(-1, 4, 2), ti.tiles)
            for i, j in m.items():
                t, r = ti.tiles[j], reading.tiles[i]
                a = box_from_corners(t.corners).u
                off = np.degrees(np.arccos(min(1.0, abs(float(np.dot(a, r.u))))))
                b = int(off // 10) * 10
                ok = t.face != "up" or list(r.half_values) in (list(t.values), list(t.values)[::-1])
                h = hist.setdefault(b, [0, 0])
                h[0] += 1
                h[1] += int(ok)
                if off >= 15:
                    print(Path(root).name, ti.name, f"off {off:.0f}", t.face, t.values, "->", r.half_values,
                          np.round(r.half_confidence, 2).tolist(), f"len {2 * t.width:.0f}", flush=True)
        print(Path(root).name, "angle off (10 deg bins): [boxes, read right]", dict(sorted(hist.items())), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
