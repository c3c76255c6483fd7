"""Scoring detection and reading against truth: rendered sets (truth/*.json) and real photos (truth.json).

One matching rule for the detection-only and the whole-reader scores (`dominocam eval
[--detection-only]`), written here once:

- A predicted tile (a detector box, or the quadrilateral the reader read) can match a
  true tile when (1) its quadrilateral contains BOTH half centres of the true tile, (2) its own
  centre lies within half a tile width of the true tile's centre, and (3) its long axis lies within
  45 degrees of the tile's (along the tile rather than across it). Half centres are what the real
  photos' truth gives; (2) rules out a box spanning two tiles end to end, (3) a box of the right
  size turned a quarter, whose long sides pass through the half centres.
- A true tile running off the image's edge (rendered sets: under 99 % of it inside) may also be
  matched by its part inside the image, the part a box can cover and the detector's labels cover
  (`vision/synth/scene.py` clips them to the image): (1) may then be an intersection over union of
  0.5 or more between the predicted quadrilateral and that part, and (2) measured from its centre.
- Matching is one-to-one, greedy by centre distance (nearest pairs first): a second box on the
  same tile (a duplicate) is a false prediction.
- Recall = matched counted true tiles / counted true tiles. Counted: on rendered sets the labelled
  tiles (at least 60 % inside the image, at least 45 % not under an arm, not standing on edge) not
  lying on another tile (a renderer defect); on
  real photos every tile of truth.json (it lists only the tiles on the play grid).
- Precision = predictions matching a true tile (counted or not) / all predictions in the image. A
  box on an uncounted true tile is not false; a box on anything else is, wherever it lies (on the
  real photos the printed dominoes of the board's border track count against precision).
- False tiles "on the play grid": false predictions whose centre lies inside truth.json's "grid"
  box (the whole image on rendered sets); issue 4 bounds them per image. False predictions off
  the grid are reported apart.
- Reading: halves are paired by position, so a tile read "the other way round" is still right.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.read.box import box_from_corners, box_from_halves


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
    in_frame: float = 1.0  # fraction inside the image (a rendered tile may run off its edge)
    in_image: np.ndarray | None = None  # (K, 2) the part inside the image, where it runs off the edge

    @property
    def whole(self) -> bool:
        """Not under an arm and not cut by the image's edge: both halves can be seen whole."""
        return self.visible >= FULLY_VISIBLE and self.in_frame >= FULLY_VISIBLE


@dataclass
class TruthImage:
    image: Path
    name: str
    tiles: list[TruthTile]
    region: tuple[float, float, float, float] | None = None  # the play grid (x0, y0, x1, y1); None: whole image
    layout_known: bool = False
    note: str = ""
    scale: float = 1.0  # truth already scaled; load_frame resizes the image to match
    conditions: tuple[str, ...] = ()  # what the renderer says of the scene: "scene:dense", "blur:motion"...


def _in_image(corners: np.ndarray, size: np.ndarray | None) -> np.ndarray | None:
    """The part of a tile's quadrilateral inside an image of `size` (w, h); None if unknown or empty."""
    if size is None or not np.isfinite(corners).all():
        return None
    w, h = float(size[0]), float(size[1])
    rect = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area, part = cv2.intersectConvexConvex(np.asarray(corners, np.float32).reshape(4, 2), rect)
    return None if part is None or area <= 0 else part.reshape(-1, 2).astype(float)


def _iou(quad: np.ndarray, poly: np.ndarray) -> float:
    a, b = quad.astype(np.float32), poly.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def _overlapping(tiles: list[dict]) -> set[int]:
    """Indices of rendered tiles lying on top of another one (a renderer defect): not scored."""
    cs = [np.mean(t["corners"], axis=0) for t in tiles]
    bad = set()
    for i, t in enumerate(tiles):
        for j in range(len(tiles)):
            if i != j and np.hypot(*(cs[i] - cs[j])) < 0.3 * float(t.get("length_px") or 30):
                bad.add(i)
    return bad


