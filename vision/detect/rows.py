"""Rows of face-down tiles: players lay their hands face down side by side, long sides touching,
and a row of plain backs with no gap is a slab whose seams barely show. The network boxes such a
slab partly (two tiles as one box, a box half a tile off, tiles at the row's end unseen); most of
the detector's misses on held-out renders were there (session 12: 40 of 42 at 1080p).

The row is measured instead of guessed: around a sure face-down box, the patch of its back colour
(thin dark seams bridged) is found in the frame; where it is a clean rectangle one tile length
thick, running the way the box says, it is a row. The seams across it (darker than light backs,
lighter than black ones) split it into stretches of whole tile widths, which count its tiles (a
seam too faint to see leaves a stretch two widths long); with no seam to see, its length must be
close to a whole number of tile widths. The row is
cut evenly into that many tiles; the network's boxes that agree with a cut tile stay, those that
do not are replaced. Anything unclear (a patterned back, a blob, the table itself in the back's
colour, a face seen in the row) leaves the boxes as they were. Held-out renders, 2026-12-01:
detection recall 1080p 95.74 -> 96.45 %, 640 96.07 -> 96.23 %, 1280 96.36 -> 96.36 %
(`python -m lab.diagnose.rows_eval`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect.detections import Detections
from vision.detect.obb import xywhr_to_corners

DOWN = 1  # class id of tile_down


@dataclass(frozen=True)
class RowSettings:
    enabled: bool = True
    max_tiles: int = 9  # a hand holds 7; the walk along the row goes no further
    px_per_length: float = 32.0  # the strip is sampled with a tile's length this many pixels
    colour_dist: float = 14.0  # Lab distance (OpenCV 8-bit) within which a pixel is back colour
    fit: float = 0.25  # a run this close to a whole number of tiles is cut into that many
    seam_fit: float = 1.2  # with seams seen, their count may differ this much from the length's
    seam_contrast: float = 4.0  # L units (8-bit Lab) a seam differs from the row's median
    seam_spread: float = 0.25  # of a tile width: how far a stretch between seams may be off whole tiles
    fill: float = 0.9  # share of a run's rectangle in back colour (a round blob fills 0.79)
    ratio: float = 2.0  # tile length / width (double-six: 2)
    rim: float = 2.0  # strip pixels of dark tile edge outside the back-colour mask, both edges together
    seed_aspect: float = 1.4  # the seed box must be this much longer than wide to give the row's direction
    max_turn: float = 20.0  # degrees between the seed's long axis and the row's across axis
    min_conf: float = 0.4  # seeds: face-down boxes at least this sure
    # and the detector's doubtful face-down boxes (under its threshold) from this score: a row the
    # network hardly saw is still measured from one of them (held-out renders, session 12: 1080p
    # detection recall 96.45 -> 97.47 %, 640 96.23 -> 96.32 %, 1280 the same; false boxes +0 / +5 /
    # +4; from 0.05 1080p 97.37 % and 4 more false; from 0.15 no gain)
    doubtful_seed_conf: float = 0.1
    # ... but only where a face-down box the detector is sure of shows the seed's colour (a set's backs
    # share one): a doubtful seed on a paper, a ruler or a card with no back of its colour on the
    # table cut it into a row of phantoms (robustness matrix, 64 scenes a look: 27 phantom tiles)
    doubtful_seed_backs: float = 20.0  # Lab distance to the nearest sure back's colour


def row_boxes(lab: np.ndarray, seed_xywhr: np.ndarray, s: RowSettings) -> np.ndarray:
    """(N, 5) xywhr of the tiles of the seed's row, cut evenly; empty when the row is unclear.

    The row is the patch of the seed's back colour around it (a crop max_tiles tile widths each
    way, sampled so a tile is px_per_length long), measured by its minimum-area rectangle."""
    cx, cy, bw, bh, _ = (float(x) for x in seed_xywhr)
    length = max(bw, bh)
    if length < 8 or length < s.seed_aspect * min(bw, bh):
        return np.zeros((0, 5))  # too small, or squarish: it cannot say which way its row runs
    k = s.px_per_length / length
    half = s.max_tiles * length / s.ratio
    h, w = lab.shape[:2]
    x0, y0 = int(max(0, cx - half)), int(max(0, cy - half))
    x1, y1 = int(min(w, cx + half + 1)), int(min(h, cy + half + 1))
    crop = cv2.resize(lab[y0:y1, x0:x1], None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    crop = crop.astype(np.float32)
    sx, sy = int((cx - x0) * k), int((cy - y0) * k)
    ch, cw = crop.shape[:2]
    if not (0 <= sx < cw and 0 <= sy < ch):
        return np.zeros((0, 5))
    r = max(1, int(0.2 * s.px_per_length / s.ratio))
    inner = crop[max(0, sy - r):sy + r + 1, max(0, sx - r):sx + r + 1].reshape(-1, 3)
    back = np.median(inner, axis=0)
    if float(np.percentile(np.linalg.norm(inner - back, axis=1), 90)) > s.colour_dist:
        return np.zeros((0, 5))  # a patterned or shaded back: its colour says too little
    # squared Lab distance with OpenCV: this runs for every seed of every frame, and numpy's norm
    # over the crop was most of complete_rows' time (a 1080p render with 78 seeds: 119 ms)
    diff = crop - back.astype(np.float32)
    dist2 = cv2.transform(cv2.multiply(diff, diff), np.ones((1, 3), np.float32))
    mask = (dist2 < s.colour_dist**2).astype(np.uint8)
    # bridge the thin dark seams between backs (a table gap is wider), drop specks
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels = cv2.connectedComponents(mask, connectivity=4)
    lab_id = labels[sy, sx]
    if lab_id == 0:
        return np.zeros((0, 5))
    comp = labels == lab_id
    ys, xs = np.nonzero(comp)
    if xs.min() == 0 or ys.min() == 0 or xs.max() == cw - 1 or ys.max() == ch - 1:
        return np.zeros((0, 5))  # runs on past the crop: table, not a row
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    # of the rectangle's axes, the one nearer the seed's long axis runs across the row (a row of
    # two is square: only the seed tells its way)
    t = math.radians(ang)
    e1, e2 = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    seed_r = float(seed_xywhr[4]) + (0.0 if bw >= bh else math.pi / 2)
    seed_u = np.array([math.cos(seed_r), math.sin(seed_r)])
    if abs(e1 @ seed_u) >= abs(e2 @ seed_u):
        across, along, thick, long = e1, e2, rw, rh
    else:
        across, along, thick, long = e2, e1, rh, rw
    if abs(across @ seed_u) < math.cos(math.radians(s.max_turn)):
        return np.zeros((0, 5))
    if not 0.8 * s.px_per_length <= thick <= 1.2 * s.px_per_length or long < 1.5 * thick / s.ratio:
        return np.zeros((0, 5))
    if comp.sum() < s.fill * rw * rh:  # a round blob or a ragged patch, not a row of rectangles
        return np.zeros((0, 5))
    light = _profile(crop[..., 0], (rx, ry), along, across, long, thick)
    # the mask loses about a pixel of dark rim at each edge, across as along: added back (a row
    # of six measured 95.7 x 30.0 for 96 x 32)
    long, thick = long + s.rim, thick + s.rim
    whole = _count(light, long / (thick / s.ratio), s)
    if whole < 2:
        return np.zeros((0, 5))
    angle = math.atan2(across[1], across[0])
    out = []
    for i in range(whole):
        c = np.array([rx, ry]) + ((i + 0.5) / whole - 0.5) * long * along
        out.append([c[0] / k + x0, c[1] / k + y0, thick / k, long / whole / k, angle])
    return np.array(out, float)


def _profile(light: np.ndarray, centre, along: np.ndarray, across: np.ndarray, long: float,
             thick: float) -> np.ndarray:
    """Mean lightness of the row's middle half (across) at each step along it."""
    n = max(int(round(long)), 2)
    m = np.array([[along[0], across[0], 0.0], [along[1], across[1], 0.0]])
    m[:, 2] = np.asarray(centre) - m[:, 0] * (n / 2) - m[:, 1] * (thick / 4)
    band = cv2.warpAffine(light, m, (n, max(int(thick / 2), 1)), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)
    return band.mean(axis=0)


