"""One rendered deal through the live pipeline, its log beside the truth: where a record goes wrong.

    python -m lab.diagnose.deal_log VIDEO [--reader model] [--level INFO] [--realtime]

Prints the true moves (with the frame each is laid on, from moves.json) and the moves the pipeline
wrote, side by side, then the differences; the pipeline's log (vision.live at `--level`) goes to
standard error, so `2> deal.log` keeps it for grep.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import sys
from pathlib import Path

from lab.live.evaluate import check, moves_of, watch
from vision.live.demo import load_video
from vision.live.pipeline import LivePipeline

_now = {"t": 0.0, "fps": 10.0}


class _FrameStamp(logging.Filter):
    """Prefixes each record with the frame being processed (f123 at 10 fps)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.frame = f"f{round(_now['t'] * _now['fps'])}"
        return True


def _stamped(process):  # noqa: ANN001, ANN202 - wraps LivePipeline.process
    def run(self, frame, t, *args, **kwargs):  # noqa: ANN001, ANN202
        _now["t"] = t
        return process(self, frame, t, *args, **kwargs)
    return run


def _short(move: dict | None) -> str:
    if move is None:
        return "-"
    if move["event"] == "draw":
        return f"{move['player']} draws"
    extra = f" to {move['to']}" if move.get("to") else ""
    face = f" ({move['face']})" if move.get("face") else ""
    return f"{move['player']} {move['tile']}{extra}{face}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.diagnose.deal_log", description=__doc__.splitlines()[0])
    parser.add_argument("video", type=Path, help="a rendered video folder (frames/, record.jsonl, moves.json)")
    parser.add_argument("--reader", choices=("truth", "boxes", "model"), default="model")
    parser.add_argument("--level", default="INFO", help="vision.live's log level on standard error")
    parser.add_argument("--realtime", action="store_true", help="paced as a camera on this machine")
    args = parser.parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_FrameStamp())
    handler.setFormatter(logging.Formatter("%(frame)6s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    LivePipeline.process = _stamped(LivePipeline.process)
    logging.getLogger("vision.live").setLevel(args.level)
    video = load_video(args.video)
    if video is None:
        print(f"no rendered video at {args.video}", file=sys.stderr)
        return 2
    _now["fps"] = video.fps
    got, pipe = watch(video, args.reader, realtime=args.realtime)
    moves_file = args.video / "moves.json"
    laid = json.loads(moves_file.read_text()).get("moves", []) if moves_file.exists() else []
    frames = [m.get("placed_frame") for m in laid if m.get("kind") in ("play", "draw")]
    true = moves_of(video.record)
    mine = moves_of(got)
    for k, (a, b) in enumerate(itertools.zip_longest(mine, true)):
        at = f"f{frames[k]}" if k < len(frames) and frames[k] is not None else ""
        print(f"{k:3d} {at:>6s} {'  ' if a == b else '!!'} got {_short(a):28s} true {_short(b)}")
    c = check(video, got, pipe.flags(), len(pipe.to_confirm()))
    print(c.line())
    for d in c.differences + c.flags + c.live_flags:
        print(f"    {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
