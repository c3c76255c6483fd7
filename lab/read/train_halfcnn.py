"""Train the convolutional half classifier on rendered scenes:
`python -m lab.read.train_halfcnn --data DIR [DIR ...] --val-data DIR`.

Halves are cut exactly as the reader cuts them at run time (detector-like box errors, the divider
split), so the classifier learns the reader's own crops. Real photos are never used. Needs torch
(the `train` extra); the result is an ONNX file the reader runs with onnxruntime.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from lab.read.evaluate import load_rendered
from vision.read import halfcnn
from vision.read.box import Box, box_from_corners
from vision.read.tile import TileRead, prepare_tile
from vision.read.truthdet import BoxNoise, perturb

log = logging.getLogger("train_halfcnn")

# Besides the detector-like box errors, half the tiles once more with a box further off: a half
# with a strip of the table or a neighbour's pips along its edge is still a half. Without these,
# the "no tile face" class took such halves of real photos (boxes moved by the detector-like
# errors) for the table: 3.3 % of real halves unread against 0.5 % without that class.
WIDE_NOISE = BoxNoise(shift_px=7.0, angle_deg=10.0, size_frac=0.1)
WIDE_SHARE = 0.5


def half_samples(frame: np.ndarray, box: Box, values, halves_truth) -> tuple[list[np.ndarray], list[int]]:
    """Inputs and labels for both halves of one tile, cut as the reader does (none for a box too
    small to read)."""
    cut = prepare_tile(frame, box, "up", 1.0)
    if isinstance(cut, TileRead):
        return [], []
    vals = list(values)
    if np.hypot(*(cut.halves[0] - halves_truth[0])) > np.hypot(*(cut.halves[0] - halves_truth[1])):
        vals = vals[::-1]
    return list(cut.inputs), vals


def _negatives(frame: np.ndarray, ti, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Half inputs of boxes that are no tile face: on the table or an arm clear of every tile, and
    the backs of face-down tiles. The detector's false boxes and a back with a bar-like pattern
    come to the reader so. (Boxes half a tile off are left out: cut there, a half of the next tile
    differs from a true half only in where the divider is.)"""
    tiles = [t for t in ti.tiles if t.corners is not None]
    if not tiles:
        return []
    boxes = [box_from_corners(t.corners) for t in tiles]
    length = float(np.median([b.length for b in boxes]))
    width = float(np.median([b.width for b in boxes]))
    mask = np.zeros(frame.shape[:2], np.uint8)
    for t in tiles:
        cv2.fillPoly(mask, [np.round(t.corners).astype(np.int32)], 1)
    out: list[np.ndarray] = []
    h, w = frame.shape[:2]
    for _ in range(4 * n):  # clear of the tiles (a few tries each)
        if len(out) >= 2 * n:
            break
        a = rng.uniform(0, np.pi)
        f = rng.uniform(0.8, 1.2)
        b = Box(rng.uniform(0, w), rng.uniform(0, h), float(np.cos(a)), float(np.sin(a)), length * f, width * f)
        poly = np.round(b.corners()).astype(np.int32)
        if poly.min() < 0 or (poly[:, 0] >= w).any() or (poly[:, 1] >= h).any():
            continue
        area = np.zeros_like(mask)
        cv2.fillPoly(area, [poly], 1)
        inside = int(area.sum())
        if inside and int((area & mask).sum()) < 0.1 * inside:
            out.extend(_cut_inputs(frame, b))
    for t, b in zip(tiles, boxes, strict=True):
        if t.face == "down":
            out.extend(_cut_inputs(frame, perturb(b, BoxNoise(), rng)))
    return out


def _cut_inputs(frame: np.ndarray, box: Box) -> list[np.ndarray]:
    cut = prepare_tile(frame, box, "up", 1.0)
    return [] if isinstance(cut, TileRead) else list(cut.inputs)


