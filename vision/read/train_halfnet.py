"""Train the half classifier on rendered scenes: `python -m vision.read.train_halfnet --data DIR`.

Halves are cut exactly as the reader cuts them at run time (detector-like box errors, tightening as `tile.TIGHTEN` says,
the divider split), so the classifier learns the reader's own crops. Real photos are never used.
Training is numpy too (a one-hidden-layer MLP with Adam); it takes a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

import cv2
import numpy as np

from vision.read import halfnet
from vision.read.evaluate import load_rendered
from vision.read.geometry import apply_h, box_from_corners, quad_homography
from vision.read.tile import HALF, PAD, TIGHTEN, cut_halves, find_divider, tighten_for_read
from vision.read.truthdet import BoxNoise, perturb

log = logging.getLogger("train_halfnet")


def half_samples(frame, box, values, halves_truth, local: bool = False):
    """Feature rows and labels for both halves of one tile, cut as the reader does."""
    quad, crop = tighten_for_read(frame, box)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    div = find_divider(lab, PAD)
    d = div if div is not None else PAD + HALF
    centres = apply_h(quad_homography(quad, HALF, PAD), [[d - HALF / 2, HALF / 2 - 0.5], [d + HALF / 2, HALF / 2 - 0.5]])
    vals = list(values)
    if np.hypot(*(centres[0] - halves_truth[0])) > np.hypot(*(centres[0] - halves_truth[1])):
        vals = vals[::-1]
    cuts = cut_halves(lab, PAD, div)
    return [c.features(local) for c in cuts], vals


def build(data: Path, copies: int, seed: int, max_images: int | None = None, local: bool = False):
    """Feature rows and labels of a rendered set (cached in DIR/halfnet-features-*.npz)."""
    # the crops depend on whether the reader re-fits boxes: a cache of the other kind is not reused
    cut = "tight" if TIGHTEN else "asis"
    cache = data / f"halfnet-features-{halfnet.n_features(local)}-{copies}-{seed}-{max_images or 'all'}-{cut}.npz"
    if cache.is_file():
        with np.load(cache) as z:
            return z["x"], z["y"]
    x, y = _build(data, copies, seed, max_images, local)
    np.savez(cache, x=x, y=y)
    return x, y


def _build(data: Path, copies: int, seed: int, max_images: int | None = None, local: bool = False):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for n, ti in enumerate(load_rendered(data)):
        if max_images and n >= max_images:
            break
        frame = cv2.imread(str(ti.image))
        if frame is None:
            continue
        for t in ti.tiles:
            if not t.counts or t.face != "up" or t.values is None:
                continue
            base = box_from_corners(t.corners)
            for c in range(copies):
                box = base if c == 0 else perturb(base, BoxNoise(), rng)
                r, lab = half_samples(frame, box, t.values, t.halves, local)
                xs.extend(r)
                ys.extend(lab)
    return np.array(xs, np.float32), np.array(ys, np.int64)


def train(x, y, hidden: int = 128, epochs: int = 40, lr: float = 2e-3, wd: float = 1e-3, seed: int = 0,
          dropout: float = 0.3):
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = (x - mean) / std
    n, d = z.shape
    p = {"w1": rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32), "b1": np.zeros(hidden, np.float32),
         "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, 7)).astype(np.float32), "b2": np.zeros(7, np.float32)}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    step = 0
    for ep in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n, 256):
            idx = order[i : i + 256]
            xb, yb = z[idx], y[idx]
            if rng.random() < 0.5:  # a vertical flip keeps the divider side and the layouts
                maps = (xb.shape[1] - 10) // halfnet.GRID**2
                g2 = maps * halfnet.GRID**2
                img = xb[:, :g2].reshape(-1, maps, halfnet.GRID, halfnet.GRID)[:, :, ::-1]
                xb = np.concatenate([img.reshape(len(idx), -1), xb[:, g2:]], axis=1)
            xb = xb + rng.normal(0, 0.1, xb.shape).astype(np.float32)  # input noise
            hpre = xb @ p["w1"] + p["b1"]
            keep = (rng.random(hpre.shape) > dropout).astype(np.float32) / (1 - dropout)
            h = np.maximum(hpre, 0) * keep
            logits = h @ p["w2"] + p["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            e = np.exp(logits)
            prob = e / e.sum(axis=1, keepdims=True)
            g = prob
            g[np.arange(len(idx)), yb] -= 1
            g /= len(idx)
            grads = {"w2": h.T @ g + wd * p["w2"], "b2": g.sum(axis=0)}
            gh = (g @ p["w2"].T) * (hpre > 0) * keep
            grads["w1"] = xb.T @ gh + wd * p["w1"]
            grads["b1"] = gh.sum(axis=0)
            step += 1
            rate = lr * (0.5 * (1 + np.cos(np.pi * ep / epochs)))
            for k in p:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9**step), v2[k] / (1 - 0.999**step)
                p[k] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if ep % 10 == 9 or ep == epochs - 1:
            acc = (halfnet.forward({**p, "mean": mean, "std": std}, x).argmax(axis=1) == y).mean()
            log.info("epoch %d: train accuracy %.4f", ep + 1, acc)
    return {**p, "mean": mean.astype(np.float32), "std": std.astype(np.float32)}


def fit_temperature(params, x, y) -> float:
    """Temperature that minimises the held-out negative log-likelihood (calibrated confidences)."""
    best, best_t = 1e9, 1.0
    for t in np.arange(0.5, 3.01, 0.1):
        prob = halfnet.forward({**params, "temperature": np.float32(t)}, x)
        nll = -np.log(prob[np.arange(len(y)), y] + 1e-9).mean()
        if nll < best:
            best, best_t = nll, float(t)
    return best_t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", required=True, nargs="+", help="rendered training sets (dominocam synth output)")
    ap.add_argument("--val-data", required=True, help="a rendered set from another seed, for calibration")
    ap.add_argument("--copies", type=int, default=3, help="crops per tile: exact box + perturbed ones")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--local", action="store_true", help="add the local-background contrast map")
    ap.add_argument("--out", default=str(halfnet.WEIGHTS))
    ap.add_argument("--max-images", type=int)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    parts = [build(Path(d), args.copies, 1 + i, args.max_images, args.local) for i, d in enumerate(args.data)]
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    log.info("training on %d halves", len(y))
    xv, yv = build(Path(args.val_data), 2, 99, args.max_images, args.local)
    params = train(x, y, hidden=args.hidden, epochs=args.epochs)
    t = fit_temperature(params, xv, yv)
    params["temperature"] = np.float32(t)
    acc = (halfnet.forward(params, xv).argmax(axis=1) == yv).mean()
    g2 = halfnet.n_features(args.local) - 10
    blob = (xv[:, g2 : g2 + 8].argmax(axis=1) == yv).mean()
    log.info("held-out halves %d: classifier %.4f, blob counter alone %.4f, temperature %.1f", len(yv), acc, blob, t)
    np.savez_compressed(args.out, **params)
    Path(args.out).with_suffix(".json").write_text(json.dumps({
        "train_data": args.data, "val_data": args.val_data, "train_halves": int(len(y)), "val_halves": int(len(yv)),
        "val_accuracy": round(float(acc), 4), "blob_counter_val_accuracy": round(float(blob), 4),
        "temperature": round(t, 2), "epochs": args.epochs, "hidden": args.hidden, "grid": halfnet.GRID,
        "local": bool(args.local)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