def load_rendered(root: Path, split: str | None = None, scale: float = 1.0) -> Iterator[TruthImage]:
    """A rendered set's truth/*.json (only images of `split` if given), pixels multiplied by `scale`."""
    for f in sorted((root / "truth").glob("*.json")):
        tr = json.loads(f.read_text())
        if split and f"/{split}/" not in "/" + tr["image"]:
            continue
        bad = _overlapping(tr["tiles"])
        size = np.array(tr["size"], float) * scale if tr.get("size") else None
        tiles = []
        for i, t in enumerate(tr["tiles"]):
            corners = np.array(t["corners"], float) * scale
            vals = tuple(t["values"]) if t.get("values") else None
            in_frame = float(t.get("in_frame", 1.0))
            tiles.append(TruthTile(vals, np.array(t["halves"], float) * scale, t["face"],
                                   box_from_corners(corners).width,
                                   counts=bool(t.get("labelled", True)) and i not in bad,
                                   parent=t.get("parent"), owner=t.get("owner", "layout"),
                                   corners=corners, plain=bool(t.get("plain_style", True)),
                                   visible=float(t.get("visible", 1.0)), in_frame=in_frame,
                                   in_image=_in_image(corners, size) if in_frame < FULLY_VISIBLE else None))
        layout = [i for i, t in enumerate(tiles) if t.owner == "layout"]
        # scenes of loose tiles (owner "layout" but no parents) have no chain to compare with
        chain = any(tiles[i].parent is not None for i in layout)
        known = chain and all(tiles[i].counts for i in layout) and not bad
        yield TruthImage(root / tr["image"], f.stem, tiles, None, known, "overlapping tiles" if bad else "", scale,
                         _conditions(tr))


def _conditions(tr: dict) -> tuple[str, ...]:
    """A rendered scene's kind, surface and blur (from its truth JSON), for recall by condition."""
    out = []
    scene, _, surface = str(tr.get("kind", "")).partition("/")
    if scene:
        out.append(f"scene:{scene}")
    if surface:
        out.append(f"surface:{surface}")
    if tr.get("blur"):
        out.append(f"blur:{tr['blur']}")
    return tuple(out)


def load_real(root: Path, scale: float = 1.0) -> Iterator[TruthImage]:
    """Real photos: DIR/truth.json lists the tiles on the play grid by half centres, and the grid box."""
    tr = json.loads((root / "truth.json").read_text())
    region = tuple(float(v) * scale for v in tr["grid"]) if "grid" in tr else None
    for name, tiles in sorted(tr["images"].items()):
        out = []
        for t in tiles:
            h = np.array(t["halves"], float) * scale
            box = box_from_halves(h[0], h[1])
            out.append(TruthTile(tuple(t["values"]), h, "up", box.width, corners=box.corners()))
        yield TruthImage(root / name, Path(name).stem, out, region, False, scale=scale)


def is_real(root: Path) -> bool:
    return (root / "truth.json").is_file()


def load_truth(root: Path, split: str | None = None, scale: float = 1.0) -> Iterator[TruthImage]:
    """Either kind of set: real photos (truth.json) or a rendered set (truth/*.json)."""
    return load_real(root, scale) if is_real(root) else load_rendered(root, split, scale)


def load_frame(ti: TruthImage) -> np.ndarray | None:
    """The image resized to the truth's scale (None if OpenCV cannot read it)."""
    frame = cv2.imread(str(ti.image))
    if frame is not None and ti.scale != 1.0:
        frame = cv2.resize(frame, None, fx=ti.scale, fy=ti.scale, interpolation=cv2.INTER_AREA)
    return frame


