"""Detection recall and precision against truth given as tile half centres.

A true tile counts as found when one detection contains both of its half centres; detections claim
tiles one-to-one, best confidence first, so a duplicate box is a false detection.

    python -m vision.detect.evaluate --rendered datasets/generated/heldout --real ../shared/real/dd-game1
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.detect.detections import Detections

log = logging.getLogger(__name__)


@dataclass
class Score:
    """Counts summed over images."""

    tiles: int = 0
    found: int = 0
    detections: int = 0
    true_detections: int = 0
    false_on_grid_max: int = 0  # worst image: false detections inside the play grid (real photos)
    images: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.tiles += other.tiles
        self.found += other.found
        self.detections += other.detections
        self.true_detections += other.true_detections
        self.false_on_grid_max = max(self.false_on_grid_max, other.false_on_grid_max)
        self.images += other.images
        self.ms += other.ms

    def as_dict(self) -> dict:
        return {
            "images": self.images,
            "tiles": self.tiles,
            "recall": round(self.found / self.tiles, 4) if self.tiles else None,
            "precision": round(self.true_detections / self.detections, 4) if self.detections else None,
            "false_detections": self.detections - self.true_detections,
            "max_false_on_grid_per_image": self.false_on_grid_max,
            "median_ms": round(float(np.median(self.ms)), 1) if self.ms else None,
        }


def _contains(corners: np.ndarray, point) -> bool:
    return cv2.pointPolygonTest(corners.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def match(dets: Detections, halves: np.ndarray, counted: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(found per truth tile, true per detection). halves: (T, 2, 2) half centres.

    counted: (T,) tiles that must be found (recall); uncounted tiles (cut by the frame, hidden)
    still make a detection of them true.
    """
    halves = np.asarray(halves, np.float32).reshape(-1, 2, 2)
    claimed = np.zeros(len(halves), bool)
    true = np.zeros(len(dets), bool)
    for i in np.argsort(-dets.confidence, kind="stable"):
        for t in range(len(halves)):
            if not claimed[t] and _contains(dets.corners[i], halves[t, 0]) and _contains(dets.corners[i], halves[t, 1]):
                claimed[t] = true[i] = True
                break
    counted = np.ones(len(halves), bool) if counted is None else counted
    return claimed[counted], true


def score_image(dets: Detections, halves: np.ndarray, counted=None, grid=None) -> Score:
    found, true = match(dets, halves, counted)
    score = Score(tiles=len(found), found=int(found.sum()), detections=len(dets),
                  true_detections=int(true.sum()), images=1)
    if grid is not None:
        x0, y0, x1, y1 = grid
        ctr = dets.corners.mean(axis=1)
        on_grid = (ctr[:, 0] >= x0) & (ctr[:, 0] <= x1) & (ctr[:, 1] >= y0) & (ctr[:, 1] <= y1)
        score.false_on_grid_max = int((on_grid & ~true).sum())
    return score


def eval_rendered(detector, data: Path, split: str = "val", limit: int | None = None) -> Score:
    """Rendered set: recall over the labelled tiles of DIR/truth/*.json whose image is in the split."""
    total = Score()
    files = sorted((data / "truth").glob("*.json"))
    files = [f for f in files if f"images/{split}/" in json.loads(f.read_text())["image"]]
    for path in files[:limit]:
        truth = json.loads(path.read_text())
        frame = cv2.imread(str(data / truth["image"]))
        tiles = truth["tiles"]
        halves = np.array([t["halves"] for t in tiles], np.float32).reshape(-1, 2, 2)
        counted = np.array([bool(t.get("labelled", True)) for t in tiles], bool)
        t0 = time.perf_counter()
        dets = detector.detect(frame)
        ms = (time.perf_counter() - t0) * 1000
        score = score_image(dets, halves, counted)
        score.ms.append(ms)
        total.add(score)
    return total


def eval_real(detector, folder: Path, scale: float = 1.0, annotate_dir: Path | None = None) -> Score:
    """Real photos: DIR/truth.json lists the tiles on the play grid by half centres."""
    truth = json.loads((folder / "truth.json").read_text())
    grid = np.asarray(truth["grid"], np.float32) * scale if "grid" in truth else None
    total = Score()
    for name, tiles in sorted(truth["images"].items()):
        frame = cv2.imread(str(folder / name))
        if scale != 1.0:
            frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        halves = np.array([t["halves"] for t in tiles], np.float32).reshape(-1, 2, 2) * scale
        t0 = time.perf_counter()
        dets = detector.detect(frame)
        ms = (time.perf_counter() - t0) * 1000
        score = score_image(dets, halves, grid=grid)
        score.ms.append(ms)
        if annotate_dir is not None:
            from vision.detect.annotate import annotate

            found, _ = match(dets, halves)
            annotate_dir.mkdir(parents=True, exist_ok=True)
            out = annotate_dir / f"{Path(name).stem}-x{scale:g}.jpg"
            cv2.imwrite(str(out), annotate(frame, dets, halves[~found]))
        log.debug("%s at %.2f: %d/%d tiles, %d detections", name, scale, score.found, score.tiles, len(dets))
        total.add(score)
    return total


def main(argv: list[str] | None = None) -> int:
    from vision.detect.detector import DEFAULT_MODEL, DetectorSettings, TileDetector

    p = argparse.ArgumentParser(prog="python -m vision.detect.evaluate", description=__doc__.split("\n")[0])
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    p.add_argument("--rendered", type=Path, action="append", default=[], help="rendered set (truth/*.json)")
    p.add_argument("--split", default="val")
    p.add_argument("--limit", type=int, default=None, help="at most this many rendered images")
    p.add_argument("--real", type=Path, action="append", default=[], help="folder with truth.json")
    p.add_argument("--scales", type=float, nargs="+", default=[1.0, 0.7])
    p.add_argument("--conf", type=float, default=DetectorSettings.conf)
    p.add_argument("--no-slicing", action="store_true")
    p.add_argument("--min-tile-px", type=float, default=DetectorSettings.min_tile_px)
    p.add_argument("--annotate", type=Path, default=None, help="write annotated real photos here")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    settings = DetectorSettings(conf=args.conf, slicing=not args.no_slicing, min_tile_px=args.min_tile_px)
    detector = TileDetector(args.model, settings)
    for data in args.rendered:
        score = eval_rendered(detector, data, args.split, args.limit)
        print(json.dumps({"set": str(data), "split": args.split, "conf": args.conf, **score.as_dict()}))
    for folder in args.real:
        for scale in args.scales:
            score = eval_real(detector, folder, scale, args.annotate)
            print(json.dumps({"set": str(folder), "scale": scale, "conf": args.conf,
                              "slicing": settings.slicing, "min_tile_px": settings.min_tile_px, **score.as_dict()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
