"""A tiny classifier of half crops (numpy only at run time), trained on rendered halves.

Input: the half's contrast map (Lab distance to its own body colour, so any pip colour on any body
colour looks alike) and its signed lightness difference, normalised and shrunk to GRID x GRID,
the divider always on the right, plus
what the blob counter said (its count one-hot, 8 with "unread", and its layout score). Output:
probabilities of the values 0..6. Weights: `halfnet.npz` next to this file (see train_halfnet.py).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

from vision.read.pips import HalfRead, colour_distance

GRID = 20
LOCAL_KSIZE = 21  # median filter for the local background: over twice a pip's diameter at 48 px
WEIGHTS = Path(__file__).with_name("halfnet.npz")


def contrast_features(lab: np.ndarray, body: np.ndarray, dist: np.ndarray, divider_side: str,
                      local: bool = False) -> np.ndarray:
    """Maps of one square Lab half crop (its body colour and distance map from `pips.half_maps`),
    divider on the right: the distance map and the signed lightness difference (which tells soft,
    light glare from dark pips), each GRID x GRID; with `local`, also the distance to a median-
    filtered background, which follows hard shadows and light gradients across the tile."""
    if divider_side == "left":
        lab, dist = np.ascontiguousarray(lab[:, ::-1]), dist[:, ::-1]
    top = max(float(np.partition(dist.ravel(), int(0.99 * (dist.size - 1)))[int(0.99 * (dist.size - 1))]), 40.0)
    small = cv2.resize(np.minimum(dist / top, 1), (GRID, GRID), interpolation=cv2.INTER_AREA)  # dist >= 0
    light = cv2.resize(np.clip((lab[:, :, 0] - body[0]) / top, -1, 1), (GRID, GRID), interpolation=cv2.INTER_AREA)
    maps = [small.ravel(), light.ravel()]
    if local:
        u8 = np.clip(lab, 0, 255).astype(np.uint8)
        bg = cv2.medianBlur(u8, LOCAL_KSIZE).astype(np.float32)
        ld = colour_distance(lab, bg)
        maps.append(cv2.resize(np.minimum(ld / top, 1), (GRID, GRID), interpolation=cv2.INTER_AREA).ravel())
    return np.concatenate(maps).astype(np.float32)


def blob_features(h: HalfRead) -> np.ndarray:
    onehot = np.zeros(8, np.float32)
    onehot[7 if h.value is None else h.value] = 1.0
    n = min(len(h.blobs), 9) / 9.0
    return np.concatenate([onehot, [h.score, n]]).astype(np.float32)


def features(lab: np.ndarray, body: np.ndarray, dist: np.ndarray, divider_side: str, h: HalfRead,
             local: bool | None = None) -> np.ndarray:
    """One feature row; `local` defaults to what the installed weights were trained with."""
    if local is None:
        local = uses_local()
    return np.concatenate([contrast_features(lab, body, dist, divider_side, local), blob_features(h)])


def n_features(local: bool) -> int:
    return (3 if local else 2) * GRID * GRID + 10


def uses_local() -> bool:
    params = load()
    return bool(params is not None and params["w1"].shape[0] == n_features(True))


@lru_cache(maxsize=2)
def load(path: str = str(WEIGHTS)) -> dict[str, np.ndarray] | None:
    p = Path(path)
    if not p.is_file():
        return None
    with np.load(p) as z:
        return {k: z[k] for k in z.files}


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    return ThreadpoolController()  # scans the loaded libraries once per process


def forward(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """Softmax probabilities (N, 7) for feature rows x (N, n_features)."""
    z = (x - params["mean"]) / params["std"]
    # One BLAS thread for these small products: OpenBLAS otherwise wakes its threads, which spin
    # after the call and take the core the reading worker or the detector next to it needs.
    # Measured on the bench frames (2 cores): reading 58 -> 29 CPU ms a frame in-process, a whole
    # frame 70 -> 53 ms (benchmarks: `dominocam bench`).
    with _blas().limit(limits=1, user_api="blas"):
        h = np.maximum(z @ params["w1"] + params["b1"], 0.0)
        logits = (h @ params["w2"] + params["b2"]) / float(params.get("temperature", np.float32(1.0)))
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


def predict(x: np.ndarray) -> np.ndarray | None:
    params = load()
    if params is None:
        return None
    return forward(params, np.atleast_2d(x).astype(np.float32))
