"""Phantom tiles: the reader's tiles that match no true tile, with what lies under them.
python -m lab.diagnose.phantoms SET [SET...]  (e.g. datasets/generated/matrix/1280x960/baseline)"""
import collections
import sys
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.reader import read_frame


def _overlap_truth(quad, tiles):
    """Share of the box lying on each true tile."""
    a = quad.astype(np.float32)
    area = max(abs(cv2.contourArea(a)), 1e-9)
    return [float(cv2.intersectConvexConvex(a, t.corners.astype(np.float32))[0]) / area
            for t in tiles if t.corners is not None]


def main(argv: list[str]) -> None:
    det = TileDetector(DEFAULT_MODEL)
    for root in argv:
        kinds = collections.Counter()
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            d = det.detect(frame)
            reading = read_frame(frame, d, doubtful=det.last.doubtful)
            quads = np.array([t.quad for t in reading.tiles], float).reshape(-1, 4, 2)
            m = match(quads, ti.tiles)
            typical = float(np.median([2 * t.width for t in ti.tiles])) if ti.tiles else 0
            for i, t in enumerate(reading.tiles):
                if i in m:
                    continue
                under = _overlap_truth(quads[i], ti.tiles)
                n_under = sum(1 for s in under if s > 0.2)
                kind = "on nothing" if not n_under else "across two tiles" if n_under >= 2 else "on one tile"
                kinds[kind] += 1
                print(Path(root).name, ti.name, t.face, t.values, f"len {t.width * 2:.0f}/{typical:.0f}",
                      f"det {t.detection_confidence:.2f}", kind, [round(s, 2) for s in under if s > 0.05], flush=True)
        print(Path(root).name, dict(kinds), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
