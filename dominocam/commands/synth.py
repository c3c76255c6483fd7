"""`dominocam synth`: render synthetic table photos (and deal videos) with exact labels."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from vision.synth.dataset import contact_sheet, looks_sheet, real_vs_render, write_images
from vision.synth.looks import FACTORS
from vision.synth.scene import KINDS
from vision.synth.video import write_videos

log = logging.getLogger(__name__)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x960, got {text!r}") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text!r} out of range 64..8192")
    return w, h


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, help="output folder (e.g. datasets/generated/train640)")
    parser.add_argument("--images", type=int, default=0, help="number of still images")
    parser.add_argument("--videos", type=int, default=0, help="number of whole-deal videos")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same bytes")
    parser.add_argument("--size", type=_size, default=(1280, 960), help="image size WxH (default 1280x960)")
    parser.add_argument("--val", type=int, default=None, help="images for the val split (default min(200, N/8))")
    parser.add_argument("--processes", type=int, default=1,
                        help="render stills in this many processes (the same files; e.g. 16 on a lent GPU machine)")
    parser.add_argument("--kinds", default=None,
                        help="only these scene kinds, comma-separated: chain, board, dense, recount (default: all, mixed)")
    parser.add_argument("--look", default=None,
                        help="every image in one look of vision/synth/looks.py (e.g. six_across, no_divider, pin); "
                             "'list' prints them")
    parser.add_argument("--variants", action="store_true",
                        help="draw each scene's set make at random: both sixes, every divider kind, "
                             "pip sizes 60-140 %%, engraved pips (for training)")
    parser.add_argument("--video-size", type=_size, default=(960, 720), help="video frame size (default 960x720)")
    parser.add_argument("--fps", type=int, default=10, help="video frame rate (10-30)")
    parser.add_argument("--contact-sheet", type=Path, default=None,
                        help="write a PNG of 24 random renders here, and beside it (NAME-looks.jpg) one scene in every look")
    parser.add_argument("--real-vs-render", type=Path, default=None,
                        help="write a PNG of real photos (from --real) next to renders of the same scale")
    parser.add_argument("--real", type=Path, default=Path("../shared/real/dd-game1"),
                        help="folder of real photos, only for --real-vs-render (never used for training)")


def run(args) -> int:
    if args.look == "list":
        for name, lk in FACTORS.items():
            print(f"{name:14s} {lk.about}")
        return 0
    if args.look is not None and args.look not in FACTORS:
        log.error("no look called %r; the looks are: %s", args.look, ", ".join(FACTORS))
        return 2
    if args.contact_sheet is not None:
        contact_sheet(args.contact_sheet, args.seed)
        looks = args.contact_sheet.with_name(args.contact_sheet.stem + "-looks.jpg")
        looks_sheet(looks, args.seed)
        log.info("contact sheets written to %s and %s", args.contact_sheet, looks)
    if args.real_vs_render is not None:
        real_vs_render(args.real, args.real_vs_render, args.seed)
        log.info("comparison written to %s", args.real_vs_render)
    if args.images < 0 or args.videos < 0:
        log.error("--images and --videos must be 0 or more")
        return 2
    if args.processes < 1:
        log.error("--processes must be 1 or more, got %d", args.processes)
        return 2
    if args.val is not None and not 0 <= args.val <= args.images:
        log.error("--val must be between 0 and --images (%d), got %d", args.images, args.val)
        return 2
    if args.videos and not 1 <= args.fps <= 60:
        log.error("--fps must be 1..60 (10-30 is sensible), got %d", args.fps)
        return 2
    kinds = None
    if args.kinds:
        kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
        unknown = [k for k in kinds if k not in KINDS]
        if unknown or not kinds:
            log.error("unknown scene kind(s) %s; choose from %s", unknown or args.kinds, ", ".join(KINDS))
            return 2
    if args.images or args.videos:
        if args.out is None:
            log.error("--out DIR is required to write images or videos")
            return 2
        if args.images:
            write_images(args.out, args.images, args.seed, args.size, args.val, kinds=kinds, processes=args.processes,
                         look=args.look, variants=args.variants)
        if args.videos:
            write_videos(args.out, args.videos, args.seed, args.video_size, args.fps)
    elif args.contact_sheet is None and args.real_vs_render is None:
        log.error("nothing to do: give --images N, --videos M or --contact-sheet PATH")
        return 2
    return 0
