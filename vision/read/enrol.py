"""Teach it your set: read a photo of a whole double-six set and measure the set (issue 23, item 4).

The 28 tiles lie face up, not touching. The detector's boxes (`enrolment_boxes`) are cut into
halves as the reader cuts them (`vision.read.tile`); then, as each of the 28 values {a <= b}
appears exactly once, the reading is solved as an assignment:
each tile gets a distinct value, the match of least total cost, a tile's cost for a value being
minus the log of the likelihood its two halves give it (either way round). The likelihoods come
from the half classifier (`halfcnn`, re-run here on the tiles' halves) and the blob counter. The
assigned set is then measured into a `SetProfile`: body and pip colours, pip size, the divider's
kind, each value's pip positions, the tile's size.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect.detections import Detections
from vision.read import halfcnn
from vision.read.assign import assign
from vision.read.box import apply_h, box_from_corners, quad_homography, warp_quad
from vision.read.light import even_light
from vision.read.loose import fit_to_bodies, missed_tiles, off_colour
from vision.read.pips import HalfRead, body_colour, colour_distance
from vision.read.setprofile import Lab, Point, SetProfile
from vision.read.tile import HALF, PAD, HalfCut, cut_halves, find_divider

log = logging.getLogger(__name__)

SET_VALUES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
SET_SIZE = len(SET_VALUES)  # 28
FLOOR = 0.01  # share of a uniform guess mixed into each half's probabilities (no value is impossible)
# The blob counter's say: its reading v with score s counts as (1 - s) uniform + s on v, to this power.
BLOB_WEIGHT = 1.0
BLOB_MOST = 0.9  # the blob counter is never taken as certain
# A tile whose assigned value has less than this share of its own likelihood over the 28 values was
# forced into it by the others: two tiles read as one value, or a tile of another set.
MIN_ASSIGNED = 0.002
PIN_PAINT = 0.12  # of the tile's width: the disc painted over a centre pin (the pin's radius is about 0.07)
MAX_DIVIDER_OFF = 0.12  # of a half's side: a divider found further from the box's middle is no divider
# The enrolment's boxes are fitted to the tiles' bodies: its dividers lie nearer the middle (at 0.12
# the column of three pips of a six across next to it passed for the divider now and then).
ENROL_DIVIDER_OFF = 0.05
BOX_SIZE = (0.68, 1.5)  # a box taken must be this long, of the median sure box's length (a tilted camera: 0.8-1.35)
SAME_TILE = 0.2  # boxes sharing more than this of the smaller one's area lie on one tile
OUT_OF_PHOTO = 0.15  # of a box's width: how far past the photo's edge a tile's box may reach (a loose box)
BACK = 0.5  # a tile both of whose halves the classifier takes this surely for no face shows its back
LAY_OUT = "lay all 28 tiles face up, not touching, all inside the photo, and take it again"


class EnrolError(ValueError):
    """The photo cannot be enrolled; the message (one line) says why and what to do."""


@dataclass(frozen=True)
class EnrolledTile:
    values: tuple[int, int]  # in half order
    halves: np.ndarray  # (2, 2) frame pixels of the halves read
    confidence: float  # the assigned value's share of the tile's own likelihood over the 28 values


@dataclass(frozen=True)
class Enrolment:
    tiles: tuple[EnrolledTile, ...]
    profile: SetProfile


@dataclass(frozen=True)
class _Measured:
    """One tile's halves cut again for the enrolment: crops, blob readings, value probabilities."""

    quad: np.ndarray
    halves: np.ndarray
    cuts: tuple[HalfCut, HalfCut]
    crop: np.ndarray  # the padded Lab canonical crop
    divider: float | None  # its column in the crop, where the reader finds one
    probs: np.ndarray  # (2, 7) probabilities of the values 0..6, per half
    back: float  # the classifier's least probability over both halves that it shows no face (a back)


