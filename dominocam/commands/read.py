"""`dominocam read PATH... [--json] [--annotate OUT]`: every tile, its values and the layout."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

HELP = "read the tiles and the layout from images"
log = logging.getLogger("dominocam.read")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="image files or folders of images")
    parser.add_argument("--json", action="store_true", help="print one JSON object per image per line")
    parser.add_argument("--annotate", metavar="OUT",
                        help="write the annotated frame here (a folder when several images are read)")
    parser.add_argument("--model", help="detector ONNX file (default models/tiles-obb.onnx)")
    add_set_argument(parser)
    parser.add_argument("--truth-boxes", action="store_true",
                        help="testing aid for rendered sets: take the boxes from the truth JSON next to "
                             "each image (DIR/truth/NAME.json), moved by detector-like errors, instead "
                             "of running the detector")


def add_set_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--set", metavar="FILE", dest="set_file",
                        help="read with this set's profile (made by `dominocam enrol PHOTO`)")


def load_set(args, command: str) -> bool:
    """Load --set FILE into args.profile (None without it); False after printing why it cannot."""
    args.profile = None
    if getattr(args, "set_file", None):
        from vision.read.setprofile import ProfileError, load_profile

        try:
            args.profile = load_profile(args.set_file)
        except ProfileError as exc:
            print(f"dominocam {command}: {exc}", file=sys.stderr)
            return False
    return True


def annotate_path(out: str, image: str, many: bool) -> Path:
    o = Path(out)
    if many or o.is_dir() or out.endswith("/") or not o.suffix:
        o.mkdir(parents=True, exist_ok=True)
        return o / f"{Path(image).stem}.annotated.jpg"
    o.parent.mkdir(parents=True, exist_ok=True)
    return o


def make_detector(args):
    """A callable frame, image path -> (Detections, the doubtful boxes or None)."""
    if args.truth_boxes:
        from vision.read.truthdet import BoxNoise, truth_detections, truth_for_image

        def from_truth(frame, image):
            return truth_detections(truth_for_image(image), BoxNoise())[0], None

        return from_truth
    from vision.detect import DEFAULT_MODEL, TileDetector

    det = TileDetector(args.model or DEFAULT_MODEL)

    def detect(frame, image):
        return det.detect(frame), det.last.doubtful

    return detect


def run(args) -> int:
    from vision.read.imageio import expand

    if not load_set(args, "read"):
        return 2
    images = expand(args.paths)
    if not images:
        print("dominocam read: no images found in " + ", ".join(args.paths), file=sys.stderr)
        return 1
    try:
        detect = make_detector(args)
    except FileNotFoundError as exc:
        print(f"dominocam read: {exc}", file=sys.stderr)
        return 2
    from vision.read.workers import reading_pool

    # worker processes take a third of a second to start: worth it from a few images on
    pool = reading_pool() if len(images) >= POOL_FROM_IMAGES else None
    try:
        return _read_all(args, images, detect, pool)
    finally:
        if pool is not None:
            pool.close()


POOL_FROM_IMAGES = 4


def _read_all(args, images: list[str], detect, pool) -> int:
    from vision.read.imageio import ImageError, load_image
    from vision.read.reader import read_frame, reading_to_json

    failed = 0
    for image in images:
        try:
            frame = load_image(image)
            t0 = time.perf_counter()
            detections, doubtful = detect(frame, image)
            reading = read_frame(frame, detections, pool=pool, doubtful=doubtful, profile=args.profile)
            ms = (time.perf_counter() - t0) * 1000
        except (ImageError, FileNotFoundError) as exc:
            failed += 1
            log.error("%s: %s", image, exc)
            if args.json:
                print(json.dumps({"image": image, "error": str(exc)}), flush=True)
            continue
        out = reading_to_json(reading, image, ms)
        if args.json:
            print(json.dumps(out), flush=True)
        else:
            print(summary_line(out), flush=True)
        if args.annotate:
            import cv2

            from vision.read.picture import draw_reading

            path = annotate_path(args.annotate, image, len(images) > 1)
            cv2.imwrite(str(path), draw_reading(frame, reading))
            log.info("annotated %s -> %s", image, path)
    return 1 if failed else 0


def summary_line(out: dict) -> str:
    tiles = out["tiles"]
    up = [t for t in tiles if t["face"] == "up"]
    read = ["-".join(map(str, t["values"])) for t in up if t["values"] is not None]
    ends = " ".join(str(e["value"]) for e in out["layout"]["ends"]) or "-"
    hands = ", ".join(f"{s} {len(ix)}" for s, ix in out["hands"].items()) or "none"
    return (f"{out['image']}: {len(tiles)} tiles ({len(up)} up, {len(up) - len(read)} unread): "
            f"{' '.join(read)}; layout {len({i for e in out['layout']['edges'] for i in e})} tiles, "
            f"open ends {ends}; hands {hands}; {out['ms']:.0f} ms")
