"""Scoring the reader against truth: rendered sets (truth/*.json) and real photos (truth.json).

Matching is by tile centre: a predicted tile belongs to the nearest unmatched truth tile whose
centre is within half a tile width. Halves are paired by position, so a tile read "the other
way round" is still right.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.read.geometry import box_from_corners, box_from_halves


@dataclass
class TruthTile:
    values: tuple[int, int] | None
    halves: np.ndarray  # (2, 2)
    face: str
    width: float
    counts: bool = True  # must be detected (labelled / on the play grid)
    parent: int | None = None
    owner: str = "layout"
    corners: np.ndarray | None = None
    plain: bool = True  # a plain tile style (rendered sets say which)
    visible: float = 1.0  # fraction not covered by arms


@dataclass
class TruthImage:
    image: Path
    name: str
    tiles: list[TruthTile]
    region: tuple[float, float, float, float] | None = None  # only count predictions inside
    layout_known: bool = False
    note: str = ""


def _overlapping(tiles: list[dict]) -> set[int]:
    """Indices of rendered tiles lying on top of another one (a renderer defect): not scored."""
    cs = [np.mean(t["corners"], axis=0) for t in tiles]
    bad = set()
    for i, t in enumerate(tiles):
        for j in range(len(tiles)):
            if i != j and np.hypot(*(cs[i] - cs[j])) < 0.3 * float(t.get("length_px") or 30):
                bad.add(i)
    return bad


def load_rendered(root: Path, split: str | None = None) -> Iterator[TruthImage]:
    for f in sorted((root / "truth").glob("*.json")):
        tr = json.loads(f.read_text())
        if split and f"/{split}/" not in "/" + tr["image"]:
            continue
        bad = _overlapping(tr["tiles"])
        tiles = []
        for i, t in enumerate(tr["tiles"]):
            box = box_from_corners(np.array(t["corners"], float))
            vals = tuple(t["values"]) if t.get("values") else None
            tiles.append(TruthTile(vals, np.array(t["halves"], float), t["face"], box.width,
                                   counts=bool(t.get("labelled", True)) and i not in bad,
                                   parent=t.get("parent"), owner=t.get("owner", "layout"),
                                   corners=np.array(t["corners"], float), plain=bool(t.get("plain_style", True)),
                                   visible=float(t.get("visible", 1.0))))
        layout = [i for i, t in enumerate(tiles) if t.owner == "layout"]
        # scenes of loose tiles (owner "layout" but no parents) have no chain to compare with
        chain = any(tiles[i].parent is not None for i in layout)
        known = chain and all(tiles[i].counts for i in layout) and not bad
        yield TruthImage(root / tr["image"], f.stem, tiles, None, known, "overlapping tiles" if bad else "")


def load_real(root: Path, scale: float = 1.0) -> Iterator[TruthImage]:
    tr = json.loads((root / "truth.json").read_text())
    g = [v * scale for v in tr.get("grid", [0, 0, 1e9, 1e9])]
    for name, tiles in tr["images"].items():
        out = []
        for t in tiles:
            h = np.array(t["halves"], float) * scale
            box = box_from_halves(h[0], h[1])
            out.append(TruthTile(tuple(t["values"]), h, "up", box.width, corners=box.corners()))
        yield TruthImage(root / name, Path(name).stem, out, (g[0], g[1], g[2], g[3]), False)


def is_real(root: Path) -> bool:
    return (root / "truth.json").is_file()


@dataclass
class Scores:
    images: int = 0
    truth_tiles: int = 0
    detected: int = 0
    predicted: int = 0
    false_tiles: int = 0
    max_false_per_image: int = 0
    up_tiles: int = 0
    exact_tiles: int = 0
    halves: int = 0
    halves_right: int = 0
    halves_unread: int = 0
    face_right: int = 0
    layout_images: int = 0
    layout_exact: int = 0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((7, 8), int))  # col 7: unread
    by_size: dict = field(default_factory=dict)  # bucket -> [halves, right]
    calib: list = field(default_factory=list)  # (confidence, right) per read half
    errors: list = field(default_factory=list)

    def summary(self) -> dict:
        def pct(a: int, b: int) -> float | None:
            return round(100.0 * a / b, 2) if b else None

        return {
            "images": self.images,
            "truth_tiles": self.truth_tiles,
            "recall": pct(self.detected, self.truth_tiles),
            "precision": pct(self.predicted - self.false_tiles, self.predicted),
            "false_tiles": self.false_tiles,
            "max_false_tiles_per_image": self.max_false_per_image,
            "face_accuracy": pct(self.face_right, self.detected),
            "exact_tiles": pct(self.exact_tiles, self.up_tiles),
            "exact_tiles_count": [self.exact_tiles, self.up_tiles],
            "per_half": pct(self.halves_right, self.halves),
            "halves_unread": pct(self.halves_unread, self.halves),
            "per_half_by_tile_length_px": {k: pct(v[1], v[0]) for k, v in sorted(self.by_size.items())},
            "layout_exact": pct(self.layout_exact, self.layout_images),
            "layout_images": self.layout_images,
            "calibration": self.calibration(),
        }

    def calibration(self) -> list[dict]:
        """Read halves binned by their confidence: how often each bin was right."""
        out = []
        arr = np.array(self.calib, float).reshape(-1, 2)
        for lo, hi in ((0.0, 0.7), (0.7, 0.9), (0.9, 0.99), (0.99, 1.01)):
            sel = (arr[:, 0] >= lo) & (arr[:, 0] < hi)
            if sel.any():
                out.append({"confidence": [lo, min(hi, 1.0)], "halves": int(sel.sum()),
                            "mean_confidence": round(float(arr[sel, 0].mean()), 3),
                            "accuracy": round(float(arr[sel, 1].mean()), 3)})
        return out


SIZE_BUCKETS = ((0, 30, "<30"), (30, 45, "30-45"), (45, 70, "45-70"), (70, 1e9, ">=70"))


def _bucket(length: float) -> str:
    return next(name for lo, hi, name in SIZE_BUCKETS if lo <= length < hi)


def match(pred_centres: np.ndarray, truth: list[TruthTile]) -> dict[int, int]:
    """predicted index -> truth index (greedy by distance, within half a tile width)."""
    if len(pred_centres) == 0 or not truth:
        return {}
    tc = np.array([t.halves.mean(axis=0) for t in truth])
    tw = np.array([t.width for t in truth])
    d = np.sqrt(((pred_centres[:, None] - tc[None]) ** 2).sum(axis=2))
    pairs = sorted((d[i, j], i, j) for i, j in zip(*np.nonzero(d < 0.5 * tw[None]), strict=True))
    used_p, used_t, out = set(), set(), {}
    for _, i, j in pairs:
        if i in used_p or j in used_t:
            continue
        used_p.add(i)
        used_t.add(j)
        out[int(i)] = int(j)
    return out


def score_image(scores: Scores, ti: TruthImage, reading) -> None:
    """Add one image's reading (a FrameReading) to `scores`."""
    scores.images += 1
    centres = np.array([t.halves.mean(axis=0) for t in reading.tiles]).reshape(-1, 2)
    m = match(centres, ti.tiles)
    counted = [j for j, t in enumerate(ti.tiles) if t.counts]
    scores.truth_tiles += len(counted)
    false_here = 0
    for i, c in enumerate(centres):
        if ti.region is not None:
            x0, y0, x1, y1 = ti.region
            if not (x0 <= c[0] <= x1 and y0 <= c[1] <= y1):
                continue
        j = m.get(i)
        if j is None:
            scores.predicted += 1
            false_here += 1
        elif ti.tiles[j].counts:
            scores.predicted += 1
    scores.false_tiles += false_here
    scores.max_false_per_image = max(scores.max_false_per_image, false_here)
    for i, j in m.items():
        t = ti.tiles[j]
        if not t.counts:
            continue
        scores.detected += 1
        r = reading.tiles[i]
        scores.face_right += int(r.face == t.face)
        if t.face != "up" or t.values is None:
            continue
        scores.up_tiles += 1
        vals = list(r.half_values) if r.face == "up" else [None, None]
        confs = list(r.half_confidence)
        if np.hypot(*(r.halves[0] - t.halves[0])) > np.hypot(*(r.halves[0] - t.halves[1])):
            vals, confs = vals[::-1], confs[::-1]
        length = 2 * t.width
        b = scores.by_size.setdefault(_bucket(length), [0, 0])
        right = 0
        for k in (0, 1):
            scores.halves += 1
            b[0] += 1
            if vals[k] == t.values[k]:
                right += 1
                b[1] += 1
            if vals[k] is not None:
                scores.calib.append((confs[k], float(vals[k] == t.values[k])))
            if vals[k] is None:
                scores.halves_unread += 1
                scores.confusion[t.values[k], 7] += 1
            else:
                scores.confusion[t.values[k], vals[k]] += 1
        scores.halves_right += right
        scores.exact_tiles += int(right == 2)
        if right < 2:
            scores.errors.append((ti.name, list(t.values), vals, round(length)))
    for j in counted:
        if j not in m.values():
            scores.errors.append((ti.name, "missed", list(ti.tiles[j].values or []), round(2 * ti.tiles[j].width)))
    if ti.layout_known:
        scores.layout_images += 1
        inv = {j: i for i, j in m.items()}
        layout = [j for j, t in enumerate(ti.tiles) if t.owner == "layout"]
        truth_edges = {frozenset((j, t.parent)) for j, t in enumerate(ti.tiles)
                       if t.owner == "layout" and t.parent is not None}
        pred_edges = {frozenset((m.get(a, -1 - a), m.get(b, -1 - b))) for a, b in reading.layout.edges}
        ok = all(j in inv for j in layout) and truth_edges == pred_edges
        scores.layout_exact += int(ok)
        if not ok:
            scores.errors.append((ti.name, "layout", len(truth_edges), len(pred_edges)))