def cut_tile(frame: np.ndarray, quad: np.ndarray, middle: bool = False, pin: bool = False,
             max_off: float = MAX_DIVIDER_OFF) -> tuple[np.ndarray, np.ndarray, tuple[HalfCut, HalfCut], float | None]:
    """The tile's padded Lab canonical crop, its half centres in the frame, both halves (cut as the
    reader cuts them, at the divider; at the box's middle where the divider found lies more than
    `max_off` of a half off it, or with `middle`), and the divider's column in the crop (None: none
    found, or off the middle).
    With `pin` (a set with a centre pin and no line) the pin is painted over in the body's colour
    first, so that neither the blob counter nor the classifier counts it."""
    crop, _ = warp_quad(frame, quad, HALF, PAD)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    if pin:
        centre = (int(round(PAD + HALF)), int(round(HALF / 2 - 0.5)))
        cv2.circle(lab, centre, int(round(PIN_PAINT * HALF)), tuple(float(x) for x in body_colour(lab)), -1)
        middle = True
    div = None if middle else find_divider(lab, PAD)
    if div is not None and abs(div - PAD - HALF) > max_off * HALF:
        div = None  # a column of pips taken for it (the six across): a lone tile's box is good, cut at its middle
    d = div if div is not None else PAD + HALF
    h = quad_homography(quad, HALF, PAD)
    halves = apply_h(h, [[d - HALF / 2, HALF / 2 - 0.5], [d + HALF / 2, HALF / 2 - 0.5]])
    return lab, halves, cut_halves(lab, PAD, d), div


def _blob_probs(h: HalfRead) -> np.ndarray:
    q = np.full(7, 1.0 / 7)
    if h.value is not None:
        s = min(h.score, BLOB_MOST)
        q = (1 - s) * q
        q[h.value] += s
    return q


def measure_tiles(frame: np.ndarray, quads: list[np.ndarray], pin: bool = False) -> list[_Measured]:
    """Cut each tile's halves (quads: corners (4, 2), half-0 end first, as the reader's; `pin`: see
    `cut_tile`) and give both halves' probabilities of 0..6 from the half classifier and the blob
    counter."""
    cut = [cut_tile(frame, q, pin=pin, max_off=ENROL_DIVIDER_OFF) for q in quads]
    probs, raw = None, None
    if cut and halfcnn.available():
        x = np.concatenate([np.stack([c.input() for c in cuts]) for _, _, cuts, _ in cut])
        raw = halfcnn.predict(x)
        probs = raw[:, : halfcnn.NOT_PIPS] / np.maximum(raw[:, : halfcnn.NOT_PIPS].sum(axis=1, keepdims=True), 1e-12)
    out = []
    for n, (quad, (lab, halves, cuts, div)) in enumerate(zip(quads, cut, strict=True)):
        p = np.ones((2, 7)) / 7 if probs is None else probs[2 * n: 2 * n + 2].copy()
        for k in (0, 1):
            blobs = cuts[k].blobs
            if blobs.value == 6 and arrangement(6, tuple(map(tuple, _canonical(blobs, k)))) == "across":
                p[k] = 1.0 / 7  # the classifier has learnt the six along only: it reads this one as 4
            p[k] = (1 - FLOOR) * p[k] + FLOOR / 7
            p[k] *= _blob_probs(blobs) ** BLOB_WEIGHT
            p[k] /= p[k].sum()
        back = 0.0 if raw is None else float(raw[2 * n: 2 * n + 2, halfcnn.NOT_PIPS].min())
        out.append(_Measured(np.asarray(quad, float), halves, cuts, lab, div, p, back))
    return out


