"""Training side of the detector: Ultralytics offline set-up, training from the YAML, ONNX export.

Imported only by `dominocam train`: this module (unlike the rest of vision.detect) pulls in torch
and ultralytics, and must be set up with `prepare_offline` before ultralytics is imported.
"""

from __future__ import annotations

import logging
import math
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

MODEL_YAML = "yolo11n-obb.yaml"  # built from scratch: no pretrained weights can be downloaded here


def prepare_offline(config_dir: Path) -> None:
    """Point Ultralytics at a project folder and give it a font so that it fetches nothing.

    Training calls check_font('Arial.ttf'), which ignores YOLO_OFFLINE and plots=False and would
    download the font: any TTF under $YOLO_CONFIG_DIR/Ultralytics/Arial.ttf stops that.
    """
    config_dir = config_dir.resolve()
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ["YOLO_OFFLINE"] = "1"
    font = config_dir / "Ultralytics" / "Arial.ttf"
    if not font.is_file():
        import matplotlib

        source = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
        if not source.is_file():
            raise FileNotFoundError(
                f"no TTF to stand in for Arial.ttf: copy any .ttf file to {font} and rerun"
            )
        font.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, font)


@dataclass(frozen=True)
class TrainSettings:
    data_yaml: Path
    project: Path  # Ultralytics run folder parent (runs/)
    name: str
    epochs: int
    imgsz: int = 640
    batch: int = 16
    deadline: float | None = None  # time.time() by which training must have ended
    warmup_epochs: float = 1.0
    close_mosaic: int = 3
    seed: int = 0
    nbs: int = 16  # nominal batch: Ultralytics accumulates gradients up to nbs (64 by default)
    max_epochs: int | None = None  # the deadline may extend the run up to this many epochs
    init_weights: Path | None = None  # continue from our own earlier run's weights (never downloaded)
    hard_time_h: float | None = None  # Ultralytics' time=: stops mid-epoch at this many hours
    val_each_epoch: bool = True  # validation is slow on the CPU (rotated NMS at conf 0.001)
    threads: int | None = None  # torch threads; Ultralytics leaves one core idle (cpus - 1)
    lr0: float | None = None  # AdamW's initial rate (None: Ultralytics' auto choice, 0.001667 for our 2 classes)
    device: str = "cpu"  # or a CUDA device index ("0") on a lent GPU machine
    workers: int = 0  # data-loading processes (0: in the training process, as on the 2-core machine)
    model_yaml: str = MODEL_YAML  # the architecture trained from scratch (e.g. "yolo11s-obb.yaml")


def _deadline_callback(deadline: float, max_epochs: int):
    """Shrink the epoch count so that the run ends before the deadline, with a full LR schedule.

    Ultralytics' own `time=` cuts the last epoch short; this re-plans whole epochs after each one
    from the measured mean epoch time (with 3 % slack).
    """

    def on_fit_epoch_end(trainer) -> None:
        done = trainer.epoch + 1 - trainer.start_epoch
        mean = (time.time() - trainer.train_time_start) / max(done, 1)
        left = deadline - time.time()
        fit = min(trainer.epoch + 1 + max(math.floor(left / (mean * 1.03)), 0), max_epochs)
        if fit != trainer.epochs:
            log.warning(
                "epoch takes %.0f s: re-planning the run from %d to %d epochs to end before the deadline",
                mean, trainer.epochs, fit,
            )
            trainer.epochs = trainer.args.epochs = fit
            trainer._setup_scheduler()
            trainer.scheduler.last_epoch = trainer.epoch
            trainer.stop = trainer.epoch + 1 >= fit  # also lifts the final-epoch stop when extended

    return on_fit_epoch_end


def _threads_callback(threads: int):
    # Ultralytics sets torch's threads to cpus - 1 while choosing the device: on 2 cores that
    # trains on one. Set ours after it has.
    def on_train_start(trainer) -> None:
        import torch

        torch.set_num_threads(threads)
        log.info("training with %d torch threads", threads)

    return on_train_start


