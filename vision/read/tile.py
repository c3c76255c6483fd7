"""Read one tile: rectify its box on the full-resolution frame, find the divider, read both halves."""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read import halfcnn
from vision.read.box import Box, apply_h, quad_homography, warp_quad
from vision.read.pips import HalfRead, body_colour, colour_distance, half_maps, read_half_dist

HALF = 48  # canonical pixels per half side
PAD = HALF // 4  # canonical pixels read beyond each end, in case the box is short
# The box is read as the detector drew it. Re-fitting it to the tile's own edges was insurance
# against poor boxes that no longer paid with the trained detector's (2026-11-30, 18-epoch model:
# real photos 100 % exact tiles either way; held-out renders, first 100 640 / 60 1280, exact tiles
# 93.2 / 94.2 % without against 92.5 / 93.4 % with, and 30 % less reading time per box); it was
# removed in the house-keeping of issue 25.
# A divider is a line: its vertical run stands this much (of HALF) longer than the columns
# DIVIDER_SIDE_PX to each side of it. The edge of a shadow across a pinned tile was taken for the
# divider 15 px off the pin, and the pin then read as the 1 of a 0-0 (held-out live deal h20).
DIVIDER_SIDE_PX = 5
DIVIDER_STANDS_OUT = 0.25
MIN_HALF_CONFIDENCE = 0.5  # below this a half is reported unread instead of guessed
# A box the detector called face down is read as a face only when both halves are this sure: backs
# with a ring, a border or a glare spot show something like a bar too, and read at 0.64-0.91 (renders).
SURE_FACE = 0.95


@dataclass(frozen=True)
class TileRead:
    quad: np.ndarray  # (4, 2) corners read (the detector's box), half-0 end first
    halves: np.ndarray  # (2, 2) centre of the half where values[k] was read
    face: str  # "up" | "down"
    half_values: tuple[int | None, int | None]
    half_confidence: tuple[float, float]
    reasons: tuple[str, str]
    detection_confidence: float

    @property
    def values(self) -> tuple[int, int] | None:
        a, b = self.half_values
        return None if a is None or b is None else (a, b)

    @property
    def u(self) -> np.ndarray:
        d = self.halves[1] - self.halves[0]
        return d / max(float(np.hypot(*d)), 1e-9)

    @property
    def width(self) -> float:
        q = self.quad
        return float(np.hypot(*(q[3] - q[0])) + np.hypot(*(q[2] - q[1]))) / 2

    @property
    def confidence(self) -> float:
        """Detection confidence times the confidence of both halves (face-down: detection only)."""
        if self.face == "down":
            return self.detection_confidence
        return self.detection_confidence * self.half_confidence[0] * self.half_confidence[1]


def find_divider(lab: np.ndarray, pad: int) -> float | None:
    """Column of the divider bar in a Lab canonical crop: the one line near the centre that is
    long across the tile (vertical runs over 42 % of the width), which no pip is."""
    c = pad + HALF
    body = body_colour(lab[HALF // 5 : HALF - HALF // 5, c - HALF // 2 : c + HALF // 2])
    side = DIVIDER_SIDE_PX
    x0, x1 = c - int(0.36 * HALF), c + int(0.36 * HALF)
    # the profile reaches `side` beyond the search on each side, to see a line's both sides
    dist = colour_distance(lab[:, x0 - side : x1 + side], body)
    d8 = np.minimum(dist, 255).astype(np.uint8)  # distances are >= 0
    t, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (d8 > max(t, 28)).astype(np.uint8)
    run = int(0.42 * HALF)
    # bridge the gap a centre pin leaves in the bar, then keep only long vertical runs
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 1), np.uint8))
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    wide = opened.sum(axis=0).astype(float)
    prof = wide[side:-side]
    # a line stands out of the body on both its sides; the edge of a shadow across the tile, or
    # shade over one end, is long too but has body of its own colour on one side only
    thin = prof - np.maximum(wide[: len(prof)], wide[2 * side :]) >= DIVIDER_STANDS_OUT * HALF
    prof = np.where(thin, prof, 0.0)
    if prof.max() < run:
        return None
    # the longest line; among equals the one nearest the centre
    j = int(np.argmax(prof - 0.01 * np.abs(np.arange(len(prof)) - (c - x0))))
    lo, hi = max(j - 2, 0), min(j + 3, len(prof))
    w = prof[lo:hi]
    return x0 + float((np.arange(lo, hi) * w).sum() / w.sum())