def _count(light: np.ndarray, n: float, s: RowSettings) -> int:
    """How many tiles a run of back colour holds. Seams (or narrow gaps) between backs show as
    lines across the row's middle, off the backs' lightness either way; the stretches between
    them are whole numbers of one tile width (a faint seam missed: two), and their sum is the
    count. With none to see, the
    length in tile widths `n` must be near a whole number (a 5 % error in the width is a third of
    a tile in a row of seven, so long seamless rows are left alone). 0: unclear."""
    m = len(light)
    step = m / max(n, 1.0)
    edge = int(0.3 * step)
    core = light[edge:m - edge]
    if len(core) < 3:
        return 0
    # a seam is a line across the row off the backs' lightness: darker on light backs, lighter
    # (the bevels' highlights) on black ones
    dark = np.abs(core - np.median(core)) > s.seam_contrast
    dips, j = [], 0
    while j < len(dark):
        if dark[j]:
            k = j
            while k + 1 < len(dark) and dark[k + 1]:
                k += 1
            dips.append(edge + (j + k) / 2)
            j = k + 1
        else:
            j += 1
    if dips:
        # the stretches between seams are whole numbers of one tile width (a faint seam may be
        # missed): the width from the stretches themselves, the length's estimate only rounding them
        parts = np.diff(np.array([0.0, *dips, float(m)]))
        tiles = np.maximum(np.round(parts / step), 1)
        width = float(np.median(parts / tiles))
        tiles = np.round(parts / width)
        if tiles.min() < 1 or np.abs(parts / width - tiles).max() > s.seam_spread:
            return 0
        count = int(tiles.sum())
        return count if abs(count - n) <= s.seam_fit else 0
    whole = round(n)
    return whole if whole >= 1 and abs(n - whole) <= s.fit else 0


