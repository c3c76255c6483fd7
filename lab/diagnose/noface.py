"""Face-up boxes with one half the classifier takes for no tile face: true or false tiles, by the
detector's confidence. python -m lab.diagnose.noface SET..."""
import sys
from pathlib import Path

import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.reader import read_frame


def main(argv: list[str]) -> None:
    det = TileDetector(DEFAULT_MODEL)
    for root in argv:
        rows = []
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            r = read_frame(frame, det.detect(frame))
            m = match(np.array([t.quad for t in r.tiles], float).reshape(-1, 4, 2), ti.tiles)
            for i, t in enumerate(r.tiles):
                if t.face != "up":
                    continue
                nf = [k for k in (0, 1) if t.half_values[k] is None and t.reasons[k].startswith("no pips layout")]
                if len(nf) == 1:
                    vis = ti.tiles[m[i]].visible if i in m else None
                    rows.append((i in m, t.detection_confidence, vis, t.half_values[1 - nf[0]] is not None, ti.name))
        a = np.array([(r[0], r[1]) for r in rows], float).reshape(-1, 2)
        print(root, "boxes with one no-face half:", len(a), "true", int(a[:, 0].sum()), "false", int((1 - a[:, 0]).sum()))
        for lo, hi in ((0, 0.4), (0.4, 0.5), (0.5, 0.7), (0.7, 1.01)):
            sel = (a[:, 1] >= lo) & (a[:, 1] < hi)
            print(f"   conf {lo}-{hi}: true {int(a[sel, 0].sum())} false {int((1 - a[sel, 0]).sum())}")
        print("   true ones' visibility:", sorted(round(r[2], 2) for r in rows if r[0]))


if __name__ == "__main__":
    main(sys.argv[1:])
