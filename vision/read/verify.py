"""Is a detected box a physical tile? Checks on the full-resolution pixels, after reading.

A detector can be fooled by things that look like a tile at its input scale: a box straddling two
tiles that lie end to end (the gap between them looks like a divider, their dividers like tile
ends), a box across two tiles lying side by side, a second box on a tile that is boxed already, a
small box on part of a tile, a patch of printed board. A physical tile is one solid body of one
colour that fills its box, and tiles do not overlap, so the checks are:

- the body: the two halves lie on one body-coloured region that fills the box. A gap that runs
  right across the box (splitting it into two bodies) is a gap between two tiles, not a divider,
  which stops short of the outline; a gap along the box (in both halves) is two tiles side by
  side. A divider can reach the outline when the box is a little off, so a gap across the middle
  only counts when the body also goes on past both ends (each half is the end of a longer tile);
  a table square of the tile's colour past one end does not make a straddle.
- the size: every tile of a set has the same size, so a box far shorter than the frame's typical
  tile is a part of something, and so is a somewhat short box the detector is unsure of (at a
  coarse detection scale the detector boxes the end of a tile together with what lies beyond it);
  a box far longer, or far wider (the frame's edge shortens a box, never widens it), is
  something else.
- a blank face: a box read 0-0 is plain tile-coloured material, so where that material runs on
  past its outline (an end and a side) it is a patch of something larger, unless the detector is
  sure; a face-up box with no tile face on either half is no tile unless it is fairly sure.
- the overlap: two boxes sharing much of their area cannot both be tiles; the one with the
  clean body (and the higher score) stays.

Each check needs resolution: boxes shorter than `MIN_VERIFY_PX` are kept unjudged. The
thresholds were chosen on rendered held-out scenes (vision/synth, which draw printed dominoes,
boards and clutter too), never on the real photos, which only validate them (docs/guides/read.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.box import at_frame_edge
from vision.read.pips import channel_median, colour_distance
from vision.read.rigid import heaviest_disjoint
from vision.read.tile import shows_no_face

log = logging.getLogger(__name__)

H = 32  # canonical pixels across the tile (a half is H x H)
P = 8  # canonical pixels of padding on every side
BODY_THRESHOLD = 25.0  # Lab distance from a half's body colour that still counts as body
MIN_VERIFY_PX = 70.0  # shorter tiles are too coarse to judge: on 640 px renders (50-65 px tiles) dividers split bodies
MIN_FILL = 0.45  # share of the box the body must cover
OFF_MIDDLE = 0.15  # a gap across the box further than this from its middle is no divider
END_RUNS_ON = 0.4  # share of the band beyond an end that continues the body: the box ends inside it
MIN_RELATIVE_LENGTH = 0.6  # of the frame's typical tile length (on renders 99 % of tiles are over 0.74)
# a box somewhat short AND one the detector is unsure of is part of something: on held-out renders
# (160 images, 2366 true boxes, 681 false) this drops 70 false boxes for 7 true ones, 6 of them unread
SHORT_RELATIVE_LENGTH = 0.8
# ... and a box far longer is no tile of the set either (a phone, a box lid's printed domino, two
# tiles end to end): on the robustness matrix (25 looks, 400 scenes) true tiles' boxes were at most
# 1.43 times the frame's median, 43 false boxes over 1.5 times it
MAX_RELATIVE_LENGTH = 1.5
# ... and a box far wider than the frame's tiles neither: the frame's edge can shorten a tile's
# box but never widen it (a dark block cut by the frame, 147 x 100 px where tiles are 100 x 50:
# boxed at 0.4 as a back in 24 of the matrix's 25 looks; two tiles side by side in one box).
# Session 38, every box before the checks: true boxes at most 1.44 (matrix), 1.82 / 2.31 / 1.48
# (held-out 640 / 1280 / 1080p, one box each over 1.8) times the frame's median width; at 1.5 a
# tile of the boneyard's heap, boxed 1.5-1.65 times as wide at 0.3-0.64, was dropped in a live
# deal's frames and a draw was written that was none (s44: 25 -> 12 of 25 moves).
MAX_RELATIVE_WIDTH = 1.8
# where the frame's boxes agree on their length (upper to lower quartile): held-out 640 renders, 3
# true tiles 1.6 times a median pulled down by boxes on halves, in frames whose boxes spread 1.36
SIZES_AGREE = 1.25
UNSURE_CONFIDENCE = 0.4
MIN_TILES_FOR_SIZE = 4  # boxes needed before the typical length means anything
CLEAN_FILL = 0.7  # a body this full (and ending on every side) may push an overlapping box out
OVERLAP = 0.3  # of the smaller box's area: more and the two boxes cannot both be tiles
# A tile inside a straight line of touching tiles of its colour also shows a gap across its middle
# (its divider reaching the outline) and a body running on past both ends, as a box straddling two
# tiles does. Boxes the detector is this sure of are kept (the straddler then goes only as "half
# on each of two better tiles"): held-out renders, 44-epoch model, session 12 (lab/diagnose/
# verify_why.py): the rule dropped 12 boxes, 11 of them true tiles, 9 of those at 0.5 or more,
# the one false box at under 0.5.
STRADDLE_SURE = 0.5
# A box with one half the pip classifier takes for no tile face is mostly a false box (a box
# straddling a tile's end and the table, a patch of print): held-out renders, session 12
# (lab/diagnose/noface.py), under 0.5 confidence 9 true tiles (partly under arms) against 148 false
# boxes. Dropped: false boxes 504 / 349 / 192 -> 409 / 308 / 181 (640 / 1280 / 1080p), layout exact
# on 640 94.8 -> 96.1 %, recall 640 96.11 -> 95.92 %, the others the same (at 0.7: recall -0.1 to
# -0.2 more, layouts no better).
NO_FACE_SURE = 0.5
# ... and a box face up with neither half showing a tile face is the table, a card or a shadow
# unless the detector is fairly sure: session 38, every box before this check, face up, both
# halves "no tile face", under 0.4: matrix 7 false boxes (one of them joined a recount's hand),
# held-out 640 / 1280 / 1080p 8 / 31 / 0 false boxes, 1 true tile (a back boxed face up at 0.28)
NO_FACE_AT_ALL_SURE = 0.4
# A blank face shows nothing but tile-coloured material, so only its outline makes it a tile: a
# box read 0-0 whose body runs on past an end and a long side is a plain patch of something
# larger (a box lid's big printed domino, a card), unless the detector is sure. Session 38,
# features of every box before this check: robustness matrix (400 scenes) 14 phantom 0-0s at
# 0.31-0.57 caught, no true box; held-out 640 / 1280 / 1080p renders none either way (true 0-0s
# lying so were boxed at 0.88 or more, or under MIN_VERIFY_PX, or at the frame's edge).
BLANK_SURE = 0.6
BLANK_RUNS_ON = 0.9


@dataclass(frozen=True)
class Body:
    """The body-coloured regions of a canonical crop, as seen from the two halves."""

    fill: float  # share of the box covered by the halves' bodies (pips and divider included)
    split: bool  # the two halves lie on separate bodies: a gap runs right across between them
    gap: float  # where that gap is along the tile (0..1) when split, else 0.5
    split_along: bool  # the two long sides lie on separate bodies: a gap runs along the box
    ends: tuple[float, float]  # share of the band beyond each end that continues the body
    sides: tuple[float, float]  # share of the band beyond each long side that continues the body

    @property
    def clean(self) -> bool:
        """One body filling the box and ending at its outline on every side."""
        return (not self.split and not self.split_along and self.fill >= CLEAN_FILL
                and max(self.ends) < END_RUNS_ON and max(self.sides) < END_RUNS_ON)


@dataclass(frozen=True)
class Verdict:
    physical: bool
    score: float  # 0..1, higher is more tile-like (detection confidence times body evidence)
    reason: str  # why it is not a tile ("" when it is)


def canonical(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Lab crop of the quad (ordered as `Box.corners()`), half 0 on the left, 2H x H body with P
    pixels beyond every side."""
    src = np.float32([[P, P], [P + 2 * H, P], [P + 2 * H, P + H], [P, P + H]]) - 0.5
    m = cv2.getPerspectiveTransform(src, np.float32(quad))
    out = np.float32([[0, 0], [2 * H + 2 * P, 0], [2 * H + 2 * P, H + 2 * P], [0, H + 2 * P]])
    reach = cv2.perspectiveTransform(out[None], m)[0]
    # warp from a cut of the frame round the padded quad only (warping from the whole frame is slow)
    x0, y0 = np.maximum(np.floor(reach.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.ceil(reach.max(axis=0)).astype(int) + 3
    cut = frame[y0:y1, x0:x1]
    if cut.size == 0:
        cut, x0, y0 = frame, 0, 0
    m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ m
    crop = cv2.warpPerspective(cut, m, (2 * H + 2 * P, H + 2 * P),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)


def _label_at(labels: np.ndarray, rows: slice, cols: slice) -> int:
    """The commonest region (label > 0) in a window, 0 when there is none."""
    counts = np.bincount(labels[rows, cols].ravel())
    counts[0] = 0
    return int(counts.argmax())


def _body_colour(half: np.ndarray, threshold: float) -> np.ndarray:
    """A half's body colour: the middle's median, or the median of a band just inside the outline
    when the middle is mostly pips (a 5 or 6 with big pips); the one whose region round the middle
    is largest (the body is one region, pips are small ones)."""
    n = half.shape[0]
    c, r = n // 6, max(n // 8, 2)
    inner = channel_median(half[c : n - c, c : n - c : 2].reshape(-1, 3))
    ring = np.concatenate([half[:r, c:-c].reshape(-1, 3), half[-r:, c:-c].reshape(-1, 3),
                           half[c:-c, :r].reshape(-1, 3), half[c:-c, -r:].reshape(-1, 3)])
    edge = channel_median(ring)

    def largest(colour: np.ndarray) -> int:
        near = (colour_distance(half, colour) < threshold).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=4)
        return int(stats[1:, cv2.CC_STAT_AREA].max()) if len(stats) > 1 else 0

    return edge if largest(edge) > largest(inner) else inner


def body(lab: np.ndarray, threshold: float = BODY_THRESHOLD) -> Body:
    """Where the body of the box's two halves is, in a crop from `canonical`."""
    colours = [_body_colour(lab[P + 1 : P + H - 1, P + k * H + 1 : P + (k + 1) * H - 1], threshold) for k in (0, 1)]
    # each half against its own body colour (shading changes along a tile), the nearer one wins
    near = cv2.min(colour_distance(lab, colours[0]), colour_distance(lab, colours[1])) < threshold
    # 4-connectivity: a seam between two tiles is often one pixel wide after the warp
    _, labels = cv2.connectedComponents(near.astype(np.uint8), connectivity=4)
    rows, q = slice(P + H // 4, P + H - H // 4), H // 4
    a = _label_at(labels, rows, slice(P + q, P + H - q))
    b = _label_at(labels, rows, slice(P + H + q, P + 2 * H - q))
    # a gap along the box must part the long sides in both halves: a divider that reaches the
    # outline (box slightly off) parts the halves, and then one window over both halves would see
    # half a on one side and half b on the other
    halves = [slice(P + k * H + q, P + (k + 1) * H - q) for k in (0, 1)]
    tops = [_label_at(labels, slice(P + 2, P + H // 2), c) for c in halves]
    bottoms = [_label_at(labels, slice(P + H // 2, P + H - 2), c) for c in halves]
    mine = ((labels == a) | (labels == b)) & (labels > 0)
    mine = mine.astype(np.uint8)
    filled = np.zeros_like(mine)
    contours, _ = cv2.findContours(mine, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(filled, contours, -1, 1, -1)
    split = a > 0 and b > 0 and a != b
    gap = 0.5
    if split:
        # the gap lies between the last column of half a's body and the first of half b's; where
        # the two bodies interleave (one leaks round the other into a busy table) no gap is seen
        ca = np.nonzero((labels[rows, P : P + 2 * H] == a).any(axis=0))[0]
        cb = np.nonzero((labels[rows, P : P + 2 * H] == b).any(axis=0))[0]
        if ca.max() < cb.min():
            gap = float(ca.max() + 1 + cb.min()) / (4 * H)
    mid, inside = slice(P + H // 5, P + H - H // 5), slice(P + H // 6, P + 2 * H - H // 6)
    return Body(
        fill=float(filled[P : P + H, P : P + 2 * H].mean()),
        split=bool(split),
        gap=gap,
        split_along=all(t > 0 and u > 0 and t != u for t, u in zip(tops, bottoms, strict=True)),
        ends=(float(mine[mid, : P - 2].mean()), float(mine[mid, P + 2 * H + 2 :].mean())),
        sides=(float(mine[: P - 2, inside].mean()), float(mine[P + H + 2 :, inside].mean())),
    )


def tile_length(quad: np.ndarray) -> float:
    q = np.asarray(quad, float)
    return float(np.hypot(*(q[1] - q[0])) + np.hypot(*(q[2] - q[3]))) / 2


def tile_width(quad: np.ndarray) -> float:
    q = np.asarray(quad, float)
    return float(np.hypot(*(q[3] - q[0])) + np.hypot(*(q[2] - q[1]))) / 2


def judge(b: Body, confidence: float = 0.0) -> str:
    """Why a body is not a tile's ("" when nothing speaks against it)."""
    if b.split and abs(b.gap - 0.5) > OFF_MIDDLE:
        return f"a gap runs across the box at {b.gap:.0%} of its length, off the middle: parts of two tiles"
    if b.split and min(b.ends) >= END_RUNS_ON and confidence < STRADDLE_SURE:
        return "a gap runs across the middle and the body goes on past both ends: halves of two tiles"
    if b.split_along:
        return "a gap runs along the box: two tiles side by side"
    if b.fill < MIN_FILL:
        return f"one body covers only {b.fill:.0%} of the box"
    return ""


def evidence(b: Body) -> float:
    """0..1: how much the body looks like one tile's (fills the box, ends at its outline)."""
    return (0.5 + 0.5 * min(b.fill, 1.0)) * (1 - 0.5 * min(b.ends)) * (1 - 0.5 * min(b.sides))


def verify_tile(frame: np.ndarray, quad: np.ndarray, confidence: float = 1.0,
                typical: float | None = None) -> tuple[Verdict, Body | None]:
    """Judge one box on the full-resolution BGR frame (no neighbours, no size check). Boxes
    shorter than MIN_VERIFY_PX are judged only in frames whose `typical` tile is that long."""
    if max(tile_length(quad), typical or 0.0) < MIN_VERIFY_PX:
        return Verdict(True, confidence, ""), None
    b = body(canonical(frame, quad))
    why = judge(b, confidence)
    return Verdict(not why, confidence * evidence(b), why), b


def typical_length(lengths: np.ndarray, confidence: np.ndarray) -> float | None:
    """The frame's tile length: median over the more confident half of the boxes."""
    if len(lengths) < MIN_TILES_FOR_SIZE:
        return None
    sure = confidence >= np.median(confidence)
    return float(np.median(lengths[sure]))


def sizes_agree(lengths: np.ndarray, confidence: np.ndarray) -> bool:
    """The more confident half of the boxes agree on one length (boxes on halves of tiles, in a
    small blurred frame, make a median that true tiles are far longer than)."""
    sure = lengths[confidence >= np.median(confidence)]
    return float(np.percentile(sure, 75)) <= SIZES_AGREE * float(np.percentile(sure, 25))


def _area(q: np.ndarray) -> float:
    return abs(float(cv2.contourArea(q.astype(np.float32))))


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Shared area over the smaller box's area."""
    ha, hb = cv2.convexHull(a.astype(np.float32)), cv2.convexHull(b.astype(np.float32))
    inter = cv2.intersectConvexConvex(ha, hb)[0]
    return float(inter) / max(min(_area(a), _area(b)), 1e-9)


def verify_tiles(frame: np.ndarray, quads: Sequence[np.ndarray], confidence: Sequence[float],
                 typical: float | None) -> list[tuple[Verdict, Body | None]]:
    """`verify_tile` for each box (the per-tile part, run by worker processes too)."""
    return [verify_tile(frame, q, float(c), typical) for q, c in zip(quads, confidence, strict=True)]


def blank_patch(b: Body | None, confidence: float, at_edge: bool) -> str:
    """Why a box read 0-0 is no tile ("" when nothing speaks against it): see BLANK_SURE."""
    if b is None or at_edge or confidence >= BLANK_SURE:
        return ""
    if max(b.ends) >= BLANK_RUNS_ON and max(b.sides) >= BLANK_RUNS_ON:
        return f"a blank face whose body runs on past an end and a side, the detector unsure ({confidence:.2f}): part of something larger"
    return ""


def verify_frame(frame: np.ndarray, quads: Sequence[np.ndarray], confidence: Sequence[float],
                 bodies=verify_tiles, blanks: Sequence[bool] | None = None) -> list[Verdict]:
    """One verdict per box of a frame: each box's body, its size against the frame's typical tile,
    and overlaps (of two overlapping boxes the weaker goes when the stronger has a clean body).
    `bodies` judges each box alone (`verify_tiles`, or worker processes: `vision.read.workers`);
    `blanks` says which boxes were read 0-0 face up (`blank_patch`)."""
    quads = [np.asarray(q, float).reshape(4, 2) for q in quads]
    conf = np.asarray(confidence, float).reshape(-1)
    lengths = np.array([tile_length(q) for q in quads])
    widths = np.array([tile_width(q) for q in quads])
    typical = typical_length(lengths, conf)
    judged = bodies(frame, quads, conf, typical)
    verdicts = [v for v, _ in judged]
    size = (frame.shape[1], frame.shape[0])
    for i, (v, b) in enumerate(judged):
        why = blank_patch(b, conf[i], at_frame_edge(quads[i], size)) if blanks is not None and blanks[i] else ""
        if v.physical and why:
            verdicts[i] = Verdict(False, v.score, why)
    agreed = typical is not None and sizes_agree(lengths, conf)
    wide = typical_length(widths, conf) if agreed and sizes_agree(widths, conf) else None
    if typical is not None:
        for i, v in enumerate(verdicts):
            short = lengths[i] < MIN_RELATIVE_LENGTH * typical
            unsure = lengths[i] < SHORT_RELATIVE_LENGTH * typical and conf[i] < UNSURE_CONFIDENCE
            if v.physical and agreed and lengths[i] > MAX_RELATIVE_LENGTH * typical:
                verdicts[i] = Verdict(False, v.score, f"{lengths[i]:.0f} px long where the frame's tiles are "
                                                      f"{typical:.0f} px: no tile of this set")
            elif v.physical and wide is not None and widths[i] > MAX_RELATIVE_WIDTH * wide:
                verdicts[i] = Verdict(False, v.score, f"{widths[i]:.0f} px wide where the frame's tiles are "
                                                      f"{wide:.0f} px: no tile of this set")
            elif v.physical and (short or unsure):
                doubt = f" and the detector is unsure ({conf[i]:.2f})" if unsure and not short else ""
                verdicts[i] = Verdict(False, v.score, f"{lengths[i]:.0f} px long where the frame's tiles are "
                                                      f"{typical:.0f} px{doubt}: part of something")
    return _disjoint(quads, lengths, verdicts)


def _disjoint(quads: list[np.ndarray], lengths: np.ndarray, verdicts: list[Verdict]) -> list[Verdict]:
    """Tiles do not overlap: of the boxes left, the heaviest set (by score) no two of which overlap
    stays (`vision.read.rigid`); a box across the joint of two touching tiles loses against the two."""
    centres = np.array([q.mean(axis=0) for q in quads]).reshape(-1, 2)
    alive = [i for i, v in enumerate(verdicts) if v.physical]
    conflicts: dict[int, list[int]] = {i: [] for i in alive}
    for n, i in enumerate(alive):
        for k in alive[n + 1:]:
            if (np.hypot(*(centres[i] - centres[k])) < (lengths[i] + lengths[k]) / 2
                    and _overlap(quads[i], quads[k]) > OVERLAP):
                conflicts[i].append(k)
                conflicts[k].append(i)
    index = {i: n for n, i in enumerate(alive)}
    # a box weighs what it explains: its score times the share of a whole tile it covers, so two
    # boxes on the halves of one tile do not outweigh the tile (held-out renders, blurred and
    # grooved sets: true tiles were lost so)
    areas = np.array([_area(q) for q in quads])
    whole = float(np.median(areas[alive])) if alive else 1.0
    weight = [verdicts[i].score * min(1.0, areas[i] / max(whole, 1e-9)) for i in alive]
    keep = heaviest_disjoint(weight, [[index[k] for k in conflicts[i]] for i in alive])
    out = list(verdicts)
    for n, i in enumerate(alive):
        if n not in keep:
            two = sum(1 for k in conflicts[i] if index[k] in keep) >= 2
            why = "lies half on each of two better tiles" if two else "overlaps a better tile: tiles do not overlap"
            out[i] = Verdict(False, verdicts[i].score, why)
    return out


def half_a_face(t) -> str:
    """Why a read tile is no tile for its faces ("" when nothing speaks against it): one half
    shows a face, the other none at all, or neither shows one, in a box the detector is unsure of."""
    if t.face != "up" or t.detection_confidence >= NO_FACE_SURE:
        return ""
    if shows_no_face(t, 0) != shows_no_face(t, 1):
        return f"one half shows no tile face and the detector is unsure ({t.detection_confidence:.2f})"
    if shows_no_face(t, 0) and shows_no_face(t, 1) and t.detection_confidence < NO_FACE_AT_ALL_SURE:
        return f"neither half shows a tile face and the detector is unsure ({t.detection_confidence:.2f})"
    return ""


def physical_tiles(frame: np.ndarray, tiles: list, bodies=verify_tiles) -> list:
    """The reader's tiles (`TileRead`s) that are physical tiles, in their order; the others are
    logged with the reason."""
    if not tiles:
        return tiles
    verdicts = verify_frame(frame, [t.quad for t in tiles], [t.detection_confidence for t in tiles], bodies,
                            [t.face == "up" and t.values == (0, 0) for t in tiles])
    for i, t in enumerate(tiles):
        why = half_a_face(t)
        if why and verdicts[i].physical:
            verdicts[i] = Verdict(False, verdicts[i].score, why)
    for t, v in zip(tiles, verdicts, strict=True):
        if not v.physical:
            log.debug("not a tile at (%.0f, %.0f): %s", *np.mean(t.quad, axis=0), v.reason)
    return [t for t, v in zip(tiles, verdicts, strict=True) if v.physical]
