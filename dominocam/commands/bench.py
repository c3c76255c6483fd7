"""`dominocam bench`: median time per 1920x1080 frame (28 tiles) for detection, reading, layout."""

from __future__ import annotations

import argparse
import json

from lab.read.bench import TILE_PX, run_bench

HELP = "time detection, reading and layout per frame"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeats", type=int, default=10, help="passes over the frames")
    parser.add_argument("--frames", type=int, default=4, help="rendered 1920x1080 frames to time")
    parser.add_argument("--model", help="detector ONNX file (default: the live reader's, models/tiles-obb.int8.onnx; "
                                        "models/tiles-obb.onnx times the float model)")
    parser.add_argument("--tile-px", type=float, nargs="+", default=list(TILE_PX), metavar="PX",
                        help="tile long sides of the rendered frames, in turn (default: issue 4's "
                             "1080p webcam, a 54 px half down to 70 %% of it; 40 is a 4K frame's)")
    parser.add_argument("--no-slicing", action="store_true",
                        help="detect on the whole frame only (what a model that finds tiles of this size there costs)")
    parser.add_argument("--target-tile-px", type=float, default=None,
                        help="tile long side the finer detection pass brings tiles to (default: the detector's)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    res = run_bench(args.repeats, args.frames, args.model, tuple(args.tile_px), not args.no_slicing,
                    args.target_tile_px)
    if args.json:
        print(json.dumps(res))
    else:
        det = "n/a (no model)" if res["detection_ms"] is None else f"{res['detection_ms']} ms"
        print(f"1920x1080, {res['tiles_per_frame']:g} tiles of {res['tile_px_median']} px, median of "
              f"{res['timed_frames']} frames ({res['sliced_frames']} sliced): detection {det}, "
              f"reading {res['reading_ms']} ms, layout {res['layout_ms']} ms, total {res['total_ms']} ms "
              f"= {res['fps']} fps; {res['cpu_ms']} CPU ms per frame")
    return 0
