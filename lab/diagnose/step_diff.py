"""Images whose reading changes with one step of the reader (vision/read/reader.py: a function of
the frame and its tiles that returns tiles, as `refit_off_length` or `fill_chain_gaps`): per image,
tiles matched to the truth, false boxes and tiles read right, without and with it.
python -m lab.diagnose.step_diff STEP SET [SET...]"""
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
    if len(argv) < 2 or not callable(getattr(reader, argv[0], None)):
        sys.exit(__doc__)
    name, step = argv[0], getattr(reader, argv[0])
    det = TileDetector(DEFAULT_MODEL)
    changed = 0
    for root in argv[1:]:
        for ti in load_truth(Path(root)):
            frame = load_frame(ti)
            d = det.detect(frame)
            setattr(reader, name, lambda frame, tiles, *args, **kwargs: tiles)
            off = _counts(frame, d, det.last.doubtful, ti)
            setattr(reader, name, step)
            on = _counts(frame, d, det.last.doubtful, ti)
            if off != on:
                changed += 1
                print(Path(root).name, ti.name, "matched/false/right without", off, "with", on, flush=True)
        print(Path(root).name, "images read differently:", changed, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
