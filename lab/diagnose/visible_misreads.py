"""Misread tiles, read on the renderer's boxes (with detector-like box errors, as `dominocam eval
--truth-boxes`) or with --detector on the detector's: one line each with the scene's conditions, the
tile's length, visible and in-frame fractions and the half confidences. Fully visible tiles only,
unless --all; --wrong: only tiles with a half read wrong (not merely unread).
python -m lab.diagnose.visible_misreads [--detector] [--all] [--wrong] SET [SET...]"""
import sys
from pathlib import Path

import numpy as np

from lab.read.evaluate import Scores, load_frame, load_truth, score_image
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.reader import read_frame
from vision.read.truthdet import BoxNoise, detections_from_corners


def main(argv: list[str]) -> None:
    flags = {a for a in argv if a.startswith("--")}
    detector = None
    if "--detector" in flags:
        detector = TileDetector(DEFAULT_MODEL)
    for root in [a for a in argv if not a.startswith("--")]:
        for n, ti in enumerate(load_truth(Path(root))):
            frame = load_frame(ti)
            keep = [t for t in ti.tiles if t.counts]
            dets = detector.detect(frame) if detector else detections_from_corners(
                [t.corners for t in keep], [t.face for t in keep], BoxNoise(), seed=0 * 100003 + n)
            reading = read_frame(frame, dets)
            m = score_image(Scores(), ti, reading)
            for i, j in m.items():
                t, r = ti.tiles[j], reading.tiles[i]
                if t.face != "up" or t.values is None or ("--all" not in flags and not t.whole):
                    continue
                vals = list(r.half_values) if r.face == "up" else [None, None]
                confs = list(r.half_confidence)
                if np.hypot(*(r.halves[0] - t.halves[0])) > np.hypot(*(r.halves[0] - t.halves[1])):
                    vals, confs = vals[::-1], confs[::-1]
                wrong = any(v is not None and v != w for v, w in zip(vals, t.values, strict=True))
                if vals != list(t.values) and (wrong or "--wrong" not in flags):
                    c = np.mean(t.halves, axis=0)
                    print(Path(root).name, ti.name, f"({c[0]:.0f},{c[1]:.0f})", list(t.values), "->", vals,
                          np.round(confs, 2).tolist(), f"len {2 * t.width:.0f}", f"vis {t.visible:.2f} in {t.in_frame:.2f}", r.face, " ".join(ti.conditions),
                          getattr(r, "reasons", ""), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