@dataclass(frozen=True)
class HalfCut:
    lab: np.ndarray  # square Lab crop
    body: np.ndarray  # its body colour
    dist: np.ndarray  # colour distance to the body colour
    divider_side: str
    blobs: HalfRead

    def input(self) -> np.ndarray:
        """The convolutional classifier's input (`halfcnn.half_input`)."""
        return halfcnn.half_input(self.lab, self.body, self.dist, self.divider_side)


def cut_halves(lab: np.ndarray, pad: int = 0, divider: float | None = None) -> tuple[HalfCut, HalfCut]:
    """Both halves of a padded Lab canonical crop, split at the divider (or the centre), with the
    blob counter's reading of each."""
    d = int(round(divider if divider is not None else pad + HALF))
    out = []
    for part, side in ((lab[:, max(d - HALF, 0) : d], "right"), (lab[:, d : d + HALF], "left")):
        part = _fit(part, side)
        body, dist = half_maps(part)
        out.append(HalfCut(part, body, dist, side, read_half_dist(dist, side)))
    return out[0], out[1]


NO_FACE = "no pips layout"  # the start of the reason of a half the classifier takes for no tile face


def shows_no_face(t: TileRead, k: int) -> bool:
    """Whether half k of a face-up tile was left unread as no tile face (not merely unsure)."""
    return t.half_values[k] is None and t.reasons[k].startswith(NO_FACE)


def no_face_confidence(t: TileRead, k: int) -> float:
    """How sure the classifier was that half k shows no tile face (0 where it did not say so):
    the probability `fuse` writes at the end of the reason."""
    if not shows_no_face(t, k):
        return 0.0
    m = re.search(r"\(([0-9.]+)\)$", t.reasons[k])
    return float(m.group(1)) if m else 0.0


def fuse(h: HalfRead, probs: np.ndarray | None) -> tuple[int | None, float, str]:
    """Value, calibrated confidence and reason from the blob counter and the classifier."""
    if probs is None:
        return h.value, float(h.score), h.reason  # the blob counter's score (0 when unread)
    k = int(np.argmax(probs[: halfcnn.NOT_PIPS]))
    p = float(probs[k])
    if float(probs[halfcnn.NOT_PIPS]) > p:
        return None, p, f"{NO_FACE}: the classifier takes it for no tile face ({float(probs[halfcnn.NOT_PIPS]):.2f})"
    if p < MIN_HALF_CONFIDENCE:
        said = "unread" if h.value is None else str(h.value)
        return None, p, f"unsure: blob count {said}, classifier {k} at {p:.2f}"
    return k, p, ""


MIN_TILE_PX = (8.0, 4.0)  # (length, width) below which there is nothing to read
# A box shorter than this whose divider lies off its middle is read cut both ways, at the divider
# and at its middle, and the reading whose less sure half is surer is kept: in a small blurred tile
# a column of pips passes for the bar now and then, while the detector's box may sit off the tile.
# Session 15, held-out renders 640 / 1280 / 1080p, exact tiles: detector's boxes 97.15 / 97.30 /
# 97.53 -> 97.45 / 97.81 / 97.53 %, layouts the same, false boxes 392 / 303 / 183 -> 404 / 312 / 186;
# renderer's boxes 96.28 / 96.85 / 97.28 -> 96.78 / 97.07 / 97.67 %. Cutting small boxes at the
# middle alone did as well on the renderer's boxes but lost a 1080p chain on the detector's.
CUT_BOTH_WAYS_BELOW_PX = 45.0
# Only a reading whose less sure half is under this is cut again: the same scores as cutting every
# small box twice (0.99 too), and in frames of clear tiles no time; in hard ones (blurred 20 px tiles)
# most small tiles are unsure, and reading a 1080p frame took 54 -> 81 ms, a 640 one 30 -> 38 ms.
MIDDLE_CUT_BELOW = 0.9


@dataclass(frozen=True)
class _Cut:
    """A face-up tile read up to the classifier: its outline, half centres and both halves."""

    quad: np.ndarray
    halves: np.ndarray
    blobs: tuple[HalfRead, HalfRead]  # the blob counter's reading of each half
    detection_confidence: float
    inputs: np.ndarray | None  # the classifier's inputs for both halves (None: no classifier)
    said_down: bool = False  # the detector called it face down, but it shows a divider: a face after all?
    off_middle: bool = False  # a small box whose divider lies off its middle: cut at its middle too if unsure
    bodies: np.ndarray | None = None  # (2, 3) each half's body colour (Lab)


