"""True tiles the reader's verifier turns away: per such box, the verdict's reason (detector's boxes).
python -m lab.diagnose.rejected SET [SET...]"""
import collections
import sys
from pathlib import Path

import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.reader import detection_jobs
from vision.read.tile import read_tiles
from vision.read.turn import turn_unread
from vision.read.verify import Verdict, half_a_face, verify_frame


def main(argv: list[str]) -> None:
    det = TileDetector(DEFAULT_MODEL)
    for root in argv:
        why = collections.Counter()
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            d = det.detect(frame)
            jobs = detection_jobs(d)
            tiles = turn_unread(frame, read_tiles(frame, jobs), jobs)
            verdicts = verify_frame(frame, [t.quad for t in tiles], [t.detection_confidence for t in tiles])
            for i, t in enumerate(tiles):
                w = half_a_face(t)
                if w and verdicts[i].physical:
                    verdicts[i] = Verdict(False, verdicts[i].score, w)
            m = match(np.array([t.quad for t in tiles], float).reshape(-1, 4, 2), ti.tiles)
            kept = {m[i] for i, v in enumerate(verdicts) if v.physical and i in m}
            for i, j in m.items():
                if verdicts[i].physical or j in kept or not ti.tiles[j].counts:
                    continue
                t = ti.tiles[j]
                reason = verdicts[i].reason.split(":")[0].split("(")[0][:60]
                why[reason] += 1
                print(Path(root).name, ti.name, t.face, t.values, f"len {2 * t.width:.0f} vis {t.visible:.2f}",
                      f"det {tiles[i].detection_confidence:.2f}", verdicts[i].reason, flush=True)
        print(Path(root).name, dict(why.most_common()), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