def tile_likelihoods(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For halves' probabilities (n, 2, 7): each tile's likelihood of each set value (n, 28), and
    whether that value reads the other way round (half 0 shows b) (n, 28)."""
    a = np.array([v[0] for v in SET_VALUES])
    b = np.array([v[1] for v in SET_VALUES])
    straight = probs[:, 0, a] * probs[:, 1, b]
    turned = probs[:, 0, b] * probs[:, 1, a]
    return np.maximum(straight, turned), turned > straight


def _where(m: _Measured) -> str:
    x, y = m.halves.mean(axis=0)
    return f"({x:.0f}, {y:.0f})"


def _name(v: tuple[int, int]) -> str:
    return f"{v[0]}-{v[1]}"


def _unassigned(measured: list[_Measured], share: np.ndarray, cols: np.ndarray, forced: int) -> str:
    """Why the set cannot be assigned, in words: the tiles that read as one value (each tile's own
    likeliest value), the values no tile reads; else the tile that had to take a value."""
    best = share.argmax(axis=1)
    values, counts = np.unique(best, return_counts=True)
    missing = [_name(SET_VALUES[j]) for j in range(SET_SIZE) if j not in set(best.tolist())]
    if (counts > 1).any() and missing:
        twice = int(values[np.argmax(counts)])
        at = [_where(measured[i]) for i in np.flatnonzero(best == twice)]
        where = f"{', '.join(at[:-1])} and {at[-1]} {'both' if len(at) == 2 else 'all'}"
        return f"the tiles at {where} read {_name(SET_VALUES[twice])} and no tile reads {', '.join(missing)}"
    return (f"the tile at {_where(measured[forced])} reads {_name(SET_VALUES[int(best[forced])])} "
            f"and nothing else but {_name(SET_VALUES[int(cols[forced])])} is left for it")


def solve(measured: list[_Measured]) -> list[EnrolledTile]:
    """The assignment of the 28 set values to the 28 tiles. Raises EnrolError where a tile had to
    take a value its halves all but rule out (two tiles of one value, or one of another set)."""
    probs = np.stack([m.probs for m in measured])
    like, turned = tile_likelihoods(probs)
    share = like / like.sum(axis=1, keepdims=True)
    cols = assign(-np.log(like))
    forced = [i for i, j in enumerate(cols) if share[i, j] < MIN_ASSIGNED]
    if forced:
        raise EnrolError(f"cannot assign the set: {_unassigned(measured, share, cols, forced[0])}; enrol one whole "
                         "set of 28 different tiles (is one there twice, or from another set?)")
    out = []
    for i, j in enumerate(cols):
        a, b = SET_VALUES[j]
        vals = (b, a) if turned[i, j] else (a, b)
        out.append(EnrolledTile(vals, measured[i].halves, float(share[i, j])))
    return out


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Shared area of two boxes' corners (4, 2), as a share of the smaller box."""
    pa, pb = a.astype(np.float32), b.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    return float(inter) / max(min(abs(cv2.contourArea(pa)), abs(cv2.contourArea(pb))), 1e-6)


def _runs_out(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a box reaches past the photo's edge by more than OUT_OF_PHOTO of its width: the set
    lies inside the photo, so it is no tile of it (a doubtful box on the table below a tile at the
    edge, no-divider enrolment photo 17 of `lab.benchmarks.measure_enrol`: 29 tiles), or a tile cut
    by the edge, and the photo must be taken again either way."""
    h, w = shape[:2]
    q = np.asarray(corners, float)
    margin = OUT_OF_PHOTO * float(np.linalg.norm(q[3] - q[0]))
    return bool((q[:, 0] < -margin).any() or (q[:, 0] > w - 1 + margin).any()
                or (q[:, 1] < -margin).any() or (q[:, 1] > h - 1 + margin).any())


def enrolment_boxes(frame: np.ndarray, detections: Detections, doubtful: Detections | None,
                    table_colour: bool = False) -> list[np.ndarray]:
    """The tiles' boxes (corners (4, 2), half-0 end first) in a photo of a set laid out apart.

    Every box is taken for a face (the set lies face up; a blank or undivided face passes for a
    back with the detector, and a true back is found by the classifier later). Tiles lie apart, so
    boxes that overlap are one tile: the sure boxes of the set's size (the median sure box's
    length) are kept, surest first, where they lie on no box kept; then, while there are fewer
    than the set, the detector's doubtful boxes the same way (blank halves score low). Each box is
    then fitted to its tile's body (with `table_colour` a doubtful box whose middle is not of the
    sure tiles' body colour is left out: the table), and blobs of the boxed tiles' body colour, size and shape no
    box is on are the tiles the detector missed (`vision.read.loose`). Boxes of another
    size are parts of a tile or something else. (The reader's own check of boxes, `verify`, is
    for crowded tables; it drops a blank half with no divider as no face.)"""
    if not len(detections):
        return []
    typical = float(np.median(detections.long_side))
    kept: list[np.ndarray] = []
    sure = 0  # the first `sure` boxes kept are the detector's sure ones
    for dets, most in ((detections, None), (doubtful, SET_SIZE)):
        if most is not None:
            sure = len(kept)
        if dets is None or not len(dets):
            continue
        for i in np.argsort(-dets.confidence):
            if most is not None and len(kept) >= most:
                break
            length = float(dets.long_side[i])
            if not BOX_SIZE[0] * typical <= length <= BOX_SIZE[1] * typical:
                continue
            corners = box_from_corners(dets.corners[i]).corners()
            if _runs_out(corners, frame.shape):
                continue
            if any(_overlap(corners, k) > SAME_TILE for k in kept):
                continue
            kept.append(corners)
    if table_colour:
        table = off_colour(frame, kept[sure:], kept[:sure])
        kept = kept[:sure] + [q for q, off in zip(kept[sure:], table, strict=True) if not off]
    fitted: list[tuple[np.ndarray, bool]] = []
    for corners, on_body in fit_to_bodies(frame, kept):  # two boxes on one tile fit to one body
        if not any(_overlap(corners, k) > SAME_TILE for k, _ in fitted):
            fitted.append((corners, on_body))
    while len(fitted) > SET_SIZE and not all(on for _, on in fitted):
        # more boxes than the set: the least sure box on no tile-shaped blob of the set's colour goes
        fitted.pop(max(i for i, (_, on) in enumerate(fitted) if not on))
    kept = [q for q, _ in fitted]
    if len(kept) < SET_SIZE:
        kept += missed_tiles(frame, kept)
    return kept


def _looks(frame: np.ndarray, detector) -> Iterator[list[np.ndarray]]:
    """The boxes of the photo's tiles, one way of finding them after another (the next only where
    the one before did not give a set that could be assigned): as the detector sees them; without
    the doubtful boxes off the sure tiles' body colour (the table: a plank of dark wood boxed and
    read 0-0, where the detector missed tiles; but a tile in a patch of sunlight is off a set in
    the shade, so this is not the first way); and with the light made even (a shadow over part of
    the table hides tiles from the detector and the body colour; the tiles are still measured on
    the photo itself)."""
    detections = detector.detect(frame)
    doubtful = detector.last.doubtful
    yield enrolment_boxes(frame, detections, doubtful)
    if not len(detections):
        return
    yield enrolment_boxes(frame, detections, doubtful, table_colour=True)
    evened = even_light(frame, float(np.median(detections.long_side)))
    yield enrolment_boxes(evened, detector.detect(evened), detector.last.doubtful)


def enrol_photo(frame: np.ndarray, detector, image: str) -> Enrolment:
    """Detect (`detector`: a `vision.detect.TileDetector`), read and enrol one photo of a set.
    The set's 28 different values are the check: the first way of finding the tiles (`_looks`)
    whose 28 tiles can be assigned is taken. Raises EnrolError (one line: why, and what to do),
    the first way's."""
    first: EnrolError | None = None
    tried: list[list[np.ndarray]] = []
    for quads in _looks(frame, detector):
        if any(_same_boxes(quads, t) for t in tried):
            continue
        tried.append(quads)
        try:
            return _enrol_boxes(frame, quads, image)
        except EnrolError as exc:
            first = first or exc
    raise first or EnrolError(f"found no tiles, need exactly {SET_SIZE}: {LAY_OUT}")


