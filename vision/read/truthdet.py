"""Detections made from a rendered image's truth, with realistic box errors.

Until the trained detector exists (and to test the reader apart from it), the reader is fed the
truth corners moved by a few pixels and degrees, the errors a detector's boxes have.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.detect.detections import Detections
from vision.read.box import Box, box_from_corners, box_from_halves


@dataclass(frozen=True)
class BoxNoise:
    shift_px: float = 4.0  # uniform in +-shift per axis, scaled by tile width / 54 px when relative
    angle_deg: float = 6.0
    size_frac: float = 0.06
    relative: bool = True  # scale the shift with the tile (4 px at a 54 px half)


def perturb(box: Box, noise: BoxNoise, rng: np.random.Generator) -> Box:
    a = np.radians(rng.uniform(-noise.angle_deg, noise.angle_deg))
    ca, sa = np.cos(a), np.sin(a)
    u = np.array([box.ux * ca - box.uy * sa, box.ux * sa + box.uy * ca])
    k = box.width / 54.0 if noise.relative else 1.0
    off = rng.uniform(-noise.shift_px, noise.shift_px, 2) * k
    f = 1 + rng.uniform(-noise.size_frac, noise.size_frac, 2)
    return Box(box.cx + off[0], box.cy + off[1], float(u[0]), float(u[1]),
               box.length * f[0], box.width * f[1])


def detections_from_corners(corners_list, faces, noise: BoxNoise | None = None, seed: int = 0):
    """`vision.detect.Detections` from truth quads (any order round the tile), perturbed by `noise`."""
    rng = np.random.default_rng(seed)
    out = []
    for c in corners_list:
        box = box_from_corners(np.asarray(c, float))
        out.append((perturb(box, noise, rng) if noise is not None else box).corners())
    if not out:
        return Detections.empty()
    n = len(out)
    return Detections(np.array(out, np.float32), np.full(n, 0.9, np.float32),
                      np.array([1 if f == "down" else 0 for f in faces], np.int64))


def truth_detections(truth: dict, noise: BoxNoise | None = None, seed: int = 0, labelled_only: bool = True):
    """`vision.detect.Detections` for the tiles of a truth JSON (rendered set), perturbed by `noise`.
    Returns (detections, truth indices in the same order)."""
    rng = np.random.default_rng(seed)
    corners, conf, cls, idx = [], [], [], []
    for i, t in enumerate(truth["tiles"]):
        if labelled_only and not t.get("labelled", True):
            continue
        box = box_from_corners(np.array(t["corners"], float))
        if noise is not None:
            box = perturb(box, noise, rng)
        corners.append(box.corners())
        conf.append(0.9)
        cls.append(1 if t.get("face") == "down" else 0)
        idx.append(i)
    if not idx:
        return Detections.empty(), []
    return (Detections(np.array(corners, np.float32), np.array(conf, np.float32), np.array(cls, np.int64)), idx)


def truth_for_image(image: str) -> dict:
    """The truth JSON of a rendered image: DIR/images/SPLIT/NAME.jpg -> DIR/truth/NAME.json (or
    NAME.json next to the image); for a real photo, its entry in truth.json beside it."""
    p = Path(image)
    real = p.parent / "truth.json"
    if real.is_file():
        # real photos: tiles listed by half centres (only those on the play grid)
        data = json.loads(real.read_text())
        if p.name in data.get("images", {}):
            tiles = [{"corners": box_from_halves(*t["halves"]).corners().tolist(), "face": "up", "labelled": True,
                      "values": t["values"], "halves": t["halves"]} for t in data["images"][p.name]]
            return {"image": p.name, "tiles": tiles}
    for cand in (p.parents[2] / "truth" / f"{p.stem}.json" if len(p.parents) > 2 else None,
                 p.parent / "truth" / f"{p.stem}.json", p.with_suffix(".json")):
        if cand is not None and cand.is_file():
            return json.loads(cand.read_text())
    raise FileNotFoundError(f"no truth JSON for {image} (looked for DIR/truth/{p.stem}.json)")
