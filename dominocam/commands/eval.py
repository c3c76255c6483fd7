"""`dominocam eval --data DIR`: detection, pip reading and layout against truth."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

HELP = "measure the reader on rendered or real photos"
log = logging.getLogger("dominocam.eval")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True,
                        help="a rendered set (DIR/truth/*.json) or real photos (DIR/truth.json)")
    parser.add_argument("--scale", type=float, default=1.0, help="resize images (and truth) by this factor")
    parser.add_argument("--split", help="rendered sets: only images of this split (e.g. val)")
    parser.add_argument("--limit", type=int, help="at most this many images")
    parser.add_argument("--model", help="detector ONNX file (default models/tiles-obb.onnx)")
    parser.add_argument("--truth-boxes", action="store_true",
                        help="feed the reader the truth boxes moved by detector-like errors (4 px at a "
                             "54 px tile, 6 deg, 6 %%) instead of running the detector: measures reading alone")
    parser.add_argument("--exact-boxes", action="store_true", help="with --truth-boxes: no box errors")
    parser.add_argument("--out", help="folder for the confusion matrix PNG and the JSON (default runs/eval/NAME)")
    parser.add_argument("--seed", type=int, default=0)


def run(args) -> int:
    import cv2

    from vision.read.evaluate import (
        Scores,
        confusion_png,
        is_real,
        load_real,
        load_rendered,
        score_image,
    )
    from vision.read.reader import read_frame
    from vision.read.truthdet import BoxNoise, detections_from_corners

    root = Path(args.data)
    if not root.is_dir():
        print(f"dominocam eval: {root} is not a folder", file=sys.stderr)
        return 2
    real = is_real(root)
    if not real and not (root / "truth").is_dir():
        print(f"dominocam eval: {root} has neither truth.json nor truth/*.json", file=sys.stderr)
        return 2
    images = list(load_real(root, args.scale) if real else load_rendered(root, args.split))
    if args.limit:
        images = images[: args.limit]
    detector = None
    if not args.truth_boxes:
        from vision.detect import DEFAULT_MODEL, TileDetector

        try:
            detector = TileDetector(args.model or DEFAULT_MODEL)
        except FileNotFoundError as exc:
            print(f"dominocam eval: {exc} (or use --truth-boxes to measure reading alone)", file=sys.stderr)
            return 2
    noise = None if args.exact_boxes else BoxNoise()
    scores = Scores()
    for n, ti in enumerate(images):
        frame = cv2.imread(str(ti.image))
        if frame is None:
            log.error("%s: cannot read, skipped", ti.image)
            continue
        if args.scale != 1.0:
            frame = cv2.resize(frame, None, fx=args.scale, fy=args.scale, interpolation=cv2.INTER_AREA)
            if not real:
                for t in ti.tiles:
                    t.halves, t.width = t.halves * args.scale, t.width * args.scale
                    t.corners = t.corners * args.scale
        if detector is not None:
            dets = detector.detect(frame)
        else:
            keep = [t for t in ti.tiles if t.counts]
            dets = detections_from_corners([t.corners for t in keep], [t.face for t in keep], noise,
                                           seed=args.seed * 100003 + n)
            # predicted tiles must map back to all truth tiles for scoring: keep the order
        reading = read_frame(frame, dets)
        score_image(scores, ti, reading)
    summary = scores.summary()
    summary.update({"data": str(root), "scale": args.scale,
                    "boxes": "detector" if detector else ("truth exact" if noise is None else "truth + box errors")})
    out = Path(args.out) if args.out else Path("runs/eval") / f"{root.name}-{args.scale:g}"
    out.mkdir(parents=True, exist_ok=True)
    png = out / "confusion.png"
    confusion_png(scores.confusion, png, f"{root.name} scale {args.scale:g}: per-half {summary['per_half']} %")
    summary["confusion_png"] = str(png)
    summary["confusion"] = scores.confusion.tolist()
    (out / "errors.json").write_text(json.dumps(scores.errors, indent=0))
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary))
    log.info("recall %s %%, precision %s %%, exact tiles %s %%, per half %s %%, layout exact %s %% (%d images); "
             "confusion matrix in %s", summary["recall"], summary["precision"], summary["exact_tiles"],
             summary["per_half"], summary["layout_exact"], summary["layout_images"], png)
    return 0
