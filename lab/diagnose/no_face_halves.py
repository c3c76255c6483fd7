"""Halves the classifier takes for no tile face while the tile's other half reads: are they blank
halves of true tiles or false boxes? One line per such box with the features that could tell.
python -m lab.diagnose.no_face_halves SET [SET...]   (runs the detector)"""
import sys
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.box import box_from_corners, warp_quad
from vision.read.pips import colour_distance
from vision.read.reader import detection_jobs
from vision.read.tile import HALF, PAD, cut_halves, find_divider, read_tiles, shows_no_face


def main(argv: list[str]) -> None:
    det = TileDetector(DEFAULT_MODEL)
    for root in argv:
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            d = det.detect(frame)
            jobs = detection_jobs(d)
            tiles = read_tiles(frame, jobs)
            m = match(np.array([t.quad for t in tiles], float).reshape(-1, 4, 2), ti.tiles)
            for i, t in enumerate(tiles):
                if t.face != "up" or shows_no_face(t, 0) == shows_no_face(t, 1):
                    continue
                k = 0 if shows_no_face(t, 0) else 1
                crop, _ = warp_quad(frame, t.quad, HALF, PAD)
                lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
                div = find_divider(lab, PAD)
                cuts = cut_halves(lab, PAD, div)
                de = float(colour_distance(cuts[0].body[None, None].astype(np.float32), cuts[1].body.astype(np.float32))[0, 0])
                if i in m:
                    tt = ti.tiles[m[i]]
                    kk = k if np.hypot(*(t.halves[k] - tt.halves[0])) < np.hypot(*(t.halves[k] - tt.halves[1])) else 1 - k
                    what = f"true:{tt.values[kk] if tt.values else 'down'}"
                else:
                    what = "false"
                print(Path(root).name, ti.name, what, f"det {t.detection_confidence:.2f}", f"other {t.half_values[1-k]}@{t.half_confidence[1-k]:.2f}",
                      f"blob {cuts[k].blobs.value}", f"div {'y' if div is not None else 'n'}", f"dE {de:.1f}",
                      f"len {box_from_corners(t.quad).length:.0f}", t.reasons[k][-6:], flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
