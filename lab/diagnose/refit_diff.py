"""Images whose reading changes with the off-length refit (vision/read/refit.py): per image, tiles
matched to the truth, false boxes and tiles read right, without and with it.
python -m lab.diagnose.refit_diff SET [SET...]"""
import sys
from pathlib import Path

import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read import reader


def _counts(frame, detections, doubtful, ti) -> tuple[int, int, int]:
    r = reader.read_frame(frame, detections, doubtful=doubtful)
    quads = np.array([t.quad for t in r.tiles], float).reshape(-1, 4, 2)
    m = match(quads, ti.tiles)
    right = sum(1 for i, j in m.items() if r.tiles[i].values is not None and ti.tiles[j].values is not None
                and sorted(r.tiles[i].values) == sorted(ti.tiles[j].values))
    return len(m), len(r.tiles) - len(m), right


def main(argv: list[str]) -> None:
    det = TileDetector(DEFAULT_MODEL)
    refit = reader.refit_off_length
    changed = 0
    for root in argv:
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            d = det.detect(frame)
            reader.refit_off_length = lambda frame, tiles, jobs, prepare=None: tiles
            off = _counts(frame, d, det.last.doubtful, ti)
            reader.refit_off_length = refit
            on = _counts(frame, d, det.last.doubtful, ti)
            if off != on:
                changed += 1
                print(Path(root).name, ti.name, "matched/false/right without", off, "with", on, flush=True)
        print(Path(root).name, "images read differently:", changed, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
