"""Train a learned tile check: is a box the reader kept one whole tile? (An experiment, not
adopted: docs/lab-notes/2026-12-06-pile-hands-lit-backs.md.)

`python -m lab.read.train_verifier --data FILE.npz [FILE.npz ...] --val FILE.npz --out FILE.onnx`

The crops come from `lab.read.verifier_data` (rendered scenes only, never the real photos). Needs
torch (the `train` extra); the result is an ONNX file (inputs "crop" and "features", output
"tile", the probability of one whole tile) onnxruntime can run.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

import numpy as np

from lab.read import verifier_data as data

log = logging.getLogger("train_verifier")


def _load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    parts = [np.load(p) for p in paths]
    crops = np.concatenate([p["crops"] for p in parts])
    return (data.inputs(crops), np.concatenate([p["features"] for p in parts]).astype(np.float32),
            np.concatenate([p["labels"] for p in parts]).astype(np.float32),
            np.concatenate([p["kinds"] for p in parts]))


def build():
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = nn.Sequential(
                nn.Conv2d(data.CHANNELS, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                nn.MaxPool2d(2),  # 24 x 40
                nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                nn.MaxPool2d(2),  # 12 x 20
                nn.Conv2d(32, 48, 3, padding=1), nn.BatchNorm2d(48), nn.ReLU(),
                nn.MaxPool2d(2),  # 6 x 10
                nn.Conv2d(48, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                nn.AdaptiveAvgPool2d((1, 2)),
            )
            self.head = nn.Sequential(nn.Linear(64 * 2 + data.FEATURES, 32), nn.ReLU(), nn.Linear(32, 1))

        def forward(self, x, f):
            return self.head(torch.cat([self.conv(x).flatten(1), f], dim=1))

    return Net()


def main(argv: list[str] | None = None) -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True, type=Path)
    ap.add_argument("--val", nargs="+", required=True, type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    x, f, y, _ = _load(args.data)
    vx, vf, vy, vk = _load(args.val)
    log.info("train %d boxes (%d phantoms), val %d (%d phantoms)", len(y), int((y == 0).sum()), len(vy), int((vy == 0).sum()))
    net = build()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = args.epochs * ((len(y) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    xt, ft, yt = torch.from_numpy(x), torch.from_numpy(f), torch.from_numpy(y)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    for epoch in range(args.epochs):
        net.train()
        order = rng.permutation(len(y))
        total = 0.0
        for s in range(0, len(order), 128):
            idx = torch.from_numpy(order[s:s + 128])
            xb = xt[idx]
            # a tile turned half for half is the same tile: the crop turned 180 degrees, or mirrored
            if rng.random() < 0.5:
                xb = torch.flip(xb, dims=(2, 3))
            if rng.random() < 0.5:
                xb = torch.flip(xb, dims=(2,))
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(xb, ft[idx]).squeeze(1), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        p = predict(net, vx, vf)
        kept = vk == 0
        log.info("epoch %d loss %.4f (%.0f s) | val kept boxes: phantoms under 0.5 %d / %d, true tiles under 0.5 %d / %d",
                 epoch + 1, total / len(y), time.time() - t0, int(((p < 0.5) & (vy == 0) & kept).sum()),
                 int(((vy == 0) & kept).sum()), int(((p < 0.5) & (vy == 1) & kept).sum()), int(((vy == 1) & kept).sum()))
    export(net, args.out)
    p = predict(net, vx, vf)
    report = {}
    for thr in (0.05, 0.1, 0.2, 0.3, 0.5):
        kept = vk == 0
        report[str(thr)] = {"phantoms_dropped": int(((p < thr) & (vy == 0) & kept).sum()),
                            "phantoms": int(((vy == 0) & kept).sum()),
                            "true_dropped": int(((p < thr) & (vy == 1) & kept).sum()),
                            "true": int(((vy == 1) & kept).sum())}
    log.info("val at thresholds: %s", json.dumps(report))


def predict(net, x: np.ndarray, f: np.ndarray) -> np.ndarray:
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for s in range(0, len(x), 512):
            out.append(torch.sigmoid(net(torch.from_numpy(x[s:s + 512]), torch.from_numpy(f[s:s + 512]))).squeeze(1).numpy())
    return np.concatenate(out) if out else np.zeros(0)


def export(net, path: Path) -> None:
    import torch

    net.eval()

    class WithSigmoid(torch.nn.Module):
        def __init__(self, inner) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, x, f):
            return torch.sigmoid(self.inner(x, f))

    x = torch.zeros(1, data.CHANNELS, data.ROWS, data.COLS)
    f = torch.zeros(1, data.FEATURES)
    torch.onnx.export(WithSigmoid(net), (x, f), str(path), input_names=["crop", "features"], output_names=["tile"],
                      dynamic_axes={"crop": {0: "n"}, "features": {0: "n"}, "tile": {0: "n"}}, opset_version=17,
                      dynamo=False)
    log.info("wrote %s", path)


if __name__ == "__main__":
    main()