def face_down(quad: np.ndarray, halves: np.ndarray, detection_confidence: float) -> TileRead:
    return TileRead(quad, halves, "down", (None, None), (1.0, 1.0), ("face down", "face down"), detection_confidence)


def prepare_tile(frame: np.ndarray, box: Box, face: str, detection_confidence: float,
                 classifier: bool = True) -> TileRead | _Cut:
    """The per-tile part of reading (run by worker processes too), everything but the
    classifier (whose inputs it makes when `classifier`): a finished TileRead (too small, face
    down) or a _Cut."""
    if box.length < MIN_TILE_PX[0] or box.width < MIN_TILE_PX[1]:
        why = f"box of {box.length:.0f}x{box.width:.0f} px is too small to read"
        return TileRead(box.corners(), box.halves(), face, (None, None), (0.0, 0.0), (why, why),
                        detection_confidence)
    quad = box.corners()
    crop, _ = warp_quad(frame, quad, HALF, PAD)
    h = quad_homography(quad, HALF, PAD)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    # No back pattern draws a bar across the tile's middle, but the blank double is all body and
    # bar, and the detector takes it for a back now and then (real photos, 25-epoch model: 3 of
    # 4 blank doubles). A "down" box with a divider is read as a face; it stays down unless both
    # halves read surely (`read_tiles`).
    div = find_divider(lab, PAD)

    def centres(d: float) -> np.ndarray:
        return apply_h(h, [[d - HALF / 2, HALF / 2 - 0.5], [d + HALF / 2, HALF / 2 - 0.5]])

    d = div if div is not None else PAD + HALF
    if face == "down" and div is None:
        return face_down(quad, centres(d), detection_confidence)
    blobs, inputs, bodies = _cut(lab, d, classifier)
    off_middle = div is not None and box.length < CUT_BOTH_WAYS_BELOW_PX and abs(div - PAD - HALF) >= 1.0
    return _Cut(quad, centres(d), blobs, detection_confidence, inputs, face == "down", off_middle, bodies)


def _cut(lab: np.ndarray, divider: float, classifier: bool = True):
    """Both halves' blob readings and (when `classifier`) the classifier's inputs, cut at `divider`."""
    cuts = cut_halves(lab, PAD, divider)
    # the classifier's inputs are made here, per tile, so worker processes make them too
    return ((cuts[0].blobs, cuts[1].blobs), np.stack([c.input() for c in cuts]) if classifier else None,
            np.stack([c.body for c in cuts]))


def _middle_cut(frame: np.ndarray, quad: np.ndarray):
    """A tile's halves cut at its box's middle (blob readings, classifier inputs)."""
    crop, _ = warp_quad(frame, quad, HALF, PAD)
    return _cut(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32), PAD + HALF)[:2]


def _read_cut(blobs, probs: np.ndarray | None, k: int) -> tuple[tuple, tuple]:
    return (fuse(blobs[0], None if probs is None else probs[k]),
            fuse(blobs[1], None if probs is None else probs[k + 1]))


def read_tiles(frame: np.ndarray, jobs: list[tuple[Box, str, float]], prepare=None) -> list[TileRead]:
    """Read the tiles `jobs` ((box, face, detection confidence) each) of the full-resolution
    `frame`. `prepare(frame, jobs, classifier)` replaces the per-tile part (worker processes:
    `vision.read.workers`). The classifier then sees all halves of
    the frame in one batch (one inference instead of one per tile)."""
    on = halfcnn.available()
    if prepare is not None:
        prepared = prepare(frame, jobs, on)
    else:
        prepared = [prepare_tile(frame, *job, classifier=on) for job in jobs]
    cut = [p for p in prepared if isinstance(p, _Cut)]
    probs = None
    if cut and on:
        probs = halfcnn.predict(np.concatenate([p.inputs for p in cut]))  # values 0..6, no tile face
    reads = [_blank_beside(_read_cut(p.blobs, probs, 2 * n), p, probs, 2 * n) for n, p in enumerate(cut)]
    # small boxes whose divider lies off their middle, read unsurely: cut at the middle too (in this
    # process, on the frame: only such boxes), the surer reading kept (CUT_BOTH_WAYS_BELOW_PX)
    again = [n for n, p in enumerate(cut) if p.off_middle and min(reads[n][0][1], reads[n][1][1]) < MIDDLE_CUT_BELOW]
    if again:
        middles = [_middle_cut(frame, cut[n].quad) for n in again]
        mprobs = halfcnn.predict(np.concatenate([x for _, x in middles])) if on else None
        for m, n in enumerate(again):
            r = _read_cut(middles[m][0], mprobs, 2 * m)
            # the halves stay where the divider puts them: the same halves, and the layout's joints
            # moved with the middle cut's centres (a live deal lost a move to that)
            if min(r[0][1], r[1][1]) > min(reads[n][0][1], reads[n][1][1]):
                reads[n] = r
    out, n = [], 0
    for p in prepared:
        if isinstance(p, TileRead):
            out.append(p)
            continue
        r0, r1 = reads[n]
        n += 1
        if p.said_down and not (r0[0] is not None and r1[0] is not None and min(r0[1], r1[1]) >= SURE_FACE):
            out.append(face_down(p.quad, p.halves, p.detection_confidence))
            continue
        out.append(TileRead(p.quad, p.halves, "up", (r0[0], r1[0]), (r0[1], r1[1]), (r0[2], r1[2]),
                            p.detection_confidence))
    return out


