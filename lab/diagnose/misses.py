"""Where the detector's misses are: python -m lab.diagnose.misses SET OUT.png [LIMIT]
For every counted true tile missed at the working threshold: its size, cover, face, and the best
confidence a box matching it had at conf 0.01 (a miss under the threshold vs not seen at all)."""
import collections
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, DetectorSettings, TileDetector


def main(argv: list[str]) -> None:
    root = Path(argv[0])
    limit = int(argv[2]) if len(argv) > 2 else None
    det = TileDetector(DEFAULT_MODEL, DetectorSettings())
    low = TileDetector(DEFAULT_MODEL, replace(DetectorSettings(), conf=0.01))
    cells, rows = [], []
    for ti in list(load_truth(root))[:limit]:
        frame = load_frame(ti)
        d = det.detect(frame)
        m = match(np.asarray(d.corners, float).reshape(-1, 4, 2), ti.tiles)
        got = set(m.values())
        dl = low.detect(frame)
        ml = match(np.asarray(dl.corners, float).reshape(-1, 4, 2), ti.tiles)
        best = collections.defaultdict(float)
        for i, j in ml.items():
            best[j] = max(best[j], float(dl.confidence[i]))
        for j, t in enumerate(ti.tiles):
            if not t.counts or j in got:
                continue
            length = 2 * t.width
            rows.append(dict(name=ti.name, length=round(length), visible=round(t.visible, 2), face=t.face,
                             cond=list(ti.conditions), low=round(best.get(j, 0.0), 3)))
            c = np.asarray(t.corners, float).reshape(4, 2)
            ctr = c.mean(0)
            r = max(40, int(1.3 * length))
            x0, y0 = int(ctr[0] - r), int(ctr[1] - r)
            img = frame.copy()
            for q in np.asarray(d.corners, float).reshape(-1, 4, 2):
                cv2.polylines(img, [q.astype(np.int32)], True, (0, 255, 0), 1)
            cv2.polylines(img, [c.astype(np.int32)], True, (0, 0, 255), 1)
            pad = cv2.copyMakeBorder(img, r, r, r, r, cv2.BORDER_CONSTANT)
            crop = pad[y0 + r:y0 + 3 * r, x0 + r:x0 + 3 * r]
            crop = cv2.resize(crop, (160, 160))
            cv2.putText(crop, f"{ti.name[-4:]} {round(length)}px v{t.visible:.1f} {best.get(j, 0):.2f}", (2, 12),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 255, 255), 1)
            cells.append(crop)
    Path(argv[1] + ".json").write_text(json.dumps(rows, indent=0))
    print(len(rows), "missed")
    lows = np.array([r["low"] for r in rows])
    print("best low-conf match: none", int((lows == 0).sum()), "<0.1", int(((lows > 0) & (lows < 0.1)).sum()),
          "0.1-0.25", int(((lows >= 0.1) & (lows < 0.25)).sum()), ">=0.25(nms/merge lost)", int((lows >= 0.25).sum()))
    print("face", collections.Counter(r["face"] for r in rows))
    print("covered", sum(r["visible"] < 0.99 for r in rows))
    cells = cells[:120]
    while len(cells) % 10:
        cells.append(np.zeros((160, 160, 3), np.uint8))
    if cells:
        cv2.imwrite(argv[1], np.vstack([np.hstack(cells[i:i + 10]) for i in range(0, len(cells), 10)]))


if __name__ == "__main__":
    main(sys.argv[1:])
