"""Live pipeline speed on the demo source: frames per second through gate, reader, tracker and
annotation, as fast as the machine goes (no pacing), and how long after a tile lands it becomes a
move (in video time).

    .venv/bin/python -m lab.benchmarks.bench_live [--frames N] [--reader auto|truth|boxes|model]
                                              [--no-annotate]

Prints one JSON object. `--reader model` needs the detector (models/tiles-obb.onnx); `auto` is the
demo's own choice (DOMINOCAM_DEMO_READER, the renderer's truth by default). The demo video is rendered once into datasets/cache/demo/ if it is not there.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import statistics
import sys
import time
from pathlib import Path

from vision.live.demo import CACHE, demo_pipeline, find_video, render_video, truth_reader  # noqa: E402
from vision.live.pipeline import LiveConfig  # noqa: E402
from vision.live.readers import BoxesReader, ModelReader, ReaderUnavailable  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0].strip())
    parser.add_argument("--frames", type=int, default=0, help="frames to run (default: one loop)")
    parser.add_argument("--reader", choices=("auto", "truth", "boxes", "model"), default="auto",
                        help="truth: the renderer's truth; boxes: the pip reader on the pixels "
                             "fed the renderer's boxes; model: the detector and the pip reader")
    parser.add_argument("--no-annotate", action="store_true", help="skip drawing the frame")
    parser.add_argument("--cache", type=Path, default=CACHE, help="demo video folder")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    video = find_video(args.cache) or render_video(args.cache)
    config = LiveConfig(realtime=False, annotate=not args.no_annotate)
    pipe = demo_pipeline(config, cache=args.cache, render=False)
    if video is not None and args.reader != "auto":
        try:
            if args.reader == "model":
                pipe.reader = ModelReader()
            elif args.reader == "boxes":
                pipe.reader = BoxesReader.from_folder(video.truth, video.fps)
            else:
                pipe.reader = truth_reader(video)
        except ReaderUnavailable as exc:
            print(f"bench_live: {exc}", file=sys.stderr)
            return 2
    fps_video = video.fps if video is not None else 10.0
    frames = args.frames or (len(list(video.frames.glob("*.jpg"))) if video else 600)

    emitted: list[tuple[float, dict]] = []
    clock = {"t": 0.0}
    original = pipe.process

    def process(frame, t, **kw):  # note the video time of every frame, to time the moves
        clock["t"] = t
        return original(frame, t, **kw)

    pipe.process = process  # type: ignore[method-assign]
    pipe.on_events(lambda e: emitted.append((clock["t"], e)))
    pipe.resume([pipe.game_event(), {"event": "deal"}])
    start = time.perf_counter()
    n = sum(1 for _ in itertools.islice(pipe.frames(), frames))
    wall = time.perf_counter() - start
    pipe.close()

    out = {
        "source": "rendered video" if video else "schematic deal",
        "reader": type(pipe.reader).__name__,
        "frames": n,
        "wall_s": round(wall, 2),
        "fps": round(n / wall, 1),
        "frames_read": pipe.stats.read,
        "ms_per_frame": round(1000 * wall / max(n, 1), 1),
        "video_fps": fps_video,
    }
    if video is not None:
        moves = json.loads((video.folder / "moves.json").read_text())["moves"]
        visible = {m["tile"]: m["frame"] / fps_video for m in moves if m.get("kind") == "play"}
        truth = [e for e in video.record if e["event"] == "play"]
        mine = [e for _, e in emitted if e["event"] == "play"]
        lag = [t - visible[e["tile"]] for t, e in emitted
               if e["event"] == "play" and e["tile"] in visible and t >= visible[e["tile"]]]
        out["plays_right"] = f"{sum(a == b for a, b in zip(mine, truth, strict=False))}/{len(truth)}"
        if lag:
            out["move_lag_s_median"] = round(statistics.median(lag), 2)
            out["move_lag_s_max"] = round(max(lag), 2)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
