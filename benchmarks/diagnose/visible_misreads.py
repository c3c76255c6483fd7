"""Misread tiles that are fully visible, read on the renderer's boxes (with detector-like box errors,
as `dominocam eval --truth-boxes`): one line each with the scene's conditions, the tile's length and
the half confidences. python benchmarks/diagnose/visible_misreads.py SET [SET...]"""
import sys
from pathlib import Path

import numpy as np

from vision.read.evaluate import FULLY_VISIBLE, Scores, load_frame, load_truth, score_image
from vision.read.reader import read_frame
from vision.read.truthdet import BoxNoise, detections_from_corners

for root in sys.argv[1:]:
    for n, ti in enumerate(load_truth(Path(root))):
        frame = load_frame(ti)
        keep = [t for t in ti.tiles if t.counts]
        dets = detections_from_corners([t.corners for t in keep], [t.face for t in keep], BoxNoise(),
                                       seed=0 * 100003 + n)
        reading = read_frame(frame, dets)
        m = score_image(Scores(), ti, reading)
        for i, j in m.items():
            t, r = ti.tiles[j], reading.tiles[i]
            if t.face != "up" or t.values is None or not t.whole or t.visible < FULLY_VISIBLE:
                continue
            vals = list(r.half_values) if r.face == "up" else [None, None]
            confs = list(r.half_confidence)
            if np.hypot(*(r.halves[0] - t.halves[0])) > np.hypot(*(r.halves[0] - t.halves[1])):
                vals, confs = vals[::-1], confs[::-1]
            if vals != list(t.values):
                c = np.mean(t.halves, axis=0)
                print(Path(root).name, ti.name, f"({c[0]:.0f},{c[1]:.0f})", list(t.values), "->", vals,
                      np.round(confs, 2).tolist(), f"len {2 * t.width:.0f}", r.face, " ".join(ti.conditions),
                      getattr(r, "reasons", ""), flush=True)
