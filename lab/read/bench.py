"""Time detection, reading and layout on 1920x1080 rendered frames with (about) 28 tiles.

The frames are rendered at the scale issue 4 names for a 1080p webcam over a small table: a tile
half about 54 px (tile about 108 px long), down to 70 % of that (about 76 px). Smaller tiles (a 4K
frame's) are timed with `--tile-px`; they make the detector slice the frame.
"""

from __future__ import annotations

import logging
import os
import statistics
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

log = logging.getLogger(__name__)

TILE_PX = (108.0, 92.0, 76.0)  # tile long sides of the frames, in turn


def bench_frames(n_frames: int = 4, size: tuple[int, int] = (1920, 1080), seed: int = 4242,
                 want_tiles: int = 28, tile_px: tuple[float, ...] = TILE_PX) -> list[tuple]:
    """Rendered frames with the most labelled tiles (ideally `want_tiles`): (frame, truth) pairs.
    Candidates are rendered with tile long sides `tile_px` in turn and JPEG-compressed as a camera
    would; the `n_frames` whose labelled tile count is nearest `want_tiles` are kept."""
    from vision.synth.camera import encode_jpeg
    from vision.synth.dataset import image_rng
    from vision.synth.scene import render_scene

    scenes = []
    for i in range(6 * n_frames):
        length = tile_px[i % len(tile_px)]
        r = render_scene(image_rng(seed, i), size, length=length)
        truth = r.truth(f"bench-{i}.jpg")
        n = sum(t["labelled"] for t in truth["tiles"])
        frame = cv2.imdecode(np.frombuffer(encode_jpeg(r.image, r.jpeg_quality), np.uint8), cv2.IMREAD_COLOR)
        scenes.append((abs(n - want_tiles), -n, i, frame, truth))
    scenes.sort(key=lambda s: s[:3])
    return [(s[3], s[4]) for s in scenes[:n_frames]]


def _workers_cpu_s(pool) -> float | None:
    """CPU seconds the reading workers have used so far (from /proc; None without a pool or /proc)."""
    if pool is None:
        return None
    total = 0.0
    try:
        for pid in pool.pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    except (OSError, ValueError, IndexError):
        return None
    return total


def run_bench(repeats: int = 10, n_frames: int = 4, model: str | None = None,
              tile_px: tuple[float, ...] = TILE_PX, slicing: bool = True,
              target_tile_px: float | None = None) -> dict:
    from vision.read.workers import reading_pool

    pool = reading_pool()
    try:
        return _bench(repeats, n_frames, model, tile_px, slicing, pool, target_tile_px)
    finally:
        if pool is not None:
            pool.close()


def _bench(repeats: int, n_frames: int, model: str | None, tile_px: tuple[float, ...], slicing: bool,
           pool, target_tile_px: float | None) -> dict:
    from vision.read.reader import read_frame
    from vision.read.truthdet import BoxNoise, truth_detections

    frames = bench_frames(n_frames, tile_px=tile_px)
    detector = None
    try:
        from vision.detect import DetectorSettings, TileDetector, live_model

        settings = DetectorSettings(slicing=slicing)
        if target_tile_px:
            settings = replace(settings, target_tile_px=target_tile_px)
        detector = TileDetector(model or live_model(), settings)  # the live reader's
    except FileNotFoundError as exc:
        log.warning("%s: timing reading and layout on truth boxes only", exc)
    # warm-up (OpenCV's colour tables, the ONNX session) and, per frame, the detection scale a
    # fixed camera keeps from its first whole-frame look (as the live reader does)
    scales = []
    for frame, truth in frames:
        read_frame(frame, detector.detect(frame) if detector else truth_detections(truth, BoxNoise())[0], pool=pool)
        scales.append(detector.last.scale if detector else None)
    det_ms, look_ms, read_ms, layout_ms, tiles, sliced, cpu_ms = [], [], [], [], [], [], []
    workers0 = _workers_cpu_s(pool)
    for _ in range(repeats):
        for (frame, truth), scale in zip(frames, scales, strict=True):
            if detector is not None:
                t0 = time.perf_counter()
                detector.detect(frame)  # a first frame: the whole-frame look decides the scale
                look_ms.append((time.perf_counter() - t0) * 1000)
            c0 = time.process_time()
            if detector is not None:
                t0 = time.perf_counter()
                dets = detector.detect(frame, scale=scale)
                det_ms.append((time.perf_counter() - t0) * 1000)
                sliced.append(detector.last.sliced)
            else:
                dets = truth_detections(truth, BoxNoise())[0]
            r = read_frame(frame, dets, pool=pool, doubtful=detector.last.doubtful if detector else None)
            cpu_ms.append((time.process_time() - c0) * 1000)
            read_ms.append(r.ms - r.ms_layout)
            layout_ms.append(r.ms_layout)
            tiles.append(len(r.tiles))
    workers1 = _workers_cpu_s(pool)
    med = statistics.median
    d = med(det_ms) if det_ms else None
    total = (d or 0.0) + med(read_ms) + med(layout_ms)
    lengths = [t["length_px"] for _, tr in frames for t in tr["tiles"] if t["labelled"]]
    return {
        "frame": "1920x1080", "frames": n_frames, "repeats": repeats, "tiles_per_frame": med(tiles),
        "tile_px_median": round(med(lengths), 1) if lengths else None,
        "detection_ms": None if d is None else round(d, 1),  # at the scale the camera keeps
        "detection_first_frame_ms": round(med(look_ms), 1) if look_ms else None,  # with the look
        "reading_ms": round(med(read_ms), 1), "layout_ms": round(med(layout_ms), 2),
        "total_ms": round(total, 1), "fps": round(1000.0 / total, 1) if total else None,
        "cpu_ms": round(med(cpu_ms), 1),  # this process's CPU time per frame (not the reading workers')
        # mean CPU time per timed frame, this process's and the reading workers' together (Linux;
        # the workers only read): the work the two cores share, so total_ms >= about half of it
        "cpu_ms_all_processes": None if workers0 is None or workers1 is None else round(
            (sum(cpu_ms) + (workers1 - workers0) * 1000) / max(len(cpu_ms), 1), 1),
        "reading_processes": pool.processes if pool is not None else 1,
        "sliced_frames": sum(sliced), "timed_frames": len(cpu_ms),
        "detector": str(detector.model_path) if detector else "none (truth boxes; detection not timed)",
        "passes_per_frame": detector.last.passes if detector else None,
        "target_tile_px": detector.settings.target_tile_px if detector else None,
    }