@dataclass
class Scores:
    """Counts summed over images; `summary()` turns them into the `dominocam eval` JSON."""

    images: int = 0
    truth_tiles: int = 0  # counted true tiles
    detected: int = 0  # counted true tiles matched
    predicted: int = 0  # all predictions
    true_predictions: int = 0  # predictions matching a true tile
    false_tiles: int = 0  # false predictions on the play grid
    false_off_grid: int = 0
    max_false_per_image: int = 0  # on the play grid
    up_tiles: int = 0
    exact_tiles: int = 0
    # rendered sets: tiles partly under an arm or off the image's edge are scored with the rest and
    # also apart, since a hidden half can only be read by guessing (the reader should leave it unread)
    up_visible: int = 0
    exact_visible: int = 0
    occluded_halves: int = 0  # halves of partly covered tiles
    occluded_misread: int = 0  # of which read as a wrong value (not left unread)
    halves: int = 0
    halves_right: int = 0
    halves_unread: int = 0
    face_right: int = 0
    layout_images: int = 0
    layout_exact: int = 0
    layout_edges: int = 0  # true joints of the chain, in images whose layout is known
    layout_edges_found: int = 0  # of which the reader gave
    # rendered recount scenes (hands laid face up before each seat): a hand is right when the reader
    # gives its tiles, and nothing else, to one seat, all read and read right; the recount is right
    # when every hand is
    recount_images: int = 0
    recount_exact: int = 0
    recount_hands: int = 0
    recount_hands_exact: int = 0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((7, 8), int))  # col 7: unread
    by_size: dict = field(default_factory=dict)  # bucket -> [halves, right]
    recall_by_size: dict = field(default_factory=dict)  # bucket -> [counted tiles, detected]
    recall_by_condition: dict = field(default_factory=dict)  # condition -> [counted tiles, detected]
    calib: list = field(default_factory=list)  # (confidence, right) per read half
    errors: list = field(default_factory=list)
    detect_ms: list = field(default_factory=list)  # detector time per image, when a detector ran

    def detection_summary(self) -> dict:
        """Detection only (`dominocam eval --detection-only`); percentages."""
        return {
            "images": self.images,
            "truth_tiles": self.truth_tiles,
            "recall": _pct(self.detected, self.truth_tiles),
            "precision": _pct(self.true_predictions, self.predicted),
            "predicted": self.predicted,
            "false_tiles": self.false_tiles,
            "max_false_tiles_per_image": self.max_false_per_image,
            "false_tiles_off_grid": self.false_off_grid,
            "face_accuracy": _pct(self.face_right, self.detected),
            # the smallest tile is 25 px long (a 4K frame); renders go smaller
            "recall_by_tile_length_px": {
                name: _pct(self.recall_by_size[name][1], self.recall_by_size[name][0])
                for _, _, name in SIZE_BUCKETS if name in self.recall_by_size
            },
            "median_detect_ms": round(float(np.median(self.detect_ms)), 1) if self.detect_ms else None,
            # where the misses are: rendered scenes by kind, surface and blur, tiles by arm cover and
            # by the smallest size (25 px long)
            "recall_by_condition": {
                name: {"recall": _pct(found, n), "tiles": n}
                for name, (n, found) in sorted(self.recall_by_condition.items())
            },
        }

    def summary(self) -> dict:
        """Detection, reading and layout."""
        return {
            **self.detection_summary(),
            "exact_tiles": _pct(self.exact_tiles, self.up_tiles),
            "exact_tiles_count": [self.exact_tiles, self.up_tiles],
            "per_half": _pct(self.halves_right, self.halves),
            "halves_unread": _pct(self.halves_unread, self.halves),
            "per_half_by_tile_length_px": {k: _pct(v[1], v[0]) for k, v in sorted(self.by_size.items())},
            "exact_tiles_fully_visible": _pct(self.exact_visible, self.up_visible),
            "exact_tiles_fully_visible_count": [self.exact_visible, self.up_visible],
            "covered_halves_misread": _pct(self.occluded_misread, self.occluded_halves),
            "layout_exact": _pct(self.layout_exact, self.layout_images),
            "layout_images": self.layout_images,
            "layout_edges": _pct(self.layout_edges_found, self.layout_edges),
            "phantom_tiles_per_image": round((self.predicted - self.true_predictions) / self.images, 3)
            if self.images else None,
            "recount_exact": _pct(self.recount_exact, self.recount_images),
            "recount_images": self.recount_images,
            "recount_hands_exact": _pct(self.recount_hands_exact, self.recount_hands),
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


def _pct(a: int, b: int) -> float | None:
    return round(100.0 * a / b, 2) if b else None


WHOLE_AND_SHARP = "whole and sharp (>= 25 px, not covered, in the frame, no motion blur)"
CUT_IOU = 0.5  # a box on a tile running off the image: its overlap with the part inside
FULLY_VISIBLE = 0.99  # truth "visible" / "in_frame": the fraction of a rendered tile not covered / in the image
SMALLEST_TILE_PX = 25.0  # issue 4: tiles may be as small as 25 px long (in a 4K frame)
SIZE_BUCKETS = ((0, 30, "<30"), (30, 45, "30-45"), (45, 70, "45-70"), (70, 1e9, ">=70"))


def _bucket(length: float) -> str:
    return next(name for lo, hi, name in SIZE_BUCKETS if lo <= length < hi)


def _inside(quad: np.ndarray, point: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def match(pred_quads: np.ndarray, truth: list[TruthTile]) -> dict[int, int]:
    """predicted index -> truth index by the module's matching rule (see the docstring above).
    pred_quads: (N, 4, 2) corners in order round each quadrilateral."""
    quads = np.asarray(pred_quads, float).reshape(-1, 4, 2)
    if len(quads) == 0 or not truth:
        return {}
    tw = np.array([t.width for t in truth])

    def centre_distance(centres: np.ndarray) -> np.ndarray:
        return np.sqrt(((quads.mean(axis=1)[:, None] - centres[None]) ** 2).sum(axis=2))

    d = centre_distance(np.array([t.halves.mean(axis=0) for t in truth]))
    # a tile running off the image: or from the centre of its part inside it
    d = np.minimum(d, centre_distance(np.array([t.halves.mean(axis=0) if t.in_image is None
                                                else t.in_image.mean(axis=0) for t in truth])))

    def fits(i: int, j: int) -> bool:
        axis = truth[j].halves[1] - truth[j].halves[0]
        along = abs(float(np.dot(box_from_corners(quads[i]).u, axis))) / max(float(np.hypot(*axis)), 1e-9)
        if along < np.cos(np.pi / 4):
            return False
        if _inside(quads[i], truth[j].halves[0]) and _inside(quads[i], truth[j].halves[1]):
            return True
        # running off the image: its part inside it will do
        return truth[j].in_image is not None and _iou(quads[i], truth[j].in_image) >= CUT_IOU

    pairs = sorted((d[i, j], i, j) for i, j in zip(*np.nonzero(d < 0.5 * tw[None]), strict=True) if fits(i, j))
    used_p, used_t, out = set(), set(), {}
    for _, i, j in pairs:
        if i in used_p or j in used_t:
            continue
        used_p.add(i)
        used_t.add(j)
        out[int(i)] = int(j)
    return out


def score_boxes(scores: Scores, ti: TruthImage, quads: np.ndarray, faces: Sequence[str]) -> dict[int, int]:
    """Add one image's predicted tiles (quadrilaterals and "up"/"down") to the detection counts of
    `scores`; returns the match (predicted index -> truth index)."""
    quads = np.asarray(quads, float).reshape(-1, 4, 2)
    m = match(quads, ti.tiles)
    scores.images += 1
    counted = [j for j, t in enumerate(ti.tiles) if t.counts]
    scores.truth_tiles += len(counted)
    scores.predicted += len(quads)
    scores.true_predictions += len(m)
    on_grid = off_grid = 0
    for i, c in enumerate(quads.mean(axis=1)):
        if i in m:
            continue
        x0, y0, x1, y1 = ti.region if ti.region is not None else (-np.inf, -np.inf, np.inf, np.inf)
        if x0 <= c[0] <= x1 and y0 <= c[1] <= y1:
            on_grid += 1
            scores.errors.append((ti.name, "false", [round(float(c[0])), round(float(c[1]))],
                                  round(box_from_corners(quads[i]).length)))
        else:
            off_grid += 1
    scores.false_tiles += on_grid
    scores.false_off_grid += off_grid
    scores.max_false_per_image = max(scores.max_false_per_image, on_grid)
    for i, j in m.items():
        if ti.tiles[j].counts:
            scores.detected += 1
            scores.face_right += int(faces[i] == ti.tiles[j].face)
    matched = set(m.values())
    for j in counted:
        bucket = scores.recall_by_size.setdefault(_bucket(2 * ti.tiles[j].width), [0, 0])
        bucket[0] += 1
        bucket[1] += int(j in matched)
        for name in _tile_conditions(ti, ti.tiles[j]):
            tally = scores.recall_by_condition.setdefault(name, [0, 0])
            tally[0] += 1
            tally[1] += int(j in matched)
        if j not in matched:
            scores.errors.append((ti.name, "missed", list(ti.tiles[j].values or []), round(2 * ti.tiles[j].width)))
    return m


def _tile_conditions(ti: TruthImage, t: TruthTile) -> list[str]:
    names = list(ti.conditions)
    names.append("length >= 25 px" if 2 * t.width >= SMALLEST_TILE_PX else "length < 25 px")
    names.append(f"face {t.face}")  # backs in rows are most of the misses at 1080p (session 12)
    if ti.conditions:  # rendered: arms may cover tiles
        names.append("not covered" if t.visible >= FULLY_VISIBLE else "partly covered")
        if t.in_frame < FULLY_VISIBLE:
            names.append("cut by the frame's edge")
        # what a webcam over a club table shows once play holds still: whole, sharp, not tiny
        if 2 * t.width >= SMALLEST_TILE_PX and t.whole and "blur:motion" not in ti.conditions:
            names.append(WHOLE_AND_SHARP)
    return names


def score_image(scores: Scores, ti: TruthImage, reading) -> dict[int, int]:
    """Add one image's reading (a FrameReading) to `scores`: its tiles' quadrilaterals are scored
    as predictions, then the halves of the matched face-up tiles and the layout. Returns the match."""
    quads = np.array([t.quad for t in reading.tiles], float).reshape(-1, 4, 2)
    m = score_boxes(scores, ti, quads, [t.face for t in reading.tiles])
    for i, j in m.items():
        t = ti.tiles[j]
        if not t.counts or t.face != "up" or t.values is None:
            continue
        r = reading.tiles[i]
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
            if vals[k] is None:
                scores.halves_unread += 1
                scores.confusion[t.values[k], 7] += 1
            else:
                scores.calib.append((confs[k], float(vals[k] == t.values[k])))
                scores.confusion[t.values[k], vals[k]] += 1
        scores.halves_right += right
        scores.exact_tiles += int(right == 2)
        if t.whole:
            scores.up_visible += 1
            scores.exact_visible += int(right == 2)
        else:
            scores.occluded_halves += 2
            scores.occluded_misread += sum(vals[k] is not None and vals[k] != t.values[k] for k in (0, 1))
        if right < 2:
            scores.errors.append((ti.name, list(t.values), vals, round(length)))
    if ti.layout_known:
        scores.layout_images += 1
        inv = {j: i for i, j in m.items()}
        layout = [j for j, t in enumerate(ti.tiles) if t.owner == "layout"]
        truth_edges = {frozenset((j, t.parent)) for j, t in enumerate(ti.tiles)
                       if t.owner == "layout" and t.parent is not None}
        pred_edges = {frozenset((m.get(a, -1 - a), m.get(b, -1 - b))) for a, b in reading.layout.edges}
        scores.layout_edges += len(truth_edges)
        scores.layout_edges_found += len(truth_edges & pred_edges)
        ok = all(j in inv for j in layout) and truth_edges == pred_edges
        scores.layout_exact += int(ok)
        if not ok:
            scores.errors.append((ti.name, "layout", len(truth_edges), len(pred_edges)))
    if "scene:recount" in ti.conditions:
        _score_recount(scores, ti, reading, m)
    return m


def _score_recount(scores: Scores, ti: TruthImage, reading, m: dict[int, int]) -> None:
    """A recount scene's hands (see `Scores`); scenes whose hands are not all labelled face-up
    tiles are left out. Hands are compared as groups, not by seat name: the renderer's seats belong
    to the table, which its camera may turn any way, and the reader names seats by the frame's edges."""
    from vision.read.hands import SEATS
    from vision.read.recount import no_ones

    hands = [[j for j, t in enumerate(ti.tiles) if t.owner == seat] for seat in SEATS]
    hands = [h for h in hands if h]
    if not hands or any(not ti.tiles[j].counts or ti.tiles[j].face != "up" or ti.tiles[j].values is None
                        for h in hands for j in h):
        return
    scores.recount_images += 1
    inv = {j: i for i, j in m.items()}
    seat_of = {i: seat for seat, ix in reading.layout.hands.items() for i in ix}
    # the face-down heap and the backs apart from the hands are no one's, as in `dominocam recount`
    # (which knows the heap's size from the variant)
    heap = set().union(*no_ones(reading, sum(t.owner == "boneyard" for t in ti.tiles)))
    right = 0
    for hand in hands:
        scores.recount_hands += 1
        found = [inv.get(j) for j in hand]
        seats = {seat_of.get(i) for i in found}
        ok = None not in found and len(seats) == 1 and None not in seats
        if ok:
            group = [i for i in reading.layout.hands[seats.pop()] if i not in heap]
            tiles = [reading.tiles[i] for i in group]
            ok = sorted(group) == sorted(found) and all(t.face == "up" and t.values is not None for t in tiles) and (
                sorted(tuple(sorted(t.values)) for t in tiles) == sorted(tuple(sorted(ti.tiles[j].values)) for j in hand))
        scores.recount_hands_exact += int(ok)
        right += int(ok)
        if not ok:
            scores.errors.append((ti.name, "recount", ti.tiles[hand[0]].owner, len(hand)))
    scores.recount_exact += int(right == len(hands))


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