def confusion_png(conf: np.ndarray, path: Path, title: str = "") -> None:
    """7 true values (rows) x 7 read values + unread (columns), counts in cells."""
    cell, left, top = 64, 70, 90
    w, h = left + cell * 8 + 20, top + cell * 7 + 40
    img = np.full((h, w, 3), 255, np.uint8)
    row_tot = conf.sum(axis=1, keepdims=True).clip(min=1)
    frac = conf / row_tot
    for r in range(7):
        for c in range(8):
            x, y = left + c * cell, top + r * cell
            f = float(frac[r, c])
            if r == c:
                colour = (255 - int(160 * f), 255, 255 - int(160 * f))
            else:  # errors are rare: a square-root scale makes one in a hundred visible
                g = min(1.0, 3.0 * f**0.5)
                colour = (255 - int(190 * g), 255 - int(190 * g), 255)
            cv2.rectangle(img, (x, y), (x + cell, y + cell), colour, -1)
            cv2.rectangle(img, (x, y), (x + cell, y + cell), (180, 180, 180), 1)
            if conf[r, c]:
                txt = str(int(conf[r, c]))
                (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
                cv2.putText(img, txt, (x + (cell - tw) // 2, y + (cell + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                            (0, 0, 0), 1, cv2.LINE_AA)
    for k in range(8):
        lab = str(k) if k < 7 else "?"
        cv2.putText(img, lab, (left + k * cell + cell // 2 - 5, top - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1)
    for k in range(7):
        cv2.putText(img, str(k), (left - 25, top + k * cell + cell // 2 + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1)
    cv2.putText(img, "read value (? = unread)", (left, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1)
    cv2.putText(img, "true", (5, top - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1)
    if title:
        cv2.putText(img, title, (left, h - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (60, 60, 60), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)
