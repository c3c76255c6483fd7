"""Where the time of `dominocam read` on one photo goes, against `dominocam bench`'s figure.
python -m lab.benchmarks.profile_read PHOTO [--size 1920x1080] [--repeats 5]

`dominocam read` times detection + reading of each photo from its first call; the bench warms the
detector and the reader up first and reads rendered frames. This script times one photo both
ways, stage by stage: the first call (cold: the ONNX session's first run, OpenCV's tables), then
warm calls, with and without reading worker processes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import cv2

from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.imageio import load_image
from vision.read.reader import read_frame
from vision.read.workers import reading_pool


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - t0) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("photo")
    ap.add_argument("--size", default="1920x1080", help="resize the photo to WxH first (a 1080p webcam frame)")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    frame, load_ms = _timed(lambda: load_image(args.photo))
    w, h = (int(v) for v in args.size.split("x"))
    fh, fw = frame.shape[:2]
    s = min(w / fw, h / fh)
    frame = cv2.resize(frame, (round(fw * s), round(fh * s)), interpolation=cv2.INTER_AREA)
    det, init_ms = _timed(lambda: TileDetector(DEFAULT_MODEL))
    dets, cold_detect = _timed(lambda: det.detect(frame))
    _, cold_read = _timed(lambda: read_frame(frame, dets, doubtful=det.last.doubtful))
    out = {"photo": args.photo, "frame": f"{frame.shape[1]}x{frame.shape[0]}", "boxes": len(dets),
           "load_ms": round(load_ms, 1), "detector_init_ms": round(init_ms, 1),
           "cold_detect_ms": round(cold_detect, 1), "cold_read_ms": round(cold_read, 1)}
    for name, pool in (("no_pool", None), ("pool", reading_pool())):
        if pool is not None:
            read_frame(frame, dets, pool=pool, doubtful=det.last.doubtful)  # the workers' first frame
        d_ms, r_ms, lay_ms = [], [], []
        for _ in range(args.repeats):
            dets, ms = _timed(lambda: det.detect(frame))
            d_ms.append(ms)
            reading, ms = _timed(lambda d=dets, p=pool: read_frame(frame, d, pool=p, doubtful=det.last.doubtful))
            r_ms.append(ms)
            lay_ms.append(reading.ms_layout)
        out[name] = {"detect_ms": round(statistics.median(d_ms), 1), "read_ms": round(statistics.median(r_ms), 1),
                     "layout_ms": round(statistics.median(lay_ms), 1),
                     "total_ms": round(statistics.median(d_ms) + statistics.median(r_ms), 1),
                     "tiles": len(reading.tiles)}
        if pool is not None:
            pool.close()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
