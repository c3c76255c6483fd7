"""Images per second of `vision.synth` at 1280x960 on one core (render + JPEG encode).

Run: nice -n 5 .venv/bin/python -m lab.benchmarks.bench_synth [--n 40] [--size 1280x960]
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

from vision.synth.camera import encode_jpeg  # noqa: E402
from vision.synth.dataset import image_rng  # noqa: E402
from vision.synth.scene import render_scene  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--size", default="1280x960")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    cv2.setNumThreads(1)
    render_scene(image_rng(args.seed, 10**6), (w, h))  # warm-up: imports, engine
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(args.n):
        r = render_scene(image_rng(args.seed, i), (w, h))
        encode_jpeg(r.image, r.jpeg_quality)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    # CPU time is the fair number on a shared machine; wall time shows the contention
    print(f"{args.n} images {w}x{h}, one thread: {args.n / cpu:.2f} images/s of CPU time "
          f"({cpu:.2f} s CPU, {dt:.2f} s wall, {args.n / dt:.2f} images/s wall)")
    print(json.dumps({"images": args.n, "size": args.size, "images_per_cpu_s": round(args.n / cpu, 2),
                      "images_per_s": round(args.n / dt, 2)}))


if __name__ == "__main__":
    main()