def _same_boxes(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(np.allclose(p, q) for p, q in zip(a, b, strict=True))


def _enrol_boxes(frame: np.ndarray, quads: list[np.ndarray], image: str) -> Enrolment:
    """Read and enrol the tiles in `quads`. Raises EnrolError."""
    if len(quads) != SET_SIZE:
        raise EnrolError(f"found {len(quads)} tiles, need exactly {SET_SIZE}: {LAY_OUT}")
    measured = measure_tiles(frame, quads)
    if _divider_kind(measured, _body(measured))[0] == "pin":  # the classifier counts a pin as a pip
        measured = measure_tiles(frame, quads, pin=True)
    tiles = solve(measured)
    # the blank double with no divider is all body, as a plain back is: only it may look like one
    backs = [m for m, t in zip(measured, tiles, strict=True) if m.back > BACK and t.values != (0, 0)]
    if backs:
        some = "1 tile shows its back" if len(backs) == 1 else f"{len(backs)} tiles show their backs"
        raise EnrolError(f"{some} (the first at {_where(backs[0])}): turn them face up and take the photo again")
    profile = measure_profile(measured, tiles, image)
    return Enrolment(tuple(tiles), profile)


def enrolment_to_json(enrolment: Enrolment, image: str, profile_path: str) -> dict:
    """The `dominocam enrol --json` object."""
    return {"image": image,
            "tiles": [{"values": list(t.values), "halves": [[round(float(x), 1) for x in p] for p in t.halves],
                       "confidence": round(t.confidence, 3)} for t in enrolment.tiles],
            "complete": True, "profile": profile_path}


# --- measuring the set ---------------------------------------------------------------------------

PIN_REACH = 0.1  # of the tile's width: how far either side of the divider's column a pin is looked for
PIN_WIDER = 0.06  # of the tile's width: a pin is this much wider (along the tile) than the line at the centre
MIN_MARK = 28.0  # Lab distance to the body above which a pixel shows a mark
MAJORITY = 0.5


def _canonical(h: HalfRead, k: int) -> np.ndarray:
    """Blob positions of half k seen from the divider (x from it outward, y across, half 0 turned)."""
    pts = np.array([[b.x, b.y] for b in h.blobs], float).reshape(-1, 2)
    return 1.0 - pts if k == 0 else pts


def _pip_pixels(cut: HalfCut) -> np.ndarray:
    """Lab pixels of the cores of a half's pips."""
    s = cut.lab.shape[0]
    yy, xx = np.mgrid[0:s, 0:s]
    mask = np.zeros((s, s), bool)
    for b in cut.blobs.blobs:
        r = max(1.0, 0.6 * np.sqrt(b.area * s * s / np.pi))
        mask |= (xx - b.x * s) ** 2 + (yy - b.y * s) ** 2 <= r * r
    return cut.lab[mask]


def _template(sets: list[tuple[float, np.ndarray]]) -> tuple[Point, ...]:
    """The typical positions of one value's pips: the surest half's, each averaged with the pips
    matched to it in the other halves."""
    if not sets:
        return ()
    ref = max(sets, key=lambda s: s[0])[1]
    total, n = ref.copy(), 1
    for _, pts in sets:
        if pts is ref:
            continue
        cost = np.linalg.norm(ref[:, None] - pts[None], axis=2)
        total += pts[assign(cost)]
        n += 1
    return tuple((float(x), float(y)) for x, y in total / n)


def arrangement(value: int, pts: tuple[Point, ...]) -> str:
    """A value's pip positions in words; for the six, "along" (two rows of three along the tile)
    or "across" (three rows of two across the half)."""
    if not pts:
        return "unseen"
    if value != 6:
        return {0: "blank", 1: "centre", 2: "diagonal", 3: "diagonal", 4: "square", 5: "square and centre"}[value]
    p = np.array(pts)

    def pairs(col: np.ndarray) -> float:  # small when the values come in three pairs
        s = np.sort(col)
        return float(s[1] - s[0] + s[3] - s[2] + s[5] - s[4])

    return "along" if pairs(p[:, 0]) < pairs(p[:, 1]) else "across"


def _median_lab(pixels: list[np.ndarray]) -> Lab | None:
    if not pixels or not sum(len(p) for p in pixels):
        return None
    m = np.median(np.concatenate(pixels), axis=0)
    return (float(m[0]), float(m[1]), float(m[2]))


def divider_marks(crop: np.ndarray, divider: float | None, body: np.ndarray) -> tuple[bool, bool]:
    """Whether a tile's padded Lab canonical crop shows a line and a pin between its halves, near
    the divider's column (else the middle): a line marks the body (`body`, Lab) above and below the
    centre; a pin marks it at the centre, wider along the tile than the line there."""
    h, w = crop.shape[:2]
    mid = np.abs(np.arange(h) - (HALF / 2 - 0.5))
    rows = (mid > 0.15 * HALF) & (mid < 0.35 * HALF)
    reach = int(round(PIN_REACH * HALF))
    col = int(round(divider if divider is not None else PAD + HALF))
    lo, hi = max(col - reach, 0), min(col + reach + 1, w)
    dist = colour_distance(np.ascontiguousarray(crop[:, lo:hi]), body.astype(np.float32)) > MIN_MARK
    # the mark's width (columns) across the band above and below the centre, and at the centre
    band = float(np.median(dist[rows].sum(axis=1)))
    centre = float(dist[mid < 1.0].sum(axis=1).max())
    return band >= 1, centre >= band + PIN_WIDER * HALF


def _divider_kind(measured: list[_Measured], body: np.ndarray) -> tuple[str, float]:
    """The divider as most tiles show it (a line, a pin on a line, a pin, none) and the share of
    tiles whose line the reader's `find_divider` found (`divider_marks`: any colour of either)."""
    lines = pins = seen = 0
    for m in measured:
        seen += m.divider is not None
        line, pin = divider_marks(m.crop, m.divider, body)
        lines += line
        pins += pin
    n = len(measured)
    if lines >= MAJORITY * n:
        kind = "pin_line" if pins >= MAJORITY * n else "line"
    else:
        kind = "pin" if pins >= MAJORITY * n else "none"
    return kind, seen / n


def _body(measured: list[_Measured]) -> np.ndarray:
    return np.median(np.stack([c.body for m in measured for c in m.cuts]), axis=0).astype(np.float32)


def measure_profile(measured: list[_Measured], tiles: list[EnrolledTile], image: str) -> SetProfile:
    """The set's profile from its assigned tiles."""
    body = _body(measured)
    colours: list[list[np.ndarray]] = [[] for _ in range(7)]
    positions: list[list[tuple[float, np.ndarray]]] = [[] for _ in range(7)]
    areas, contrasts = [], []
    for m, t in zip(measured, tiles, strict=True):
        for k, cut in enumerate(m.cuts):
            v = t.values[k]
            blobs = cut.blobs.blobs
            if len(blobs) != v or v == 0:
                continue  # a half whose blobs are not its pips tells nothing about them
            colours[v].append(_pip_pixels(cut))
            positions[v].append((cut.blobs.score, _canonical(cut.blobs, k)))
            areas += [b.area for b in blobs]
            contrasts += [b.contrast for b in blobs]
    pips = tuple(() if v == 0 else _template(positions[v]) for v in range(7))
    kind, seen = _divider_kind(measured, body)
    boxes = [box_from_corners(m.quad) for m in measured]
    return SetProfile(
        image=image, body=(float(body[0]), float(body[1]), float(body[2])),
        pip_colours=tuple(None if v == 0 else _median_lab(colours[v]) for v in range(7)),
        pip_contrast=float(np.median(contrasts)) if contrasts else 0.0,
        pip_area=float(np.median(areas)) if areas else 0.0,
        divider=kind, divider_seen=seen,
        arrangements=tuple(arrangement(v, pips[v]) if v else "blank" for v in range(7)), pips=pips,
        tile_length_px=float(np.median([b.length for b in boxes])),
        tile_width_px=float(np.median([b.width for b in boxes])), tiles=len(measured))
