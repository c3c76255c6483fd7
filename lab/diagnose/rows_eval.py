"""Detector boxes without and with the row measuring (vision/detect/rows.py), scored:
python -m lab.diagnose.rows_eval SET [LIMIT]"""

import sys
from pathlib import Path

from lab.read.evaluate import Scores, load_frame, load_truth, score_boxes
from vision.detect import DEFAULT_MODEL, DetectorSettings, TileDetector
from vision.detect.rows import RowSettings, complete_rows


def main(argv: list[str]) -> None:
    root = Path(argv[0])
    limit = int(argv[1]) if len(argv) > 1 else None
    det = TileDetector(DEFAULT_MODEL, DetectorSettings(rows=RowSettings(enabled=False)))
    a, b = Scores(), Scores()
    changed = []


    def faces(x) -> list[str]:
        return ["down" if int(k) == 1 else "up" for k in x.class_id]


    for ti in list(load_truth(root))[:limit]:
        frame = load_frame(ti)
        d = det.detect(frame)
        e = complete_rows(frame, d)
        ma = score_boxes(a, ti, d.corners, faces(d))
        mb = score_boxes(b, ti, e.corners, faces(e))
        if len(ma) != len(mb) or len(d) != len(e):
            changed.append((ti.name, len(d), len(e), len(ma), len(mb)))
    for name, s in (("without", a), ("with", b)):
        x = s.detection_summary()
        print(name, "recall", x["recall"], "precision", x["precision"], "false", x["false_tiles"],
              "max per image", x["max_false_tiles_per_image"])
    print("images changed (name, boxes without/with, matched without/with):")
    for c in changed:
        print(" ", c)


if __name__ == "__main__":
    main(sys.argv[1:])
