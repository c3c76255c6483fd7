"""`dominocam train`: render the scenes if missing, train the YOLO-OBB tile detector, export ONNX.

Needs the training extra (`pip install -e '.[train]'`): torch and ultralytics are imported here
only, never on the runtime path.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from lab.detect import training
from lab.detect.fast_dfl import rewrite_dfl
from lab.detect.quantize import quantize

log = logging.getLogger("dominocam.train")

ROOT = Path(__file__).resolve().parents[2]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=ROOT / "datasets" / "generated" / "train640",
                        help="rendered data set (rendered with `dominocam synth` if DIR/data.yaml is missing)")
    parser.add_argument("--images", type=int, default=1700, help="images to render when --data is missing")
    parser.add_argument("--render-seed", type=int, default=1, help="renderer seed when --data is missing")
    parser.add_argument("--epochs", type=int, default=30, help="epochs (an upper bound with --time-limit-h)")
    parser.add_argument("--imgsz", type=int, default=640, help="network input size in pixels")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--time-limit-h", type=float, default=None,
                        help="end training (whole epochs, full LR schedule) within this many hours")
    parser.add_argument("--warmup-epochs", type=float, default=1.0)
    parser.add_argument("--close-mosaic", type=int, default=3, help="last epochs trained without mosaic")
    parser.add_argument("--nbs", type=int, default=None,
                        help="nominal batch for gradient accumulation (default: --batch, one step per batch)")
    parser.add_argument("--max-epochs", type=int, default=None,
                        help="with --time-limit-h, epochs may be added up to this many if time allows")
    parser.add_argument("--lr0", type=float, default=None,
                        help="AdamW's initial learning rate (default: Ultralytics' choice, 0.001667 here); "
                             "less for a continuation with --init")
    parser.add_argument("--init", type=Path, default=None,
                        help="start from weights of an earlier run of ours (e.g. runs/tiles-obb/weights/last.pt)")
    parser.add_argument("--hard-time-h", type=float, default=None,
                        help="Ultralytics' time=: stop at H hours even inside an epoch (short continuations)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="torch threads for training (Ultralytics alone would use cpus - 1)")
    parser.add_argument("--val-final-only", action="store_true",
                        help="validate only after the last epoch (saves minutes per epoch on the CPU)")
    parser.add_argument("--out", type=Path, default=ROOT / "models", help="where tiles-obb.{pt,onnx} go")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs", help="Ultralytics run folder")
    parser.add_argument("--name", default="tiles-obb", help="run name under --runs")
    parser.add_argument("--weights", type=Path, default=None,
                        help="skip training: export these weights (e.g. runs/tiles-obb/weights/last.pt)")
    parser.add_argument("--calib-images", type=int, default=64,
                        help="rendered training images that calibrate the int8 copy (0: no int8 copy)")
    parser.add_argument("--device", default="cpu", help='torch device: "cpu", or "0" for the first GPU (a lent machine)')
    parser.add_argument("--workers", type=int, default=0, help="data-loading processes (0 on the 2-core machine)")
    parser.add_argument("--model-yaml", default=None,
                        help="architecture to train from scratch (default yolo11n-obb.yaml; yolo11s-obb.yaml is larger)")
    parser.add_argument("--no-export", action="store_true",
                        help="train only: copy the weights to --out as tiles-obb.train.pt, no ONNX (export later "
                             "with --weights; on a lent GPU machine, whose image lacks the exporter's tools)")
    parser.add_argument("--config-dir", type=Path, default=ROOT / ".ultralytics",
                        help="YOLO_CONFIG_DIR (settings and the stand-in font)")


def _render(data: Path, images: int, seed: int, imgsz: int) -> None:
    cmd = [sys.executable, "-m", "dominocam", "synth", "--out", str(data), "--images", str(images),
           "--videos", "0", "--seed", str(seed), "--size", f"{imgsz}x{imgsz}"]
    log.info("rendering the training set: %s", " ".join(cmd))
    done = subprocess.run(cmd, check=False)
    if done.returncode != 0 or not (data / "data.yaml").is_file():
        raise SystemExit(f"rendering failed (exit {done.returncode}): run the command above by hand")


def run(args: argparse.Namespace) -> int:
    training.prepare_offline(args.config_dir)
    started = time.time()
    summary: dict = {"started": datetime.now(UTC).isoformat(timespec="seconds"), "imgsz": args.imgsz}
    if args.weights is None:
        if not (args.data / "data.yaml").is_file():
            _render(args.data, args.images, args.render_seed, args.imgsz)
        deadline = started + args.time_limit_h * 3600 if args.time_limit_h else None
        settings = training.TrainSettings(
            data_yaml=args.data / "data.yaml", project=args.runs, name=args.name,
            epochs=args.epochs, imgsz=args.imgsz, batch=args.batch, deadline=deadline,
            warmup_epochs=args.warmup_epochs, close_mosaic=args.close_mosaic,
            nbs=args.nbs or args.batch, max_epochs=args.max_epochs, init_weights=args.init,
            val_each_epoch=not args.val_final_only, hard_time_h=args.hard_time_h,
            threads=args.threads, lr0=args.lr0, device=args.device, workers=args.workers,
            model_yaml=args.model_yaml or training.MODEL_YAML,
        )
        log.info("training %s on %s: %d epochs max, imgsz %d, batch %d, device %s",
                 args.init or f"{settings.model_yaml} (from scratch)", settings.data_yaml, args.epochs, args.imgsz,
                 args.batch, args.device)
        weights = training.train(settings)
        summary.update(data=str(args.data), epochs_max=args.epochs, batch=args.batch, lr0=args.lr0 or "auto",
                       train_hours=round((time.time() - started) / 3600, 3))
    else:
        weights = args.weights
        if not weights.is_file():
            log.error("--weights %s does not exist", weights)
            return 1
    args.out.mkdir(parents=True, exist_ok=True)
    if args.no_export:
        shutil.copyfile(weights, args.out / "tiles-obb.train.pt")
        _write_summary(args.out, summary, weights)
        log.info("wrote %s (export it with --weights)", args.out / "tiles-obb.train.pt")
        return 0
    onnx = training.export_onnx(weights, args.imgsz)
    training.strip_weights(weights, args.out / "tiles-obb.pt")
    rewrite_dfl(onnx, args.out / "tiles-obb.onnx")
    summary.update(weights=str(weights), onnx_bytes=(args.out / "tiles-obb.onnx").stat().st_size)
    if args.calib_images > 0:
        calib = sorted((args.data / "images" / "train").glob("*.jpg"))[: args.calib_images]
        if not calib:
            log.error("no rendered images under %s/images/train to calibrate the int8 model: "
                      "pass --data with a rendered set, or --calib-images 0 to skip it", args.data)
            return 1
        quantize(args.out / "tiles-obb.onnx", args.out / "tiles-obb.int8.onnx", calib, args.imgsz)
        summary.update(int8_onnx_bytes=(args.out / "tiles-obb.int8.onnx").stat().st_size,
                       int8_calibration_images=len(calib))
    _write_summary(args.out, summary, weights)
    log.info("wrote %s", ", ".join(str(p) for p in sorted(args.out.glob("tiles-obb.*"))))
    return 0


def _write_summary(out: Path, summary: dict, weights: Path) -> None:
    """tiles-obb.train.json: the run's settings and its last epoch's metrics (Ultralytics' results.csv)."""
    results = weights.parent.parent / "results.csv"
    if results.is_file():
        lines = results.read_text().strip().splitlines()
        summary["epochs_done"] = len(lines) - 1
        summary["last_epoch_metrics"] = dict(zip(
            [h.strip() for h in lines[0].split(",")], [v.strip() for v in lines[-1].split(",")], strict=False))
    (out / "tiles-obb.train.json").write_text(json.dumps(summary, indent=1) + "\n")
