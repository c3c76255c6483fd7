"""`dominocam bench`: median time per 1920x1080 frame (28 tiles) for detection, reading, layout."""

from __future__ import annotations

import argparse
import json

HELP = "time detection, reading and layout per frame"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeats", type=int, default=10, help="passes over the frames")
    parser.add_argument("--frames", type=int, default=4, help="rendered 1920x1080 frames to time")
    parser.add_argument("--model", help="detector ONNX file (default models/tiles-obb.onnx)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    from vision.read.bench import run_bench

    res = run_bench(args.repeats, args.frames, args.model)
    if args.json:
        print(json.dumps(res))
    else:
        det = "n/a (no model)" if res["detection_ms"] is None else f"{res['detection_ms']} ms"
        print(f"1920x1080, {res['tiles_per_frame']:g} tiles, median of {res['repeats'] * res['frames']} frames: "
              f"detection {det}, reading {res['reading_ms']} ms, layout {res['layout_ms']} ms, "
              f"total {res['total_ms']} ms = {res['fps']} fps")
    return 0
