"""Which verify rules drop true tiles: python -m lab.diagnose.verify_why SET..."""
import collections
import sys
from pathlib import Path

import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.reader import detection_jobs
from vision.read.tile import read_tiles
from vision.read.verify import verify_frame


def main(argv: list[str]) -> None:
    det = TileDetector(DEFAULT_MODEL)
    for root in argv:
        stats = collections.defaultdict(list)  # reason -> [(true?, conf, exact?)]
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            d = det.detect(frame)
            jobs = detection_jobs(d)
            tiles = read_tiles(frame, jobs)
            v = verify_frame(frame, [t.quad for t in tiles], [t.detection_confidence for t in tiles])
            m = match(np.array([t.quad for t in tiles], float).reshape(-1, 4, 2), ti.tiles)
            for i, t in enumerate(tiles):
                if v[i].physical:
                    continue
                key = v[i].reason.split(":")[0].split(" at ")[0] if "px long" not in v[i].reason else "short"
                truth = ti.tiles[m[i]] if i in m else None
                ok = truth is not None and truth.face == "up" and truth.values is not None and sorted(t.half_values, key=str) == sorted(truth.values, key=str)
                stats[key].append((truth is not None, t.detection_confidence, ok, ti.name))
        print(root)
        for key, rows in stats.items():
            a = np.array([(r[0], r[1], r[2]) for r in rows], float)
            tr = a[:, 0] == 1
            print(f"  {key[:70]:70s} dropped {len(a)}: true {int(tr.sum())} (read exactly {int(a[tr, 2].sum())}), false {int((~tr).sum())}")
            for lo, hi in ((0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 1.01)):
                sel = (a[:, 1] >= lo) & (a[:, 1] < hi)
                if sel.any():
                    print(f"      conf {lo}-{hi}: true {int((tr & sel).sum())}, false {int((~tr & sel).sum())}")


if __name__ == "__main__":
    main(sys.argv[1:])