# A blank half of a set with no divider is plain body, as a tile's back or the table is, and the
# classifiers take it for no tile face (renders of no-divider sets: the usual-set one at 0.98, the
# any-set one 0 at 0.48 against no face at 0.51). Beside a half read surely, on the same body colour and with no blob, it is the
# blank: the table and a back differ in colour from a face's body.
BLANK_BESIDE_SURE = 0.95  # the other half read at least this surely
BLANK_BODY_LAB = 12.0  # the two halves' body colours this close (Lab, the lightness weighed by BLANK_BODY_L)
# The light falls off along a tile: halves of one body differ more in lightness than in colour
# (matrix, no divider, tiles of 185-210 px: a 0-5 and a 0-1 whose halves lay 13-14 apart in L
# alone, 2-4 in colour, their blanks left unread and their joints lost)
BLANK_BODY_L = 0.5
BLANK_DOUBLE_DETECTED = 0.5  # a blank double so found needs a box the detector is this sure of
BLANK_DOUBLE_AT_LEAST = 0.4  # and both halves given the blank at least this
BLANK_CONFIDENCE = 0.7  # a blank so found is read, doubtful (a joint may settle it; recount names it)


def _bodies_apart(bodies: np.ndarray) -> float:
    """How far apart the two halves' body colours lie (Lab, the lightness weighed down)."""
    d = np.asarray(bodies[0], float) - np.asarray(bodies[1], float)
    return float(np.hypot(BLANK_BODY_L * d[0], np.hypot(d[1], d[2])))


def _blank_beside(read: tuple[tuple, tuple], p: _Cut, probs: np.ndarray | None, k: int) -> tuple[tuple, tuple]:
    if probs is None or p.bodies is None:
        return read
    out = list(read)
    for h in (0, 1):
        mine, other = read[h], read[1 - h]
        if (mine[0] is None and (mine[2].startswith(NO_FACE) or mine[2].startswith("unsure"))
                and other[0] is not None and other[1] >= BLANK_BESIDE_SURE and not p.blobs[h].blobs
                and _bodies_apart(p.bodies) < BLANK_BODY_LAB):
            out[h] = (0, BLANK_CONFIDENCE, "")
    # the blank double: both halves plain body of one colour, each near enough a blank, in a box the
    # detector is sure shows a face
    if (all(not b.blobs for b in p.blobs) and p.detection_confidence >= BLANK_DOUBLE_DETECTED
            and all(float(probs[k + h][0]) >= BLANK_DOUBLE_AT_LEAST for h in (0, 1))
            and any(r[0] is None for r in out)
            and _bodies_apart(p.bodies) < BLANK_BODY_LAB):
        out = [(0, BLANK_CONFIDENCE, ""), (0, BLANK_CONFIDENCE, "")]
    return out[0], out[1]


def read_tile(frame: np.ndarray, box: Box, face: str = "up", detection_confidence: float = 1.0) -> TileRead:
    return read_tiles(frame, [(box, face, detection_confidence)])[0]


def _fit(img: np.ndarray, divider_side: str) -> np.ndarray:
    if img.shape[1] >= HALF:
        return img
    pad = HALF - img.shape[1]
    if divider_side == "right":
        return cv2.copyMakeBorder(img, 0, 0, pad, 0, cv2.BORDER_REPLICATE)
    return cv2.copyMakeBorder(img, 0, 0, 0, pad, cv2.BORDER_REPLICATE)


def rectify(frame: np.ndarray, quad: np.ndarray, pad: int = PAD) -> np.ndarray:
    """Canonical padded crop of a tile quad (for pictures and classifiers)."""
    return warp_quad(frame, quad, HALF, pad)[0]
