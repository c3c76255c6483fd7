"""Scoring one set of images (rendered or real) with the detector's boxes or the truth's, and the
robustness matrix's held-out scenes (`dominocam eval --data` and `--matrix`,
lab/benchmarks/measure_profile.py)."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import Scores, load_frame, load_truth, score_boxes, score_image
from vision.detect.draw import draw_detections as draw_boxes
from vision.read.picture import draw_reading
from vision.read.reader import read_frame
from vision.read.truthdet import BoxNoise, detections_from_corners
from vision.synth.dataset import write_images

log = logging.getLogger(__name__)

MATRIX_SEED = 9300  # held out: no training set uses it
MATRIX_KINDS = ["chain", "recount", "chain", "dense"]
MATRIX_COLUMNS = (("recall", "recall"), ("exact_tiles_fully_visible", "exact whole"), ("exact_tiles", "exact all"),
                  ("layout_edges", "edges"), ("layout_exact", "layouts"), ("phantom_tiles_per_image", "phantom/img"),
                  ("recount_exact", "recounts"))


def annotate_scored(folder: Path, ti, frame, dets, reading, matched: dict[int, int]) -> None:
    """Write the image with the scored boxes (and the reading) and, in red, the true tiles missed."""
    missed = np.array([t.halves for j, t in enumerate(ti.tiles) if t.counts and j not in matched.values()],
                      float).reshape(-1, 2, 2)
    if reading is None:
        img = draw_boxes(frame, dets, missed)
    else:
        img = draw_boxes(draw_reading(frame, reading), dets.empty(), missed)
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"{ti.name}-x{ti.scale:g}.jpg"), img)


def evaluate_set(root: Path, scale: float, args, detector, pool=None):
    """Scores of one set at one scale (`detector` None: truth boxes)."""
    images = list(load_truth(root, args.split, scale))[: args.limit]
    noise = None if args.exact_boxes else BoxNoise()
    scores = Scores()
    for n, ti in enumerate(images):
        frame = load_frame(ti)
        if frame is None:
            log.error("%s: cannot read, skipped", ti.image)
            continue
        if detector is not None:
            t0 = time.perf_counter()
            dets = detector.detect(frame)
            scores.detect_ms.append((time.perf_counter() - t0) * 1000)
        else:
            keep = [t for t in ti.tiles if t.counts]
            dets = detections_from_corners([t.corners for t in keep], [t.face for t in keep], noise,
                                           seed=args.seed * 100003 + n)
        reading = None
        if args.detection_only:
            faces = ["down" if int(k) == 1 else "up" for k in dets.class_id]
            matched = score_boxes(scores, ti, dets.corners, faces)
        else:
            doubtful = detector.last.doubtful if detector is not None else None
            reading = read_frame(frame, dets, pool=pool, doubtful=doubtful, profile=getattr(args, "profile", None))
            matched = score_image(scores, ti, reading)
        if args.annotate:
            annotate_scored(Path(args.annotate), ti, frame, dets, reading, matched)
        log.debug("%s at %g: %d predictions, %d matched", ti.name, scale, len(dets), len(matched))
    return scores


def matrix_set(root: Path, name: str, n: int, size: tuple[int, int]) -> Path:
    """The held-out scenes of one look, rendered once (the same scenes under every look)."""
    folder = root / f"{size[0]}x{size[1]}" / name
    stamp = folder / "look.json"
    want = {"look": name, "images": n, "seed": MATRIX_SEED, "size": list(size), "kinds": MATRIX_KINDS}
    if stamp.is_file() and json.loads(stamp.read_text()) == want:
        return folder
    write_images(folder, n, MATRIX_SEED, size, n_val=0, progress=False, kinds=MATRIX_KINDS, look=name)
    stamp.write_text(json.dumps(want))
    return folder


def matrix_table(rows: list[dict]) -> str:
    """The matrix as a Markdown table (percentages; phantom tiles per image)."""
    head = "| look | images | " + " | ".join(label for _, label in MATRIX_COLUMNS) + " |"
    lines = [head, "|" + "---|" * (len(MATRIX_COLUMNS) + 2)]
    for r in rows:
        cells = ["-" if r[k] is None else f"{r[k]:g}" for k, _ in MATRIX_COLUMNS]
        lines.append(f"| {r['look']} | {r['images']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