def _image_samples(task) -> tuple[np.ndarray, np.ndarray]:
    ti, copies, seed = task
    rng = np.random.default_rng(seed)
    frame = cv2.imread(str(ti.image))
    xs, ys = [], []
    if frame is None:
        return np.zeros((0, halfcnn.CHANNELS, halfcnn.SIZE, halfcnn.SIZE), np.float16), np.zeros(0, np.int8)
    faces = 0
    for t in ti.tiles:
        if not t.counts or t.face != "up" or t.values is None:
            continue
        faces += 1
        base = box_from_corners(t.corners)
        noises = [BoxNoise()] * copies + ([WIDE_NOISE] if rng.random() < WIDE_SHARE else [])
        for noise in noises:
            r, lab = half_samples(frame, perturb(base, noise, rng), t.values, t.halves)
            xs.extend(r)
            ys.extend(lab)
    neg = _negatives(frame, ti, rng, max(2, faces // 3))
    xs.extend(neg)
    ys.extend([halfcnn.NOT_PIPS] * len(neg))
    shape = (len(xs), halfcnn.CHANNELS, halfcnn.SIZE, halfcnn.SIZE)
    return np.array(xs, np.float16).reshape(shape), np.array(ys, np.int8)


def build(data: Path, copies: int, seed: int, max_images: int | None, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Inputs (float16) and labels of a rendered set, cached in DIR/halfcnn-inputs-*.npy."""
    stem = data / f"halfcnn-inputs-{halfcnn.CHANNELS}x{halfcnn.SIZE}-c{halfcnn.CLASSES}w-{copies}-{seed}-{max_images or 'all'}"
    fx, fy = stem.with_suffix(".x.npy"), stem.with_suffix(".y.npy")
    if fx.is_file() and fy.is_file():
        return np.load(fx), np.load(fy)
    images = list(load_rendered(data))[: max_images or None]
    tasks = [(ti, copies, seed * 100003 + i) for i, ti in enumerate(images)]
    xs, ys = [], []
    t0 = time.time()
    with ProcessPoolExecutor(workers) as pool:
        for i, (x, y) in enumerate(pool.map(_image_samples, tasks, chunksize=8)):
            xs.append(x)
            ys.append(y)
            if i % 500 == 499:
                log.info("%s: %d/%d images, %.0f s", data.name, i + 1, len(tasks), time.time() - t0)
    x, y = np.concatenate(xs), np.concatenate(ys).astype(np.int64)
    np.save(fx, x)
    np.save(fy, y)
    return x, y


def make_net(hidden: int = 96):
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    s = halfcnn.SIZE // 8
    return nn.Sequential(
        *block(halfcnn.CHANNELS, 16), nn.MaxPool2d(2),
        *block(16, 32), *block(32, 32), nn.MaxPool2d(2),
        *block(32, 64), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(64 * s * s, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, halfcnn.CLASSES))


def train(x: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray, epochs: int, lr: float = 3e-3,
          batch: int = 256, seed: int = 0):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = make_net()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    for ep in range(epochs):
        net.train()
        order = torch.from_numpy(rng.permutation(len(y)))
        t0, seen, right = time.time(), 0, 0
        for i in range(0, len(y), batch):
            idx = order[i : i + batch]
            xb, yb = xt[idx].float(), yt[idx]
            if rng.random() < 0.5:  # a vertical flip keeps the divider side and every pip layout's value
                xb = xb.flip(2)
            gain = torch.from_numpy(rng.uniform(0.8, 1.25, (len(idx), 1, 1, 1)).astype(np.float32))
            xb = (xb * gain).clamp(-1, 1) + 0.03 * torch.randn_like(xb)  # contrast and sensor noise
            out = net(xb)
            loss = F.cross_entropy(out, yb, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            seen += len(idx)
            right += int((out.argmax(1) == yb).sum())
        acc = accuracy(net, xv, yv)
        log.info("epoch %d/%d: train %.4f, held-out %.4f, %.0f s", ep + 1, epochs, right / seen, acc, time.time() - t0)
    return net


def logits(net, x: np.ndarray, batch: int = 2048) -> np.ndarray:
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            out.append(net(torch.from_numpy(x[i : i + batch]).float()).numpy())
    return np.concatenate(out)


def accuracy(net, x: np.ndarray, y: np.ndarray) -> float:
    return float((logits(net, x).argmax(1) == y).mean())


def fit_temperature(z: np.ndarray, y: np.ndarray) -> float:
    """Temperature that minimises the held-out negative log-likelihood (calibrated confidences)."""
    best, best_t = 1e9, 1.0
    for t in np.arange(0.5, 3.01, 0.05):
        s = z / t
        s = s - s.max(1, keepdims=True)
        nll = float(-(s[np.arange(len(y)), y] - np.log(np.exp(s).sum(1))).mean())
        if nll < best:
            best, best_t = nll, float(t)
    return best_t


def export(net, temperature: float, out: Path) -> None:
    """ONNX with the temperature folded in (logits / T), a dynamic batch axis."""
    import torch

    class Scaled(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, x):
            return self.inner(x) / temperature

    net.eval()
    dummy = torch.zeros(1, halfcnn.CHANNELS, halfcnn.SIZE, halfcnn.SIZE)
    torch.onnx.export(Scaled(net), dummy, str(out), input_names=["halves"], output_names=["logits"],
                      dynamic_axes={"halves": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", required=True, nargs="+", help="rendered training sets (dominocam synth output)")
    ap.add_argument("--copies", type=int, nargs="+", default=[1], help="crops per tile per set, perturbed boxes")
    ap.add_argument("--val-data", required=True, help="a rendered set from another seed, for calibration")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2, help="processes cutting halves")
    ap.add_argument("--max-images", type=int)
    ap.add_argument("--out", default=str(halfcnn.WEIGHTS))
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    copies = args.copies * len(args.data) if len(args.copies) == 1 else args.copies
    if len(copies) != len(args.data):
        ap.error("give one --copies value, or one per --data set")
    parts = [build(Path(d), c, 1 + i, args.max_images, args.workers) for i, (d, c) in enumerate(zip(args.data, copies, strict=True))]
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    xv, yv = build(Path(args.val_data), 1, 99, args.max_images, args.workers)
    log.info("training on %d halves, held-out %d", len(y), len(yv))
    net = train(x, y, xv, yv, args.epochs)
    z = logits(net, xv)
    t = fit_temperature(z, yv)
    acc = float((z.argmax(1) == yv).mean())
    export(net, t, Path(args.out))
    log.info("held-out halves %d: %.4f, temperature %.2f -> %s", len(yv), acc, t, args.out)
    Path(args.out).with_suffix(".json").write_text(json.dumps({
        "train_data": args.data, "copies": copies, "val_data": args.val_data, "train_halves": int(len(y)),
        "val_halves": int(len(yv)), "val_accuracy": round(acc, 4), "temperature": round(t, 2),
        "epochs": args.epochs, "size": halfcnn.SIZE, "channels": halfcnn.CHANNELS, "real_photos_used": False},
        indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