def complete_rows(frame: np.ndarray, dets: Detections, settings: RowSettings | None = None,
                  doubtful: Detections | None = None, floor: float = 0.0) -> Detections:
    """`dets` with rows of face-down tiles measured and cut into tiles (see the module docstring).
    Face-down boxes of `doubtful` (the detector's low-scored ones) at doubtful_seed_conf or more
    seed rows too; tiles cut from them are scored `floor` (the detector's threshold) at least."""
    s = settings or RowSettings()
    if not s.enabled:
        return dets
    xywhr = dets.xywhr
    seeds = [(xywhr[i], float(dets.confidence[i]), int(i))
             for i in np.flatnonzero((dets.class_id == DOWN) & (dets.confidence >= s.min_conf))]
    if doubtful is not None and len(doubtful):
        low = np.flatnonzero((doubtful.class_id == DOWN) & (doubtful.confidence >= s.doubtful_seed_conf))
        seeds += [(doubtful.xywhr[i], float(doubtful.confidence[i]), None) for i in low]
    if not seeds:
        return dets
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    if any(i is None for _, _, i in seeds):  # the sure backs' colours, only where a doubtful seed needs them
        backs = np.array([_colour_at(lab, xywhr[i]) for i in np.flatnonzero(dets.class_id == DOWN)]).reshape(-1, 3)
        seeds = [(x, c, i) for x, c, i in seeds if i is not None or bool(
            (np.linalg.norm(backs - _colour_at(lab, x), axis=1) <= s.doubtful_seed_backs).any())]
    drop: set[int] = set()
    added: list[np.ndarray] = []
    added_conf: list[float] = []
    done_rows: list[np.ndarray] = []  # corners of the rows already cut
    for seed, conf, i in sorted(seeds, key=lambda x: -x[1]):
        if i in drop or any(cv2.pointPolygonTest(r.astype(np.float32), tuple(map(float, seed[:2])), False) >= 0
                            for r in done_rows):
            continue
        boxes = row_boxes(lab, seed, s)
        if len(boxes) < 2:  # one tile: the network's box is as good as the cut
            continue
        cut = xywhr_to_corners(boxes)
        inside = [j for j in range(len(dets)) if any(
            cv2.pointPolygonTest(c.astype(np.float32), tuple(map(float, xywhr[j, :2])), False) >= 0 for c in cut)]
        if any(dets.class_id[j] != DOWN for j in inside):  # a face seen in the row: not a row of backs
            continue
        keep_cut = np.ones(len(boxes), bool)
        for j in inside:
            near = [q for q in range(len(boxes)) if not _far(boxes[q], xywhr[j])]
            if near:
                keep_cut[near[0]] = False  # the network's box agrees with the cut: keep it
            else:
                drop.add(j)
        for q in np.flatnonzero(keep_cut):
            added.append(boxes[q])
            added_conf.append(max(conf, floor))
        done_rows.extend(cut)
    if not added and not drop:
        return dets
    kept = dets[np.array([j not in drop for j in range(len(dets))], bool)]
    new = Detections(xywhr_to_corners(np.array(added)).astype(np.float32), np.array(added_conf, np.float32),
                     np.full(len(added), DOWN, np.int64)) if added else Detections.empty()
    return Detections.concat([kept, new])


def _colour_at(lab: np.ndarray, xywhr: np.ndarray) -> np.ndarray:
    """The median Lab colour round a box's centre (a fifth of its width each way)."""
    cx, cy, bw, bh, _ = (float(v) for v in xywhr)
    r = max(1, int(0.2 * min(bw, bh)))
    x, y = int(round(cx)), int(round(cy))
    patch = lab[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3)
    return np.median(patch, axis=0).astype(np.float32) if len(patch) else np.full(3, np.inf, np.float32)


def _far(box: np.ndarray, other: np.ndarray) -> bool:
    """Whether `other` is not the tile `box` stands for: its centre a quarter width or more away,
    or its short side a third off."""
    short = min(box[2], box[3])
    if np.hypot(*(box[:2] - other[:2])) > 0.25 * short:
        return True
    return abs(min(other[2], other[3]) - short) > short / 3
