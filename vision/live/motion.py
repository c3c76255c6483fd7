"""Motion gating on a small grey frame: is the scene settled, is an arm over the table, and from
which table edge did it come.

Two differences per frame: against the previous frame (something is moving) and against the last
settled frame, the background (something new is there, moving or not). A changed blob that touches
a band along a table edge is an arm reaching in from that edge; the detector runs only on settled
frames with no arm. Global light flicker is removed by subtracting the median difference.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.live.calibration import TableCalibration


@dataclass(frozen=True)
class MotionInfo:
    """The gate's verdict on one frame."""

    settled: bool  # still long enough and no arm over the table: run the detector
    arm: bool  # a changed blob touches a table edge
    edge: str | None  # the edge that blob touches most (where the arm entered)
    moving: float  # fraction of table pixels changed since the previous frame
    changed: float  # fraction of table pixels changed since the last settled frame
    # Each arm on this frame: the edge it comes from, its tip (the point deepest into the table,
    # in frame pixels), so a tile can be matched to the arm that reached where it lies, and
    # whether it was seen at that edge (else its side was told from the way it points alone).
    reaches: tuple[tuple[str, tuple[float, float], bool], ...] = ()


SETTLED = MotionInfo(settled=True, arm=False, edge=None, moving=0.0, changed=0.0)


def arm_from(edge: str) -> MotionInfo:
    """An unsettled frame with an arm over `edge` (for tests and replays without pixels)."""
    return MotionInfo(settled=False, arm=True, edge=edge, moving=0.1, changed=0.1)


_EDGES = ("top", "bottom", "left", "right")
_EDGE_CODE = {e: i + 1 for i, e in enumerate(_EDGES)}
_TOUCH = 4  # pixels of a blob in an edge band: it touches that edge
CLIPPED = 250.0  # a work pixel's channel this bright is at the sensor's top: its true value may be more
GRAZE = 0.02  # of a blob's pixels: fewer in the one edge band it touches may only graze it
_LIT = 40.0  # grey levels: a channel this bright tells the light's gain through JPEG noise
_LIT_MIN = 50  # sampled pixels that must be that bright, else all of them tell it
# A change of the light's gain this large between the background and a frame is a step of the
# camera's exposure, which the background then follows (smaller drift, a flicker, is matched
# frame by frame; following it too would change the masks of every frame for nothing).
EXPOSURE_STEP = 0.05
_OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
_NORMALS = {"right": (1.0, 0.0), "left": (-1.0, 0.0), "bottom": (0.0, 1.0), "top": (0.0, -1.0)}  # outward, in table units


@dataclass
class MotionConfig:
    work_width: int = 160
    threshold: int = 22  # grey levels, after the median is removed
    # A blob seeded above `threshold` grows over the pixels above this one (hysteresis): a
    # forearm the colour of the wood joins the hand that stands out, and so reaches its edge.
    grow_threshold: int = 14
    # A grown region over this many times its blob has run into other faint change (camera
    # shake on wood grain, light drifting): it does not count towards the blob's size as an
    # arm, nor (over region_cap) for the edge it came from.
    size_cap: float = 3.0
    region_cap: float = 6.0
    moving_frac: float = 0.003  # above this share of moving pixels the scene is moving
    settle_s: float = 0.0  # still this long (beyond one still frame) before it counts as settled
    absorb_s: float = 0.6  # a still blob this long joins the background (arms pause shorter)
    band: float = 0.07  # width of the edge bands, as a share of the table
    arm_frac: float = 0.004  # smallest blob, as a share of the table, taken for an arm
    big_frac: float = 0.02  # a blob this large is an arm wherever it is (several tiles' area)
    linger: float = 0.5  # change still above this share of an arm's peak: the arm is still there
    # ... once the peak is over this share of the table (a hand resting after laying a tile, not
    # yet joined to the background: settling then would put the hand into the background, and
    # its ghost would keep the frames after it leaves from settling).
    linger_floor: float = 0.01


