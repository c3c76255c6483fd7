"""Why a layout is not exact: python -m lab.diagnose.layout_diff SET NAME OUT.png
Edges the truth has and the reading lacks in red, edges the reading adds in blue."""
import sys
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import load_frame, load_truth, match
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.picture import draw_reading
from vision.read.reader import read_frame


def main(argv: list[str]) -> None:
    ti = next(t for t in load_truth(Path(argv[0])) if t.name == argv[1])
    frame = load_frame(ti)
    reading = read_frame(frame, TileDetector(DEFAULT_MODEL).detect(frame))
    quads = np.array([t.quad for t in reading.tiles], float).reshape(-1, 4, 2)
    m = match(quads, ti.tiles)
    inv = {j: i for i, j in m.items()}
    truth = {frozenset((j, t.parent)) for j, t in enumerate(ti.tiles) if t.owner == "layout" and t.parent is not None}
    pred = {frozenset((m.get(a, -1 - a), m.get(b, -1 - b))) for a, b in reading.layout.edges}
    img = draw_reading(frame, reading)


    def ctr(j: int) -> tuple[int, ...]:
        """A true tile's centre (j >= 0) or a false box's (j = -1 - its index in the reading)."""
        p = np.mean(ti.tiles[j].halves, axis=0) if j >= 0 else reading.tiles[-1 - j].quad.mean(axis=0)
        return tuple(int(v) for v in p)


    for e in truth - pred:
        a, b = sorted(e)
        print("missing", a, b, ti.tiles[a].values, ti.tiles[b].values, "found" if a in inv else "NOT FOUND", "found" if b in inv else "NOT FOUND")
        cv2.line(img, ctr(a), ctr(b), (0, 0, 255), 3)
    for e in pred - truth:
        a, b = sorted(e)
        va = ti.tiles[a].values if a >= 0 else ("false", reading.tiles[-1 - a].half_values)
        vb = ti.tiles[b].values if b >= 0 else ("false", reading.tiles[-1 - b].half_values)
        print("extra", a, b, va, vb)
        cv2.line(img, ctr(a), ctr(b), (255, 0, 0), 2)
        cx, cy = ctr(min(a, b))
        r = int(max(60, 3 * max(t.width for t in ti.tiles)))
        crop = img[max(0, cy - r):cy + r, max(0, cx - r):cx + r]
        cv2.imwrite(argv[2].replace(".png", f"-x{a}_{b}.png"), cv2.resize(crop, None, fx=400 / max(crop.shape[:2]), fy=400 / max(crop.shape[:2])))
    print("layout tiles not found:", [j for j, t in enumerate(ti.tiles) if t.owner == "layout" and j not in inv])
    cv2.imwrite(argv[2], img)


if __name__ == "__main__":
    main(sys.argv[1:])