def _progress_callback():
    def on_fit_epoch_end(trainer) -> None:
        m = trainer.metrics or {}
        if trainer.epoch + 1 > trainer.epochs:  # Ultralytics' closing validation of best.pt
            log.info("best.pt: mAP50 %.3f mAP50-95 %.3f precision %.3f recall %.3f",
                     m.get("metrics/mAP50(B)", float("nan")), m.get("metrics/mAP50-95(B)", float("nan")),
                     m.get("metrics/precision(B)", float("nan")), m.get("metrics/recall(B)", float("nan")))
            return
        log.info(
            "epoch %d/%d done in %.0f s: mAP50 %.3f mAP50-95 %.3f precision %.3f recall %.3f",
            trainer.epoch + 1, trainer.epochs, trainer.epoch_time or 0.0,
            m.get("metrics/mAP50(B)", float("nan")), m.get("metrics/mAP50-95(B)", float("nan")),
            m.get("metrics/precision(B)", float("nan")), m.get("metrics/recall(B)", float("nan")),
        )

    return on_fit_epoch_end


def train(settings: TrainSettings) -> Path:
    """Train from the YAML (or `init_weights`) on `settings.device`; returns the best.pt path
    (last/best are saved each epoch)."""
    from ultralytics import YOLO

    source = str(settings.init_weights) if settings.init_weights else settings.model_yaml
    model = YOLO(source, task="obb")
    model.add_callback("on_fit_epoch_end", _progress_callback())
    if settings.threads:
        model.add_callback("on_train_start", _threads_callback(settings.threads))
    if settings.deadline is not None:
        model.add_callback(
            "on_fit_epoch_end",
            _deadline_callback(settings.deadline, settings.max_epochs or settings.epochs),
        )
    model.train(
        data=str(settings.data_yaml.resolve()),
        epochs=settings.epochs,
        imgsz=settings.imgsz,
        batch=settings.batch,
        device=settings.device,
        workers=settings.workers,
        project=str(settings.project.resolve()),
        name=settings.name,
        exist_ok=True,
        pretrained=settings.init_weights is not None,
        nbs=settings.nbs,
        val=settings.val_each_epoch,
        time=settings.hard_time_h,
        plots=False,
        amp=False,
        warmup_epochs=settings.warmup_epochs,
        close_mosaic=settings.close_mosaic,
        seed=settings.seed,
        verbose=True,
        save=True,
        patience=1000,
        flipud=0.5,  # seen from overhead, the table has no up or down
        # `auto` picks AdamW at 0.001667 for runs this short and ignores lr0; a continuation of our own
        # weights may ask for less, so as not to undo what they learnt before it has time to gain.
        **({"optimizer": "AdamW", "lr0": settings.lr0} if settings.lr0 else {}),
    )
    weights = settings.project.resolve() / settings.name / "weights"
    best = weights / "best.pt"
    if not best.is_file():
        best = weights / "last.pt"
    if not best.is_file():
        raise RuntimeError(f"training wrote no weights under {weights}: see the log above")
    return best


def export_onnx(weights: Path, imgsz: int, opset: int = 17) -> Path:
    """Export to ONNX with the NMS left out (vision.detect decodes and suppresses in numpy) and
    dynamic input sizes: the detector then runs a wide frame without square padding, and a
    rescaled frame in one pass instead of overlapping windows."""
    from ultralytics import YOLO

    out = YOLO(str(weights), task="obb").export(
        format="onnx", imgsz=imgsz, opset=opset, simplify=True, dynamic=True, nms=False, device="cpu"
    )
    return Path(out)


def strip_weights(weights: Path, dest: Path) -> Path:
    """Copy weights without optimizer state (a mid-run last.pt is ~27 MB, stripped ~5.6 MB)."""
    from ultralytics.utils.torch_utils import strip_optimizer

    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(weights, dest)
    strip_optimizer(dest)
    return dest