class MotionGate:
    """Feed every frame in order: `update(frame, t) -> MotionInfo`."""

    def __init__(self, calibration: TableCalibration, config: MotionConfig | None = None) -> None:
        self.calibration = calibration
        self.config = config or MotionConfig()
        self._shape: tuple[int, int] | None = None
        self._prev: np.ndarray | None = None
        self._background: np.ndarray | None = None
        self._still_since: float | None = None
        self._change_t = np.empty(0)  # per work pixel: when its present change began (from the first frame)
        # edge -> when an arm from it was first seen since the table last settled (a hand that
        # pauses is lost to the gate for a few frames, and is the same arm when it moves again)
        self._arm_came: dict[str, float] = {}

    def set_calibration(self, calibration: TableCalibration) -> None:
        self.calibration = calibration
        self._shape = None  # rebuild the masks on the next frame

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        cw = self.config.work_width
        ch = max(1, round(h * cw / w))
        # Colour, not grey: a dark sleeve on dark felt differs in hue, hardly in brightness.
        colour = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2 else frame
        small = cv2.resize(colour, (cw, ch), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)
        if self._shape != (ch, cw):
            self._build_masks(w, h, cw, ch)
            self._prev = None
            self._background = None
        return small

    def _build_masks(self, w: int, h: int, cw: int, ch: int) -> None:
        calib = self.calibration.scaled(cw / w, ch / h) if self.calibration.size is None else (
            self.calibration.scaled(cw / self.calibration.size[0], ch / self.calibration.size[1])
        )
        ys, xs = np.mgrid[0:ch, 0:cw].astype(np.float32)
        pts = np.stack([xs.ravel(), ys.ravel()], axis=1)[None]
        uv = cv2.perspectiveTransform(pts, calib._to_unit)[0]  # type: ignore[attr-defined]
        u = uv[:, 0].reshape(ch, cw)
        v = uv[:, 1].reshape(ch, cw)
        inside = (u >= -0.02) & (u <= 1.02) & (v >= -0.02) & (v <= 1.02)
        b = self.config.band
        self._inside = inside
        self._u, self._v = u, v
        self._gaps = {"bottom": 1 - v, "top": v, "left": u, "right": 1 - u}  # see _gap
        self._to_frame = (w / cw, h / ch)
        self._table_px = max(1, int(inside.sum()))
        self._bands = {
            "top": inside & (v < b),
            "bottom": inside & (v > 1 - b),
            "left": inside & (u < b),
            "right": inside & (u > 1 - b),
        }
        self._shape = (ch, cw)
        self._kernel = np.ones((2, 2), np.uint8)
        self._body_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        self._inside_u8 = inside.astype(np.uint8)
        self._window = cv2.createHanningWindow((cw, ch), cv2.CV_32F)
        flat = np.flatnonzero(inside.ravel())
        self._sample = flat[:: max(1, flat.size // 3000)]  # enough pixels for a median

    def _align(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """b shifted onto a: camera shake moves the whole picture, and on a striped cloth or a
        wood grain a pixel of shake lights up every edge."""
        ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)
        gb = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)
        (dx, dy), response = cv2.phaseCorrelate(gb, ga, self._window)
        if response < 0.1 or abs(dx) > 4 or abs(dy) > 4 or (abs(dx) < 0.05 and abs(dy) < 0.05):
            return b
        m = np.float32([[1, 0, dx], [0, 1, dy]])
        return cv2.warpAffine(b, m, (b.shape[1], b.shape[0]), borderMode=cv2.BORDER_REPLICATE)

    def _masks(self, a: np.ndarray, b: np.ndarray, thresholds: tuple[float, ...]) -> list[np.ndarray]:
        b = self._align(a, b)
        # Light flicker scales every pixel (bright tiles more than dark felt): match b's gain to
        # a's per channel, then subtract what is left of the median change.
        gain = self._gain(a, b)
        # (a white paper clipped at 255 in both stays 255: a gain cannot lift it past the sensor)
        scaled = np.minimum(cv2.multiply(b, (*gain, 0.0)), 255.0)
        diff = cv2.absdiff(a, scaled)
        # A channel clipped in b was at least that bright: dimmed by the gain, it may come out
        # anywhere above b's scaled value (fresh46 h1065: a lamp's hot spot clipped in red, the
        # exposure flickering 18 % down for a frame, lit up as change a sixth of the table wide,
        # and the table did not settle between two players' tiles).
        diff[(b >= CLIPPED) & (a >= scaled)] = 0.0
        level = np.median(diff.reshape(-1, 3)[self._sample], axis=0)
        c0, c1, c2 = cv2.split(cv2.subtract(diff, (*level.tolist(), 0.0)))
        over = cv2.max(cv2.max(c0, c1), c2)  # numpy's max over a 3-wide axis is slow
        out = []
        for threshold in thresholds:
            mask = ((over > threshold) & self._inside).astype(np.uint8)
            # Camera shake leaves thin outlines along tile edges: open them away.
            out.append(cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel).astype(bool))
        return out

    def _gain(self, a: np.ndarray, b: np.ndarray, skip: np.ndarray | None = None) -> list[float]:
        """Per channel, the median ratio of a to b over pixels bright enough in that channel to
        tell: an arm over the table is a minority of them. (A ratio of means is pulled by the arm:
        a pink arm over green felt raised red and blue by a quarter where the light had changed
        5 %, and lit every white tile up as change: held-out h29.)"""
        sample = self._sample
        if skip is not None:  # leave out what changed (an arm): only the table tells the light
            sample = sample[skip.ravel()[sample] == 0]
            if sample.size < _LIT_MIN:
                return [1.0, 1.0, 1.0]
        pa = a.reshape(-1, 3)[sample]
        pb = b.reshape(-1, 3)[sample]
        gain = []
        for c in range(3):
            lit = pb[:, c] >= _LIT
            if np.count_nonzero(lit) < _LIT_MIN:
                lit = slice(None)
            gain.append(float(np.median((pa[lit, c] + 1.0) / (pb[lit, c] + 1.0))))
        return gain

    def _grown(self, seeds: np.ndarray, low: np.ndarray, labels: np.ndarray, n: int):
        """Each seed blob grown over the fainter change around it (hysteresis): the labels of the
        regions of `low | seeds`, each blob's region and each region's area. A blob is connected,
        so all of it lies in one region."""
        grown = cv2.connectedComponents((low | seeds).astype(np.uint8), connectivity=8)[1]
        region_of = np.zeros(n, np.int32)
        region_of[labels] = grown
        return grown, region_of, np.bincount(grown.ravel())

    def update(self, frame: np.ndarray, t: float) -> MotionInfo:
        cfg = self.config
        small = self._prepare(frame)
        if self._prev is None:
            self._prev = small
            self._background = small.copy()
            self._settled_frame = self._background.copy()
            self._px_still = np.full(small.shape[:2], t, dtype=np.float64)
            self._change_t = np.full(small.shape[:2], np.inf)
            self._arm_came = {}
            self._still_since = t
            self._peak = 0.0
            self._arm_map = np.zeros(small.shape[:2], np.uint8)  # the last frame's arms, by edge
            self._bodied: set[str] = set()  # edges an arm's body crossed since the last settled frame
            return MotionInfo(False, False, None, 0.0, 0.0)
        grow = 0 < cfg.grow_threshold < cfg.threshold
        levels = (cfg.threshold, cfg.grow_threshold) if grow else (cfg.threshold,)
        moving_masks = self._masks(small, self._prev, levels)
        moving_mask = moving_masks[0]
        self._prev = small
        moving = float(moving_mask.sum()) / self._table_px
        changed_masks = self._masks(small, self._background, levels)  # type: ignore[arg-type]
        changed_mask = changed_masks[0]
        blobs = (changed_mask | moving_mask).astype(np.uint8)
        # When each pixel's present change began (inf: none): a tile laid before an arm came
        # changed before that arm's root did.
        self._change_t[blobs == 0] = np.inf
        self._change_t[(blobs > 0) & np.isinf(self._change_t)] = t
        changed = float(changed_mask.sum()) / self._table_px
        # The background follows the light: the pixels that join it below take this frame's
        # exposure, and those that do not (where an arm was lately) must too, or a step of the
        # camera's auto-exposure leaves the arm's outline behind as change (fresh h75: a ghost of
        # the last player's arm, rooted at their edge, took the next player's tile). The gain is
        # told by the table alone: an arm over the white tiles would pull it.
        exposure = self._gain(small, self._background,  # type: ignore[arg-type]
                              skip=changed_masks[-1] | moving_masks[-1])
        n, labels, stats, _ = cv2.connectedComponentsWithStats(blobs, connectivity=8)
        active = np.bincount(labels[moving_mask], minlength=n) > 0
        active[0] = False
        area = stats[:, cv2.CC_STAT_AREA]
        # Pixels of each blob in each edge band, all blobs at once.
        band_counts = {name: np.bincount(labels[band], minlength=n)
                       for name, band in self._bands.items()}
        # An arm: a moving blob of some size (with the fainter change around it) touching an
        # edge, or any large blob, moving or paused. A small still blob (a tile taken from a
        # hand row) is not one, nor is still faint change (a shadow).
        grown = None
        size = area
        if grow:
            grown, region_of, grown_area = self._grown(blobs > 0, changed_masks[1] | moving_masks[1], labels, n)
            region_area = grown_area[region_of]
            # A region far larger than its blob ran into other faint change: see size_cap.
            fits = region_area <= cfg.size_cap * area
            size = np.where(active & fits, np.maximum(area, region_area), area)
            tells = region_area <= cfg.region_cap * area  # a region that still tells the edge
        arm_ids = [k for k in range(1, n) if (active[k] and size[k] >= cfg.arm_frac * self._table_px)
                   or area[k] >= cfg.big_frac * self._table_px]
        edges, rooted, hands = self._blob_edges(labels, band_counts, arm_ids,
                                         None if grown is None else (grown, region_of, tells))
        for e in set(edges.values()):
            self._arm_came.setdefault(e, t)
        code_of = np.zeros(n, np.uint8)
        for k, e in edges.items():
            code_of[k] = _EDGE_CODE[e]
        self._arm_map = code_of[labels]  # the arms of this frame, by edge
        weight: dict[str, int] = {}
        for k, e in edges.items():
            weight[e] = weight.get(e, 0) + int(area[k])
        edge = max(weight, key=weight.__getitem__) if weight else None
        arm = bool(arm_ids) and (edge is not None or any(
            area[k] >= cfg.big_frac * self._table_px for k in arm_ids))
        reaches = self._reaches(labels, edges, rooted, hands) if arm else ()
        # Pixels of blobs that do not move join the background after absorb_s: a tile taken
        # from a hand row, a cup put down, a paused arm, stop counting as change.
        self._px_still[active[labels]] = t
        if grown is not None:
            # The faint rest of a moving arm (a forearm the colour of the table, its root still
            # at the edge) belongs to the arm: it must not fade into the background meanwhile.
            keep = np.zeros(grown_area.size, dtype=bool)
            keep[region_of[active & tells]] = True
            keep[0] = False
            self._px_still[keep[grown]] = t
        absorbed = (t - self._px_still) >= cfg.absorb_s
        if any(abs(g - 1.0) > EXPOSURE_STEP for g in exposure):
            cv2.multiply(self._background, (*exposure, 0.0), dst=self._background)
            np.minimum(self._background, 255.0, out=self._background)
        self._background[absorbed] = small[absorbed]  # type: ignore[index]

        if moving > cfg.moving_frac:
            self._still_since = None
        elif self._still_since is None:
            self._still_since = t
        still_for = 0.0 if self._still_since is None else t - self._still_since
        # An arm paused in fragments (pale skin on a pale stripe) leaves most of its change:
        # until the change falls well below its peak since the last settled frame, not settled.
        self._peak = max(self._peak, changed)
        lingering = self._peak > cfg.linger_floor and changed > cfg.linger * self._peak
        if moving <= cfg.moving_frac and (lingering and not arm or arm and not active[arm_ids].any()):
            # The background takes in what stays still longer than absorb_s, an arm paused over
            # the table too; once it leaves, the table it uncovers differs from the background
            # (the arm's ghost, wide enough to be taken for an arm) but not from the last settled
            # frame, as an arm still there would (fresh26 h598: a sleeve's ghost kept the 0.6 s
            # between two players from settling, and the first one's tile lost its seat; fresh27
            # h615, a striped cloth: ghosts taken for arms for 4 s, three tiles seen together).
            since = self._masks(small, self._settled_frame, (cfg.threshold,))[0]
            blobs_since = cv2.connectedComponentsWithStats(since.astype(np.uint8), connectivity=8)[2]
            if (blobs_since[1:, cv2.CC_STAT_AREA].max(initial=0) < cfg.big_frac * self._table_px
                    and float(since.sum()) / self._table_px <= cfg.linger * self._peak):
                arm = lingering = False
                reaches = ()
        settled = (still_for + 1e-6 >= cfg.settle_s and not arm and moving <= cfg.moving_frac
                   and not lingering)
        if settled:
            self._peak = 0.0
            self._bodied = set()
            self._arm_came = {}
            self._background = small.copy()
            self._settled_frame = small.copy()
        return MotionInfo(settled, arm, edge if arm else None, moving, changed, reaches)

    def _reaches(self, labels: np.ndarray, edges: dict[int, str], rooted: set[int],
                 hands: dict[int, np.ndarray]) -> tuple:
        """(edge, tip, rooted) of each arm blob that came from an edge; the tip is its point
        deepest inside (of a hand given another arm's edge, of its body: `hands`); rooted: the
        blob (or its fainter rest) touched an edge band."""
        out = []
        for k, edge in edges.items():
            ys, xs = np.nonzero(hands.get(k, self._own_part(labels == k, edge) if k in rooted else labels == k))
            i = int(np.argmax(self._gap(edge)[ys, xs]))
            sx, sy = self._to_frame
            out.append((edge, (float(xs[i] + 0.5) * sx, float(ys[i] + 0.5) * sy), k in rooted))
        return tuple(out)

    def _own_part(self, blob: np.ndarray, edge: str) -> np.ndarray:
        """The part of arm `blob` from `edge` that changed since an arm from that edge came after
        the table last settled (and joined to its root at the edge): a tile laid just before,
        still new to the background, joined to the blob by the hand laying the next one beside
        it, is not this arm (fresh46 h1065: Boris's hand by the 0-0, joined to the 0-5 Anna had
        laid 0.8 s before, the table unsettled between them, reached past both: his tip lay by
        her tile, and the two tiles went to the other's arm). A hand paused at the pile, lost to
        the gate while still, is the same arm when it moves again (fresh39 h890)."""
        came = self._arm_came.get(edge)
        root = blob & self._bands[edge]
        if came is None or not root.any():
            return blob
        # (its root may have changed a frame before the blob was big enough to be an arm)
        came = min(came, float(self._change_t[root].min()))
        own = (blob & (self._change_t >= came)).astype(np.uint8)
        # (what is left of the older change, a pixel or two flickering at the tile's border,
        # is cut off from the arm: the arm is its part joined to the root)
        n, labels = cv2.connectedComponents(own, connectivity=8)
        counts = np.bincount(labels[root], minlength=n)
        counts[0] = 0
        return labels == int(np.argmax(counts)) if n > 1 and counts.max() > 0 else blob

    def _blob_edges(self, labels: np.ndarray, band_counts: dict, ids: list[int],
                    grown: tuple | None = None) -> tuple[dict[int, str], set[int], dict[int, np.ndarray]]:
        """The edge each arm blob came from, where one can be told. A blob that touches no edge
        is taken with the fainter change around it (`grown`: the region labels, each blob's
        region, whether that region tells the edge): a forearm the colour of the table still
        leads to its edge. A region far larger than its blob has run into other change (a
        shadow, light drifting) and tells nothing. Also the blobs seen touching an edge band, and
        the bodies of the hands given another arm's edge."""
        out = {}
        rooted = set()
        strands: dict[int, np.ndarray] = {}  # blob -> its body, where only strands reach its edge
        for k in ids:
            blob = mask = labels == k
            counts = {name: int(c[k]) for name, c in band_counts.items()}
            if grown is not None and max(counts.values()) < _TOUCH and grown[2][k]:
                mask = grown[0] == grown[1][k]
                counts = self._band_counts(mask)
            edge, grazed = self._blob_edge(mask, counts)
            if edge is not None:
                out[k] = edge
                if max(counts.values()) >= _TOUCH and not grazed:
                    rooted.add(k)
                    body = self._body(mask, blob) if counts[edge] >= _TOUCH else mask
                    if self._band_counts(body)[edge] < _TOUCH:
                        strands[k] = body
        # A blob joined to its edge by strands alone, whose edge no arm's body crossed since the
        # table settled, lying beyond another seat's arm rooted with its body, is that arm's hand
        # (fresh41 h941: camera shake outlined a striped cloth's stripes in faint change, and a
        # stripe's border joined Boris's hand, his forearm over a red stripe unseen, to Vera's
        # edge; his 2-6 went to her). It is not seen at an edge. (Strands alone do root an arm
        # where no other is seen: a forearm on a wood grain shows as a thin lit strip, fresh31
        # h704.) The edges crossed by a body are kept until the table settles (`_bodied`).
        bodies = {k: e for k, e in out.items()
                  if k in rooted and k not in strands and e in self.calibration.seats}
        self._bodied |= set(bodies.values())
        hands = {}
        for k, body in strands.items():
            if out[k] in self._bodied or np.count_nonzero(body) < self.config.arm_frac * self._table_px:
                continue  # an arm's own edge, or an outline of strands only (a shaken row)
            arms = {e for j, e in bodies.items() if e != out[k] and self._beyond(body, out[k], labels == j, e)}
            if len(arms) == 1:
                out[k] = arms.pop()
                rooted.discard(k)
                hand = body & (labels == k)
                hands[k] = hand if hand.any() else body
        return out, rooted, hands

    def _gap(self, edge: str) -> np.ndarray:
        """Each work pixel's distance from `edge`, in table units."""
        return self._gaps[edge]

    def _beyond(self, body: np.ndarray, own: str, arm: np.ndarray, edge: str) -> bool:
        """Whether `body`, said to come from `own`, lies on average further from `edge` than any
        point of `arm` reaches, and further from `own` than a root lies from its edge (0.3 of
        the table, as in `_blob_edge`: fresh29 h654's hand at a pile by the left edge, joined to
        it through the pile's tiles, keeps it)."""
        gap = self._gap(edge)
        return float(gap[arm].max()) < float(gap[body].mean()) and float(self._gap(own)[body].mean()) > 0.3

    def _band_counts(self, mask: np.ndarray) -> dict[str, int]:
        return {name: int(np.count_nonzero(mask & band)) for name, band in self._bands.items()}

    def _body(self, mask: np.ndarray, blob: np.ndarray) -> np.ndarray:
        """The body of `mask` (a blob, or the fainter region it grew over): without the strands
        under five pixels wide (of 160) that join it to an edge, the piece left that holds most
        of `blob`. A mask that is strands alone is kept whole: it has no body to tell them from."""
        opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, self._body_kernel)
        n, labels = cv2.connectedComponents(opened, connectivity=8)
        if n <= 2:
            return opened.astype(bool) if n == 2 else mask
        return labels == 1 + int(np.argmax(np.bincount(labels[blob], minlength=n)[1:]))

    def _edge_before(self, mask: np.ndarray) -> str | None:
        """The edge of the last frame's arm that covered most of blob `mask`, if one covered half."""
        codes = np.bincount(self._arm_map[mask], minlength=len(_EDGES) + 1)
        code = int(codes[1:].argmax()) + 1
        return _EDGES[code - 1] if codes[code] >= 0.5 * max(1, int(mask.sum())) else None

    def _blob_edge(self, mask: np.ndarray, counts: dict[str, int]) -> tuple[str | None, bool]:
        """The edge the blob `mask` came from, and whether the edge it touches was only grazed
        (not where it came from). Touching one edge: that one, unless it only grazes it along
        its length. Touching two (an arm entering near a corner lies along the side next to its
        own): the one its length points to. Touching none (a sleeve the colour of the table, seen
        only from the elbow): the edge its length points to, if its far end lies near that edge."""
        seated = {e: n for e, n in counts.items() if e in self.calibration.seats and n >= _TOUCH}
        touched = seated or {e: n for e, n in counts.items() if n >= _TOUCH}
        before = self._edge_before(mask)
        if before is not None and touched and (set(touched) <= {before, _OPPOSITE[before]}
                                               or before in self.calibration.seats and not seated):
            # The same arm as on the last frame, now across the table (to a pile at the far
            # side) touching the far edge too, or only that one, its root out of sight; or its
            # root faded into the table (a dark sleeve over a dark cloth), its hand touching only
            # edges where nobody sits (fresh46 h1073, two players: Boris's hand at a pile by the
            # right edge, his sleeve unseen at the top, told as three arms, three draws): it still
            # came from where it came from. (A blob touching no edge is not carried over: a ghost
            # of a paused arm joined to it would carry a wrong side along.)
            return before, False
        ys, xs = np.nonzero(mask)
        if len(touched) == 1 and (len(xs) < 8 or next(iter(touched.values())) >= GRAZE * len(xs)):
            return next(iter(touched)), False
        if len(xs) < 8:
            return (max(touched, key=touched.__getitem__) if touched else None), False
        uv = np.stack([self._u[ys, xs], self._v[ys, xs]], axis=1).astype(np.float64)
        centre = uv.mean(axis=0)
        values, vectors = np.linalg.eigh(np.cov((uv - centre).T))
        axis = vectors[:, 1]
        elongation = float(np.sqrt(max(values[1], 1e-12) / max(values[0], 1e-12)))
        if len(touched) == 1:
            # A long blob whose side just grazes one edge band, its length along that edge: an
            # arm from another edge, its root out of sight, passing by this one (fresh32 h730, a
            # sleeve the colour of the shaded cloth: Vera's forearm from the top, lit, brushed
            # Gleb's edge band with 4-12 of its 2000 pixels and her 0-2 went to him).
            (only,) = touched
            if elongation < 2.0 or abs(axis[0] * _NORMALS[only][0] + axis[1] * _NORMALS[only][1]) >= 0.5:
                return only, False
            return self._root_past(uv, centre, axis, only, before)
        if touched:
            if elongation < 1.8:
                return max(touched, key=touched.__getitem__), False
            # Opposite edges lie along the length alike (an arm across the whole table to a pile
            # at the far side, fresh deal h112): its root crosses its edge wide, a hand only
            # touches the far one (78 pixels of the band against 13).
            return max(touched, key=lambda e: (round(abs(axis[0] * _NORMALS[e][0] + axis[1] * _NORMALS[e][1]), 6),
                                               touched[e])), False
        along = (uv - centre) @ axis
        if elongation < 3.0 or float(along.max() - along.min()) < 0.15:
            return None, False
        ends = [uv[int(np.argmax(along))], uv[int(np.argmin(along))]]

        def gap(p) -> tuple[float, str]:  # the nearest edge of point p
            return min((p[0], "left"), (1 - p[0], "right"), (p[1], "top"), (1 - p[1], "bottom"))

        def root_edge(root) -> str | None:
            distance, edge = gap(root)
            direction = root - centre
            pointing = direction[0] * _NORMALS[edge][0] + direction[1] * _NORMALS[edge][1]
            if distance > 0.3 or pointing <= 0 or edge not in self.calibration.seats:
                return None
            return edge

        # Either end may lie near an edge (an arm reaching across to the far side): the one the
        # same arm came from on the last frame is its root (held-out h19: a west arm laying a tile
        # by the east row was told as east's once its hand came nearer that edge than its elbow).
        roots = [root_edge(p) for p in sorted(ends, key=lambda p: gap(p)[0])]
        if before is not None and before in roots:
            return before, False
        return roots[0], False

    def _root_past(self, uv: np.ndarray, centre: np.ndarray, axis: np.ndarray, grazed: str,
                   before: str | None) -> tuple[str, bool]:
        """The edge a long blob that grazes `grazed` along its length came from: of the edges
        its two ends point to, a seat's within 0.3 of the table (the same as on the last frame
        first, else the nearer); none: the grazed edge after all."""
        along = (uv - centre) @ axis
        options = []
        for p in (uv[int(np.argmax(along))], uv[int(np.argmin(along))]):
            d = p - centre
            edge = max(_NORMALS, key=lambda e: d[0] * _NORMALS[e][0] + d[1] * _NORMALS[e][1])
            gap = {"left": p[0], "right": 1 - p[0], "top": p[1], "bottom": 1 - p[1]}[edge]
            if edge != grazed and edge in self.calibration.seats and gap <= 0.3:
                options.append((float(gap), edge))
        if before is not None and any(e == before for _, e in options):
            return before, True
        return (min(options)[1], True) if options else (grazed, False)
