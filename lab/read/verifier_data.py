"""Crops of the reader's tiles on rendered scenes, each labelled a true tile or a phantom (a box on
no true tile), for a learned tile check (`lab.read.train_verifier`; an experiment, not adopted:
docs/lab-notes/2026-12-06-pile-hands-lit-backs.md).

`python -m lab.read.verifier_data --data DIR [DIR ...] --out FILE.npz [--doubtful]`

Every tile the reader keeps is cut as `vision.read.verify.canonical` cuts it (the box and a strip
of what lies around it) and labelled by the evaluation's matching rule. With `--doubtful` the boxes
the detector scored under its threshold are cut too: mostly false, they give the verifier the
clutter, board and joint boxes the reader rarely keeps. Real photos are never used.
"""

from __future__ import annotations

import argparse
import logging
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from lab.read.evaluate import load_frame, load_rendered, match
from vision.read.box import box_from_corners
from vision.read.verify import canonical, tile_length, typical_length

log = logging.getLogger("verifier_data")

CHANNELS = 3
ROWS, COLS = 48, 80  # verify.canonical's crop: H = 32 across the tile, P = 8 round it
FEATURES = 3  # detector score, face down, length / the frame's typical tile length


def inputs(crops: np.ndarray) -> np.ndarray:
    """(N, CHANNELS, ROWS, COLS) float32 from Lab crops (N, ROWS, COLS, 3): each channel centred on
    the crop's own median (a set of any colour on a table of any colour looks alike) and scaled."""
    x = np.asarray(crops, np.float32).reshape(-1, ROWS, COLS, 3)
    x = x - np.median(x.reshape(len(x), -1, 3), axis=1)[:, None, None, :]
    return np.ascontiguousarray((x / 64.0).transpose(0, 3, 1, 2))


def features(quads: list[np.ndarray], confidence: np.ndarray, face_down: list[bool],
             typical: float | None = None) -> np.ndarray:
    """(N, FEATURES): the detector's score, whether it is a back, its length against the frame's
    typical tile length (`typical`, else `verify.typical_length` of these boxes; 1 where the frame
    has none)."""
    lengths = np.array([tile_length(q) for q in quads], float)
    if typical is None and len(quads):
        typical = typical_length(lengths, np.asarray(confidence, float))
    rel = lengths / typical if typical else np.ones(len(quads))
    return np.stack([np.asarray(confidence, float), np.asarray(face_down, float), rel],
                    axis=1).astype(np.float32).reshape(-1, FEATURES)

_DET = None


def _detector():
    global _DET
    if _DET is None:
        from vision.detect import DEFAULT_MODEL, TileDetector

        _DET = TileDetector(DEFAULT_MODEL)
    return _DET


def samples(ti, doubtful: bool) -> tuple[list, list, list, list]:
    """(crops, features, labels, kinds) of one rendered image; kind 0 a kept tile, 1 a doubtful box."""
    from vision.read.reader import read_frame

    frame = load_frame(ti)
    if frame is None:
        return [], [], [], []
    det = _detector()
    d = det.detect(frame)
    reading = read_frame(frame, d, doubtful=det.last.doubtful)
    quads = [np.asarray(t.quad, float).reshape(4, 2) for t in reading.tiles]
    conf = np.array([t.detection_confidence for t in reading.tiles], float)
    feats = list(features(quads, conf, [t.face == "down" for t in reading.tiles]))
    hit = match(np.array(quads).reshape(-1, 4, 2), ti.tiles)
    crops = [canonical(frame, q).astype(np.uint8) for q in quads]
    labels = [int(i in hit) for i in range(len(quads))]
    kinds = [0] * len(quads)
    if doubtful and len(det.last.doubtful.confidence):
        dq = [box_from_corners(c).corners() for c in det.last.doubtful.corners]
        dhit = match(np.array(dq).reshape(-1, 4, 2), ti.tiles)
        # each doubtful box's length against the kept tiles' typical length, as at run time
        typical = typical_length(np.array([tile_length(q) for q in quads]), conf) if quads else None
        feats += list(features(dq, det.last.doubtful.confidence,
                               [int(c) == 1 for c in det.last.doubtful.class_id], typical or None))
        crops += [canonical(frame, q).astype(np.uint8) for q in dq]
        labels += [int(i in dhit) for i in range(len(dq))]
        kinds += [1] * len(dq)
    return crops, feats, labels, kinds


def _one(args):
    ti, doubtful = args
    return samples(ti, doubtful)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--doubtful", action="store_true")
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    images = [ti for root in args.data for ti in load_rendered(root)]
    log.info("%d images", len(images))
    crops, feats, labels, kinds = [], [], [], []
    with ProcessPoolExecutor(args.processes) as pool:
        for n, (c, f, y, k) in enumerate(pool.map(_one, [(ti, args.doubtful) for ti in images], chunksize=4), 1):
            crops += c
            feats += f
            labels += y
            kinds += k
            if n % 50 == 0:
                log.info("%d / %d images, %d boxes, %d phantoms kept", n, len(images), len(labels),
                         sum(1 for y_, k_ in zip(labels, kinds, strict=True) if not y_ and not k_))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, crops=np.array(crops, np.uint8), features=np.array(feats, np.float32),
                        labels=np.array(labels, np.int8), kinds=np.array(kinds, np.int8))
    log.info("wrote %s: %d boxes (%d true), %d kept phantoms", args.out, len(labels), sum(labels),
             sum(1 for y, k in zip(labels, kinds, strict=True) if not y and not k))


if __name__ == "__main__":
    main()
