"""`dominocam eval --data DIR...`: detection, pip reading and layout against truth.

With `--detection-only` it scores the detector's boxes alone (recall, precision, false tiles on the
play grid), by the same matching rule, truth loader and counts as the whole reader
(`lab.read.evaluate`, whose docstring states the rule).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import replace
from pathlib import Path

from tqdm import tqdm

from dominocam.commands.synth import _size
from lab.read.evaluate import confusion_png
from lab.read.sets import MATRIX_COLUMNS, evaluate_set, matrix_set, matrix_table
from vision.detect import DEFAULT_MODEL, DetectorSettings, TileDetector
from vision.read.setprofile import ProfileError, load_profile
from vision.read.workers import reading_pool
from vision.synth.looks import FACTORS

HELP = "measure the reader on rendered or real photos"
log = logging.getLogger("dominocam.eval")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matrix", action="store_true",
                        help="the robustness matrix: render held-out scenes per look of vision/synth/looks.py "
                             "(one change from a plain baseline each) and print one row per look")
    parser.add_argument("--looks", default=None, help="with --matrix: only these looks, comma-separated")
    # 64: 16 recount scenes a look; at 16 scenes one scene's quirk (the same tiles under every look)
    # moved a look's phantoms by 0.06 and its recounts by 25 points (lab note 2026-12-04)
    parser.add_argument("--matrix-images", type=int, default=64, help="with --matrix: scenes per look")
    parser.add_argument("--matrix-size", default="1280x960", help="with --matrix: image size WxH")
    parser.add_argument("--matrix-root", type=Path, default=Path("datasets/generated/matrix"),
                        help="with --matrix: where the rendered scenes are kept (rendered once, then reused)")
    parser.add_argument("--data", nargs="+", metavar="DIR",
                        help="rendered sets (DIR/truth/*.json) or real photos (DIR/truth.json); "
                             "one JSON line per set and scale")
    parser.add_argument("--scale", "--scales", dest="scales", type=float, nargs="+", default=[1.0], metavar="S",
                        help="resize images (and truth) by these factors, e.g. --scale 1.0 0.7")
    parser.add_argument("--split", help="rendered sets: only images of this split (e.g. val)")
    parser.add_argument("--limit", type=int, help="at most this many images per set")
    parser.add_argument("--detection-only", action="store_true",
                        help="score the detector's boxes only: recall, precision, false tiles on the play grid")
    parser.add_argument("--model", help="detector ONNX file (default models/tiles-obb.onnx)")
    parser.add_argument("--conf", type=float, default=DetectorSettings.conf, help="detector confidence threshold")
    parser.add_argument("--no-slicing", action="store_true", help="detect on the whole frame only (no sliced pass)")
    parser.add_argument("--min-tile-px", type=float, default=DetectorSettings.min_tile_px,
                        help="slice when the median tile is shorter than this at the network input")
    parser.add_argument("--target-tile-px", type=float, default=DetectorSettings.target_tile_px,
                        help="tile long side the finer (sliced) pass brings the tiles to")
    parser.add_argument("--relook-below", type=float, default=DetectorSettings.relook_below,
                        help="look again where the finer pass's tiles are under this share of the target "
                             "(0: never)")
    parser.add_argument("--downscale", choices=("area", "linear"), default=DetectorSettings.downscale,
                        help="how the finer pass shrinks a large frame")
    parser.add_argument("--no-rows", action="store_true",
                        help="keep the network's boxes on rows of face-down tiles (no row measuring)")
    parser.add_argument("--truth-boxes", action="store_true",
                        help="feed the reader the truth boxes moved by detector-like errors (4 px at a "
                             "54 px tile, 6 deg, 6 %%) instead of running the detector: measures reading alone")
    parser.add_argument("--exact-boxes", action="store_true", help="with --truth-boxes: no box errors")
    parser.add_argument("--annotate", metavar="DIR",
                        help="write each image with the scored boxes and, in red, the true tiles missed")
    parser.add_argument("--out", help="folder for the confusion matrix PNG and the JSON (default runs/eval/NAME); "
                                      "with several sets or scales, one sub-folder NAME-SCALE each")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--set", metavar="FILE", dest="set_file",
                        help="read with this set profile (from `dominocam enrol`)")


def _check_sets(roots: list[Path]) -> str | None:
    for root in roots:
        if not root.is_dir():
            return f"{root} is not a folder"
        if not (root / "truth.json").is_file() and not (root / "truth").is_dir():
            return f"{root} has neither truth.json nor truth/*.json"
    return None


def _detector(args):
    settings = DetectorSettings(conf=args.conf, slicing=not args.no_slicing, min_tile_px=args.min_tile_px,
                                target_tile_px=args.target_tile_px, relook_below=args.relook_below,
                                downscale=args.downscale)
    if args.no_rows:
        settings = replace(settings, rows=replace(settings.rows, enabled=False))
    return TileDetector(Path(args.model) if args.model else DEFAULT_MODEL, settings)


def _detector_or_none(args):
    """(the detector, False), (None, False) with --truth-boxes, (None, True) when it cannot load."""
    if args.truth_boxes:
        return None, False
    try:
        return _detector(args), False
    except FileNotFoundError as exc:
        print(f"dominocam eval: {exc} (or use --truth-boxes to measure reading alone)", file=sys.stderr)
        return None, True


def run(args) -> int:
    args.profile = None
    if args.set_file:
        try:
            args.profile = load_profile(args.set_file)
        except ProfileError as exc:
            print(f"dominocam eval: {exc}", file=sys.stderr)
            return 2
    if args.matrix:
        return _matrix(args)
    if not args.data:
        print("dominocam eval: give --data DIR (rendered sets or real photos) or --matrix", file=sys.stderr)
        return 2
    roots = [Path(d) for d in args.data]
    problem = _check_sets(roots)
    if problem:
        print(f"dominocam eval: {problem}", file=sys.stderr)
        return 2
    detector, failed = _detector_or_none(args)
    if failed:
        return 2
    boxes = "detector" if detector else ("truth exact" if args.exact_boxes else "truth + box errors")
    runs = [(root, scale) for root in roots for scale in args.scales]
    pool = None if args.detection_only else reading_pool()
    try:
        for root, scale in runs:
            _report(root, scale, args, detector, pool, boxes, len(runs))
    finally:
        if pool is not None:
            pool.close()
    return 0


def _report(root: Path, scale: float, args, detector, pool, boxes: str, n_runs: int) -> None:
    scores = evaluate_set(root, scale, args, detector, pool)
    summary = scores.detection_summary() if args.detection_only else scores.summary()
    summary.update({"data": str(root), "scale": scale, "boxes": boxes})
    if detector is not None:
        s = detector.settings
        summary.update({"conf": s.conf, "slicing": s.slicing, "min_tile_px": s.min_tile_px,
                        "target_tile_px": s.target_tile_px, "relook_below": s.relook_below, "downscale": s.downscale, "model": str(getattr(detector, "model_path", ""))})
    name = f"{root.name}-{scale:g}" + ("-detect" if args.detection_only else "")
    if args.out:
        out = Path(args.out) if n_runs == 1 else Path(args.out) / name
    else:
        out = Path("runs/eval") / name
    out.mkdir(parents=True, exist_ok=True)
    if not args.detection_only:
        png = out / "confusion.png"
        confusion_png(scores.confusion, png, f"{root.name} scale {scale:g}: per-half {summary['per_half']} %")
        summary["confusion_png"] = str(png)
        summary["confusion"] = scores.confusion.tolist()
    (out / "errors.json").write_text(json.dumps(scores.errors, indent=0))
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary), flush=True)
    log.info("%s at %g: recall %s %%, precision %s %%, false tiles on the grid %d (at most %d per image)",
             root.name, scale, summary["recall"], summary["precision"], summary["false_tiles"],
             summary["max_false_tiles_per_image"])
    if not args.detection_only:
        log.info("exact tiles %s %%, per half %s %%, layout exact %s %% (%d images); confusion matrix in %s",
                 summary["exact_tiles"], summary["per_half"], summary["layout_exact"],
                 summary["layout_images"], summary["confusion_png"])
        if summary["recount_images"]:
            log.info("recount: every hand right in %s %% of %d scenes (%s %% of hands)",
                     summary["recount_exact"], summary["recount_images"], summary["recount_hands_exact"])


def _matrix(args) -> int:
    names = [x.strip() for x in args.looks.split(",")] if args.looks else list(FACTORS)
    unknown = [x for x in names if x not in FACTORS]
    if unknown:
        print(f"dominocam eval: no look called {', '.join(unknown)}; the looks are: {', '.join(FACTORS)}",
              file=sys.stderr)
        return 2
    try:
        size = _size(args.matrix_size)
    except argparse.ArgumentTypeError as exc:
        print(f"dominocam eval: {exc}", file=sys.stderr)
        return 2
    detector, failed = _detector_or_none(args)
    if failed:
        return 2
    args.split, args.limit = None, None
    pool = reading_pool()
    rows = []
    try:
        for name in tqdm(names, desc="looks", unit="look"):
            folder = matrix_set(args.matrix_root, name, args.matrix_images, size)
            summary = evaluate_set(folder, 1.0, args, detector, pool).summary()
            row = {"look": name, "images": summary["images"], **{k: summary[k] for k, _ in MATRIX_COLUMNS}}
            rows.append(row)
    finally:
        if pool is not None:  # DOMINOCAM_READ_PROCESSES=0 or one core: read in-process
            pool.close()
    out = Path(args.out) if args.out else Path("runs/eval/matrix")
    out.mkdir(parents=True, exist_ok=True)
    (out / "matrix.json").write_text(json.dumps({"boxes": "detector" if detector else "truth + box errors",
                                                 "size": list(size), "rows": rows}, indent=1))
    print(matrix_table(rows), flush=True)
    log.info("matrix written to %s", out / "matrix.json")
    return 0


