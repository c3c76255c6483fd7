"""A small convolutional classifier of half crops, run with onnxruntime (never torch).

Input: the reader's own square Lab half crop (divider on the right), as colour differences to the
half's body colour and its distance map, so any pip colour on any body colour looks alike;
SIZE x SIZE, CHANNELS planes. Output: probabilities of the values 0..6 and of NOT_PIPS (no tile
face: the table, an arm, a tile's back). Weights: `halfcnn.onnx`
next to this file, trained on rendered halves only (`python -m lab.read.train_halfcnn`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

SIZE = 32
CHANNELS = 5
NOT_PIPS = 7  # the class of crops that are no half of a tile face
CLASSES = 8
WEIGHTS = Path(__file__).with_name("halfcnn.onnx")
# A second classifier trained on every set make the renderer draws (`dominocam synth --variants`:
# both sixes, no divider, grooves, pins, pip sizes, engraved pips), beside the first, trained on
# the renderer's one kind of set. Alone it reads the sets the first does not know (held-out looks,
# exact tiles of whole tiles: six across 73 -> 100 %, groove 87 -> 99 %, pin 94 -> 99 %, no
# divider 75 -> 89 %) but small tiles of the usual sets worse (renders of tiles under 45 px: 244
# against 259 of 265); the two together (`combine`) keep both: 258 of 265.
WEIGHTS_ANY_SET = Path(__file__).with_name("halfcnn-any.onnx")
DISAGREE_CAP = 0.92  # a value the two classifiers read differently: read, above the doubt of 0.9, under the sure 0.95
FIXED_SCALE = 100.0  # Lab units: the plane that keeps absolute contrast (a faint smudge stays faint)


def half_input(lab: np.ndarray, body: np.ndarray, dist: np.ndarray, divider_side: str) -> np.ndarray:
    """The classifier's (CHANNELS, SIZE, SIZE) float32 input for one square Lab half crop, its body
    colour and distance map (`pips.half_maps`): the Lab difference to the body colour and the
    distance map, each scaled by the half's own strongest contrast, and the distance map on a
    fixed scale."""
    if divider_side == "left":
        lab, dist = lab[:, ::-1], dist[:, ::-1]
    k = int(0.99 * (dist.size - 1))
    top = max(float(np.partition(dist.ravel(), k)[k]), 40.0)
    small = cv2.resize(np.ascontiguousarray(lab), (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    d = cv2.resize(np.ascontiguousarray(dist), (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    diff = np.clip((small - body.astype(np.float32)) / top, -1, 1)
    planes = [diff[:, :, 0], diff[:, :, 1], diff[:, :, 2], np.minimum(d / top, 1), np.minimum(d / FIXED_SCALE, 1)]
    return np.stack(planes).astype(np.float32)


@lru_cache(maxsize=2)
def _session(path: str):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    # one thread: the reader's worker processes and the detector take the other cores
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def available(path: Path = WEIGHTS) -> bool:
    return Path(path).is_file()


def predict(x: np.ndarray, path: Path | None = None) -> np.ndarray | None:
    """Softmax probabilities (N, CLASSES) for inputs x (N, CHANNELS, SIZE, SIZE); None without
    weights. By default the two shipped classifiers, combined (`combine`); `path`: that file alone."""
    if path is None:
        first = predict_one(x, WEIGHTS)
        if first is None or not available(WEIGHTS_ANY_SET):
            return first
        return combine(first, predict_one(x, WEIGHTS_ANY_SET))
    return predict_one(x, path)


def combine(usual: np.ndarray, any_set: np.ndarray) -> np.ndarray:
    """Per half, the surer classifier's probabilities; but where the usual-set one takes a half for
    no tile face and the any-set one reads a value, the any-set one (a set with no divider or a pin
    shows halves the first never saw)."""
    pick = (any_set.max(axis=1) >= usual.max(axis=1)) | (
        (usual.argmax(axis=1) == NOT_PIPS) & (any_set.argmax(axis=1) != NOT_PIPS))
    out = np.where(pick[:, None], any_set, usual).copy()
    # Where the two read different values, the reading is kept but never sure: a box turned off a
    # small 4 read as a six across at 0.97 and was taken (renders, tests/read/test_turn.py).
    a, b = usual.argmax(axis=1), any_set.argmax(axis=1)
    rows = np.nonzero((a != b) & (a != NOT_PIPS) & (b != NOT_PIPS))[0]
    for i in rows:
        top, other = int(out[i].argmax()), int(b[i] if pick[i] else a[i])
        other = int(a[i]) if other == top else other
        excess = max(0.0, float(out[i, top]) - DISAGREE_CAP)
        out[i, top] -= excess
        out[i, other] += excess
    return out


def predict_one(x: np.ndarray, path: Path) -> np.ndarray | None:
    """Softmax probabilities of the classifier in `path`; None without the file."""
    if not available(path):
        return None
    sess = _session(str(path))
    logits = sess.run(None, {sess.get_inputs()[0].name: np.ascontiguousarray(x, np.float32)})[0]
    logits = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)
