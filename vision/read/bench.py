"""Time detection, reading and layout on 1920x1080 rendered frames with (about) 28 tiles."""

from __future__ import annotations

import json
import logging
import statistics
import tempfile
import time
from pathlib import Path

import cv2

log = logging.getLogger(__name__)


def bench_frames(n_frames: int = 4, size: tuple[int, int] = (1920, 1080), seed: int = 4242,
                 want_tiles: int = 28) -> list[tuple]:
    """Rendered frames with the most labelled tiles (ideally `want_tiles`): (frame, truth) pairs."""
    from vision.synth.dataset import write_images

    out = Path(tempfile.mkdtemp(prefix="dominocam-bench-"))
    write_images(out, 4 * n_frames, seed, size, n_val=0, progress=False)
    scenes = []
    for p in sorted((out / "truth").glob("*.json")):
        truth = json.loads(p.read_text())
        n = sum(t["labelled"] for t in truth["tiles"])
        scenes.append((abs(n - want_tiles), -n, p, truth))
    scenes.sort(key=lambda s: s[:2])
    return [(cv2.imread(str(out / s[3]["image"])), s[3]) for s in scenes[:n_frames]]


def run_bench(repeats: int = 10, n_frames: int = 4, model: str | None = None) -> dict:
    from vision.read.reader import read_frame
    from vision.read.truthdet import BoxNoise, truth_detections

    frames = bench_frames(n_frames)
    detector = None
    try:
        from vision.detect import DEFAULT_MODEL, TileDetector

        detector = TileDetector(model or DEFAULT_MODEL)
    except FileNotFoundError as exc:
        log.warning("%s: timing reading and layout on truth boxes only", exc)
    det_ms, read_ms, layout_ms, tiles = [], [], [], []
    for _ in range(repeats):
        for frame, truth in frames:
            if detector is not None:
                t0 = time.perf_counter()
                dets = detector.detect(frame)
                det_ms.append((time.perf_counter() - t0) * 1000)
            else:
                dets = truth_detections(truth, BoxNoise())[0]
            r = read_frame(frame, dets)
            read_ms.append(r.ms - r.ms_layout)
            layout_ms.append(r.ms_layout)
            tiles.append(len(r.tiles))
    med = statistics.median
    d = med(det_ms) if det_ms else None
    total = (d or 0.0) + med(read_ms) + med(layout_ms)
    return {
        "frame": "1920x1080", "frames": n_frames, "repeats": repeats, "tiles_per_frame": med(tiles),
        "detection_ms": None if d is None else round(d, 1),
        "reading_ms": round(med(read_ms), 1), "layout_ms": round(med(layout_ms), 2),
        "total_ms": round(total, 1), "fps": round(1000.0 / total, 1) if total else None,
        "detector": "onnxruntime" if detector else "none (truth boxes; detection not timed)",
    }
