"""Arms over the table, from the motion gate's reports: which edge each came from, how deep it
reached, and which arm laid which new tile.

A tile is given to the arm whose tip (the point it reached deepest) came nearest to where the
tile lies, among the arms since the previous settled frame; when several tiles appear together
(players quick after one another) the arms are matched in the order the chain allows.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from vision.live.calibration import TableCalibration
from vision.live.motion import MotionInfo

WHOLE = 3  # frames an arm must be seen on to be more than a glimpse (light, shadow, a fragment)
SCATTERED = 3  # blobs from one edge on one frame: change scattered by light, not one arm
REACH_OF_HALF_SPAN = 0.6  # a candidate's reach is this share of its tile's half span (the tracker's)
UNREAD_NEAR = 2.0  # tile lengths: an arm's hand this near a box not read may have laid it
FOLLOWED = 5  # frames an arm's hand was followed on: enough to tell where it went
AWAY = 3.0  # half tile lengths: a hand never this near a tile did not lay it


@dataclass(frozen=True)
class Reach:
    """One arm from an edge: when it came and went, and the point it reached deepest."""

    start: float
    end: float
    edge: str
    tip: tuple[float, float]
    deep: bool = True  # seen on WHOLE frames and past the hand rows (min_reach): could lay a tile
    frames: int = WHOLE  # frames it was seen on
    rooted: bool = True  # seen at its edge on some frame (else its side was told by its direction)
    # its hand frame by frame, (t, x, y): several tiles laid in one visit were laid in the order
    # the hand came to them
    path: tuple[tuple[float, float, float], ...] = ()
    scattered: int = 0  # frames on which its edge showed SCATTERED pieces or more: light, not a hand

    @property
    def hand_frames(self) -> int:
        """The frames it was seen on as a hand, not as change scattered by light."""
        return self.frames - self.scattered


def _nearest(r: Reach, p) -> float:
    """How near the hand of `r` came to `p` on its way (pixels)."""
    return min(_dist(q, p) for q in (r.tip, *(x[1:] for x in r.path)))


def follows(r: Reach, arms: Iterable[Reach]) -> bool:
    """Whether `r` came from the edge of one of `arms`, after it came and at most a second after
    it was lost: that arm's hand seen again."""
    return any(x.edge == r.edge and x is not r and x.start <= r.start and r.start - x.end <= 1.0 for x in arms)


def _dist(p, q) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


class Arms:
    """Feed every frame to `observe`; `settled(t)` on each settled frame; `assign` new tiles.

    `config` needs `reach_gap_s`, `min_reach`, `reach_window_s` and `arm_window_s`
    (TrackerConfig has them). Tiles passed to `assign` need `centre`, `reach`, `to_votes` and
    `name`; it sets their `edge`, `arm_t` and `rooted`.
    """

    def __init__(self, config, calibration: TableCalibration) -> None:
        self.config = config
        self.calibration = calibration
        self._episode: Counter[str] = Counter()
        self._episodes: list[tuple[float, str]] = []  # (t the arms left, edge)
        # edge -> (start, its tips frame by frame as (t, x, y), last seen, seen at the edge on some
        # frame, frames it was seen in SCATTERED pieces or more)
        self._reaching: dict[str, tuple[float, list[tuple[float, float, float]], float, bool, int]] = {}
        self._reaches: list[Reach] = []
        self._settled_t = self._prev_settled_t = -math.inf
        self._used: set[Reach] = set()  # arms already given a tile
        self._laid: deque[Reach] = deque(maxlen=16)  # the latest arms given a tile by `assign`
        self._spent: set[float] = set()  # ends of the episodes whose arms laid a tile that is a move
        self._claimed: dict[float, float] = {}  # episode end -> settled frame a tile first took it on
        self._reads: list[tuple[float, bool]] = []  # fresh readings: (t, a new tile appeared)
        self._undrawn: set[tuple[str, float]] = set()  # (edge, start) of arms told draws that were none
        self.one_per_arm = False  # one tile a turn (BYK-1.6): an arm visit lays one tile

    def observe(self, t: float, motion: MotionInfo) -> None:
        if motion.arm and motion.edge:
            self._episode[motion.edge] += 1
        self._follow(t, motion)

    def settled(self, t: float) -> None:
        if self._episode:
            self._episodes.append((t, self._episode.most_common(1)[0][0]))
            self._episodes = self._episodes[-16:]
            self._episode = Counter()
        self._prev_settled_t, self._settled_t = self._settled_t, t

    def note_read(self, t: float, laid: bool) -> None:
        """A fresh reading of a settled frame, and whether a new tile appeared on it."""
        self._reads.append((t, laid))
        self._reads = self._reads[-64:]

    def silent(self, end: float, over_s: float | None = None) -> bool:
        """Whether an arm gone at `end` laid nothing: two fresh readings after it, over stable_s
        (or `over_s`) or more, saw no new tile (a spectator's hand, a player who changed their
        mind). A tile unread on its first frame, seen a frame late, still has its arm."""
        quiet = []
        for ts, laid in self._reads:
            if ts < end:
                continue
            if laid:
                break
            quiet.append(ts)
        over_s = getattr(self.config, "stable_s", 0.5) if over_s is None else over_s
        return len(quiet) >= 2 and quiet[-1] - end >= over_s

    def _follow(self, t: float, motion: MotionInfo) -> None:
        """Follow each arm from its edge: where it reached deepest, until it is gone (a gap of
        a frame or two, a blob lost for a moment, does not split one arm in two)."""
        now: dict[str, tuple[float, float]] = {}
        rooted: set[str] = set()
        pieces = Counter(edge for edge, _, _ in motion.reaches)
        for edge, tip, at_edge in motion.reaches:  # the deepest blob per edge
            if edge not in now or self.depth(edge, tip) > self.depth(edge, now[edge]):
                now[edge] = tip
            if at_edge:
                rooted.add(edge)
        if len(rooted) == 1:
            # One arm seen at its edge, and pieces seen at no edge told from elsewhere by the way
            # they point: its hand, apart from a forearm lost against the cloth (live-eval s44: a
            # hand at the pile told from the near side while its arm came from the far one).
            (home,) = rooted
            for edge in [e for e in now if e not in rooted]:
                tip = now.pop(edge)
                if self.depth(home, tip) > self.depth(home, now[home]):
                    now[home] = tip
        for edge, (start, path, last, was_rooted, scattered) in list(self._reaching.items()):
            if edge not in now and (motion.settled or t - last > self.config.reach_gap_s):
                # The second deepest of its tips: one glitchy frame does not move the hand.
                ranked = sorted(path, key=lambda p, e=edge: self.depth(e, p[1:]), reverse=True)
                tip = (ranked[1] if len(ranked) > 1 else ranked[0])[1:]
                # A blob at an edge for a frame or two is light or shadow, not an arm that laid a
                # tile; nor is one that never gets past the hand rows; nor change scattered in
                # SCATTERED pieces or more on every frame (light the gain did not match, fresh
                # live deal h73: three blobs by Vera's row on each of four frames passed for her
                # arm and took Boris's tile). All are kept for the boneyard: a hand reaching a
                # pile in a corner is often seen only in pieces (still while it picks a tile up),
                # and only there does it count.
                deep = (len(path) >= WHOLE and self.depth(edge, tip) >= self.config.min_reach
                        and scattered < len(path))
                self._reaches.append(Reach(start, last, edge, tip, deep, len(path), was_rooted, tuple(path), scattered))
                del self._reaching[edge]
        for edge, tip in now.items():
            point = (t, float(tip[0]), float(tip[1]))
            start, path, _, was_rooted, scattered = self._reaching.get(edge, (t, [], t, False, 0))
            path.append(point)
            self._reaching[edge] = (start, path, t, was_rooted or edge in rooted,
                                    scattered + (pieces[edge] >= SCATTERED))
        self._reaches = self._reaches[-32:]

    def over(self, p, width: float, t: float, within_s: float = 2.0) -> bool:
        """Whether the arms of the latest stretch may still lie over `p` at `t`: an arm that stops
        (a hand picking a tile from the boneyard) fades into the motion gate's background and is
        no longer seen, yet hides what is under it. An arm is taken as the band `width` pixels
        either side of the line from its tip straight back to its edge, for `within_s` after it
        was last seen."""
        # A hand fades only once it has held still for the gate's absorb_s, seen all that while:
        # a glimpse of a frame or two is no hand that stopped (held-out h17: a pile place taken
        # was kept hidden for two seconds by one, and its draw written after the next play).
        reaches = [r for r in self._reaches if r.frames >= WHOLE]
        if not reaches:
            return False
        last = max(r.end for r in reaches)
        if t - last > within_s:
            return False
        pu = self.calibration.to_unit(p)
        qu = self.calibration.to_unit((p[0] + width, p[1]))
        reach = math.hypot(qu[0] - pu[0], qu[1] - pu[1])  # `width` in table units
        for r in reaches:
            if r.end < last - self.config.reach_gap_s:
                continue
            tu, tv = self.calibration.to_unit(r.tip)
            across = tu - pu[0] if r.edge in ("bottom", "top") else tv - pu[1]
            if abs(across) <= reach and self.depth(r.edge, p) <= self.depth(r.edge, r.tip) + reach:
                return True
        return False

    def hand_over(self, r: Reach, p, back: float, side: float) -> bool:
        """Whether point `p` lies under the hand of reach `r`: within `side` pixels either side of
        its line back to its edge, and at most `back` pixels behind its tip. A hand taking a tile
        from the far row of a pile reaches past it, its fingers beyond the tile."""
        pu = self.calibration.to_unit(p)
        tu = self.calibration.to_unit(r.tip)
        qu = self.calibration.to_unit((r.tip[0] + 1.0, r.tip[1]))
        qv = self.calibration.to_unit((r.tip[0], r.tip[1] + 1.0))
        per_px = 0.5 * (math.hypot(qu[0] - tu[0], qu[1] - tu[1]) + math.hypot(qv[0] - tu[0], qv[1] - tu[1]))
        across = tu[0] - pu[0] if r.edge in ("bottom", "top") else tu[1] - pu[1]
        behind = self.depth(r.edge, r.tip) - self.depth(r.edge, p)
        return abs(across) <= side * per_px and 0.0 <= behind <= back * per_px

    def depth(self, edge: str, p) -> float:
        """How far into the table a point lies from an edge (0 at the edge, 1 at the far one)."""
        u, v = self.calibration.to_unit(p)
        return {"bottom": 1 - v, "top": v, "left": u, "right": 1 - u}[edge]

    def assign(self, t: float, new: list) -> None:
        """Give the tiles that appeared on this frame the arms that laid them.

        The arms are those seen since the previous settled frame (several when players followed
        each other without a pause). A tile laid against another new tile came after it, so the
        arms go in their order; among the orders allowed, the one whose arm tips lie nearest the
        tiles wins.
        """
        # Arms since the previous settled frame, and older ones no tile was given yet (a tile
        # unread on its first settled frame appears one frame late); older ones cost extra.
        reaches = [r for r in self._reaches
                   if r.deep and self._in_window(r, t)
                   and (r.end > self._prev_settled_t or r not in self._used)
                   and not self.silent(r.end)]
        pieces = self._pieces(t)
        if pieces and reaches and all(r.end <= self._prev_settled_t
                                      and (self._outlived(r) or self.silent(r.end, over_s=0.0))
                                      for r in reaches):
            # Only older arms, each outlived or followed by two readings with no new tile, and
            # pieces of an arm since: the pieces laid it (fresh17 h361: a spectator's hand from
            # the right laid nothing; Boris's arm after it laid 1-6, given on the next settled
            # frame; then Vera's tile, her sleeve seen only in pieces, went to the spectator's
            # arm, its tip nearest; fresh32 h733: a spectator's hand, two readings in 0.4 s after
            # it, then Boris's arm seen in pieces: his 1-5 went to the spectator's side).
            reaches = []
        # A box not read is given only an arm whose hand came near it: one far from every hand is
        # more likely a box of nothing (a joint, a back), and the arm that reached elsewhere, the
        # pile, drew (fresh deal h179, JPEG at quality 40: a box between layout tiles took the
        # arm of two draws, six tile lengths from where its hand went).
        new = [c for c in new if c.name is not None or not reaches
               or any(self._hand_came_near(r, c) for r in reaches)]
        if not new:
            return
        # (with no arm seen whole and one tile, the stretch's edge it already has stands; a box
        # not read yet, perhaps no tile at all, is no evidence of another arm)
        named = sum(c.name is not None for c in new)
        if self.one_per_arm and len(reaches) < named and (reaches or named > 1):
            # One arm visit lays one tile (BYK-1.6): more tiles than arms seen whole, so others
            # came in arms seen only in pieces (a sleeve the colour of the cloth; the gate may even
            # have settled while one was over the table: a glimpse may be followed by still
            # frames). Their glimpses, unused, name their edges, one per edge not already there.
            # Of an edge's glimpses since the previous settled frame, its first: the arm came then
            # (fresh15 h313: Gleb's sleeve seen in pieces from 25.5 s and once more at 27.0 s,
            # Anna's once at 26.6 s; dated by its last piece, Gleb's arm came second and took
            # Anna's 2-6, she his 1-2). An edge seen only before it: its latest piece (the first
            # may be of the seat's earlier visit: classic deal s44).
            glimpses: dict[str, Reach] = {}
            for r in self._glimpses(t, reaches):  # latest first
                if r.edge not in glimpses or r.start > self._prev_settled_t:
                    glimpses[r.edge] = r
            reaches = reaches + list(glimpses.values())
            # More tiles than arms: an arm after which two readings saw no new tile, whose hand
            # came to one of them, laid it after all: those readings could not box it (fresh42
            # h979, groove: Gleb's 3-6 in a tight spiral, boxed with Anna's 6-6 two readings on).
            reaches = reaches + self._silent_near(t, new, reaches)
        elif reaches and 1 < named > len(reaches):
            # Where one arm may lay several tiles (BLZ-3, BAL-13), a tile no arm seen whole came
            # over, with another seat's glimpse over it, is that seat's (fresh deal h262: south's
            # sleeve the colour of the cloth seen on two frames by its tile; west's arm, crossing
            # the table to lay its own at the far end, was given both).
            for c in new:
                if c.name is None or any(self.passed_over(r, c) for r in reaches):
                    continue
                glimpse = next((r for r in self._glimpses(t, reaches) if self.passed_over(r, c)), None)
                if glimpse is not None:
                    reaches = [*reaches, glimpse]
        if not reaches and len(new) == 1:
            # No arm seen whole, one tile: the edge whose pieces were seen on most frames since
            # the last settled frame; of edges seen as often, the one whose piece came nearest the
            # tile (held-out h28: a sleeve the colour of the cloth seen once at the far side, once
            # at the next seat's row; its tile lay by the first).
            if pieces:
                frames = Counter()
                for r in pieces:
                    frames[r.edge] += r.frames
                r = max(pieces, key=lambda r: (frames[r.edge], -_dist(r.tip, new[0].centre)))
                self.give(r, new[0])
                return
            # An arm told a draw that could not be one (the boneyard drawn out), its hand near
            # this tile, read only readings later: it laid it (fresh45 h1037, no divider: Boris's
            # last tile, unboxed until 1.3 s after his arm left, given to Anna by her row's count
            # while she was laying her hand out for the recount).
            undrawn = [r for r in self._reaches if (r.edge, r.start) in self._undrawn and self._in_window(r, t)
                       and self._hand_came_near(r, new[0])]
            if new[0].name is not None and undrawn:
                self.give(max(undrawn, key=lambda r: r.end), new[0])
            return
        if not reaches:
            return
        late = 3.0 * sorted(c.reach for c in new)[len(new) // 2]

        # One tile, and an arm since the last settled frame whose hand passed over it: an older
        # arm's claim to it is void, its tile would have to have been missed on that frame (fresh
        # deal h253: a spectator's hand hovered where west's tile came two arms later; west's hand,
        # reaching past it, lost to it by 3 px and the late cost). With several tiles a hand
        # laying its own passes over the one beside it (h86: an older glimpse's tile).
        over = set() if len(new) > 1 else {id(c) for c in new if any(
            r.end > self._prev_settled_t and self.passed_over(r, c) for r in reaches)}
        # One tile, and an arm from its edge since the last settled frame: an older arm after
        # which two fresh readings saw no new tile laid nothing either (fresh39 h903, faint
        # divider: a spectator's hand from the right hovered near where Boris's 0-3 came two
        # readings later; Boris's hand, lost against the wood, was seen 100 px short of it).
        arm_since = len(new) == 1 and any(r.end > self._prev_settled_t and r.rooted for r in reaches)

        def cost_of(r: Reach, c) -> float:
            if r.end <= self._prev_settled_t:
                if id(c) in over or (arm_since and self.silent(r.end, over_s=0.0)):
                    return math.inf
                return _dist(r.tip, c.centre) + late
            return _dist(r.tip, c.centre)

        names = {c.name: c for c in new if c.name is not None}

        def ancestors(c) -> set[int]:
            """The new tiles this one was laid against, directly or through others."""
            out: set[int] = set()
            todo = [c]
            while todo:
                x = todo.pop()
                for n in x.to_votes:
                    p = names.get(n)
                    if p is not None and p is not c and id(p) not in out:
                        out.add(id(p))
                        todo.append(p)
            return out

        order = list(new)
        before = [[id(x) in ancestors(c) for x in order] for c in order]  # [j][i]: i before j
        k = len(order)
        for i in range(k):  # two tiles each laid against the other: no order between them
            for j in range(k):
                if before[i][j] and before[j][i]:
                    before[i][j] = before[j][i] = False
        # Each tile to the arm whose hand came nearest it on its way, not whose tip: an arm that
        # laid two tiles reached deepest by one of them only (fresh30 h676, blitz: Vera's hand
        # laid 0-2 then 5-6, its tip by the 5-6; Gleb's, laying 2-3 beyond the 0-2, lay nearer
        # the 0-2 than that tip, and a blob by Anna's row took his tip away).
        def near_cost(r: Reach, c) -> float:
            return cost_of(r, c) - _dist(r.tip, c.centre) + _nearest(r, c.centre)

        # A box not read is no tile an arm must have laid: with more boxes than arms, the arms
        # go to the tiles read, each box to the hand that came nearest it (fresh26 h579: Gleb's
        # 2-2 and Anna's 1-2 seen together with an unread box by them, three boxes for two arms;
        # all three went to Gleb's, one arm laying several).
        paired = range(k) if len(reaches) >= k else [i for i in range(k) if order[i].name is not None]
        best, best_cost = None, math.inf
        if 0 < len(paired) <= len(reaches):
            for combo in itertools.permutations(reaches, len(paired)):
                if any(before[paired[b]][paired[a]] and combo[a].start > combo[b].start
                       for a in range(len(paired)) for b in range(len(paired))):
                    continue
                cost = sum(cost_of(r, order[i]) for r, i in zip(combo, paired, strict=True))
                if cost < best_cost:
                    best, best_cost = combo, cost
        if best is not None and len(paired) < k:
            given = dict(zip(paired, best, strict=True))
            best = tuple(given[i] if i in given else min(reaches, key=lambda r, c=c: near_cost(r, c))
                         for i, c in enumerate(order))
        if best is None:  # fewer arms than tiles: one arm laid several (BAL-13, BLZ-3)
            best = tuple(min(reaches, key=lambda r, c=c: near_cost(r, c)) for c in order)
        for c, r in zip(order, best, strict=True):
            nearest = _nearest(r, c.centre)
            if (len(r.path) >= FOLLOWED and nearest > AWAY * c.reach / REACH_OF_HALF_SPAN
                    and (len(reaches) < len(order) or any(
                        _nearest(g, c.centre) < nearest for g in self._glimpses(t, reaches)))):
                # This arm's hand, followed all the way, never came near this tile, and there
                # were more tiles than arms or another seat's arm was glimpsed nearer: an arm not
                # seen laid it (fresh deal h262, fewer arms than tiles: south's sleeve the colour
                # of the cloth; west, laying at the chain's far end, was given both; fresh25 h573:
                # Boris's arm seen only at his edge, Anna's hand then went to the pile, eight
                # tile lengths from his 1-4, and was given it). No arm then: the rows, else turn
                # order, tell whose it is; written before the arm's (its player was to move
                # before the arm's, or the arm's seat would have been seen laying it too).
                c.edge, c.rooted, c.arm_t = None, False, r.start - 1e-3
                continue
            self.give(r, c)
            # One arm alone and several tiles: it laid them in the order its hand came to them
            # (fresh live deal h55: 2-6 then 0-3 at the chain's two ends, written the other way).
            # With other arms about, a tile may be an unseen arm's, and its order the rows'
            # (held-out h22: three tiles, two arms seen, three seats).
            if len(reaches) == 1 and r.path:
                c.laid_t = self._came_to(r, c.centre, c.reach / REACH_OF_HALF_SPAN)
            # The arm is spent, and so are its pieces if it was seen as two (lost mid-reach).
            self._used.update(x for x in self._reaches if x.edge == r.edge
                              and x.start <= r.end + 1.0 and r.start <= x.end + 1.0)

    def _silent_near(self, t: float, new: list, reaches: list[Reach]) -> list[Reach]:
        """The silent arms, one an edge not in `reaches`, whose hand came to a named tile of
        `new`."""
        out: list[Reach] = []
        for r in self._reaches:
            if (r.deep and self._in_window(r, t) and r not in self._used
                    and self.silent(r.end) and r.edge not in {q.edge for q in reaches + out}
                    and any(c.name is not None and self._hand_came_near(r, c) for c in new)):
                out.append(r)
        return out

    def _in_window(self, r: Reach, t: float) -> bool:
        """Whether arm `r` left within reach_window_s before `t`."""
        return t - self.config.reach_window_s <= r.end <= t

    def _hand_came_near(self, r: Reach, c) -> bool:
        """Whether the hand of `r` came near candidate tile `c` (within its reach)."""
        return self._came_near(r, c.centre, c.reach / REACH_OF_HALF_SPAN)

    def _outlived(self, r: Reach) -> bool:
        """An arm after which another came and was given its tile or draw before the previous
        settled frame: a tile of the first would most likely have been seen by then."""
        return any(u.deep and u.start > r.end and u.end <= self._prev_settled_t for u in self._used)

    def _pieces(self, t: float) -> list[Reach]:
        """Pieces of arms from seats since the previous settled frame, given nothing yet."""
        return [r for r in self._reaches
                if not r.deep and self._prev_settled_t < r.end <= t and r not in self._used
                and not self._tail(r) and r.edge in self.calibration.seats]

    def _glimpses(self, t: float, reaches: list[Reach]) -> Iterator[Reach]:
        """The arms seen only in glimpses lately, latest first, no tile given yet, from seats
        none of `reaches` came from."""
        for r in reversed(self._reaches):
            if (not r.deep and self._in_window(r, t) and r not in self._used
                    and not self._tail(r) and r.edge in self.calibration.seats
                    and not any(x.edge == r.edge for x in reaches)):
                yield r

    @staticmethod
    def came_within(r: Reach, p, within: float) -> bool:
        """Whether the hand of `r` came within `within` pixels of `p` on its way."""
        return _nearest(r, p) <= within

    @classmethod
    def _came_near(cls, r: Reach, p, half_length: float) -> bool:
        """Whether the hand of `r` came within UNREAD_NEAR tile lengths of `p`."""
        return cls.came_within(r, p, UNREAD_NEAR * 2 * half_length)

    @staticmethod
    def _came_to(r: Reach, p, half_length: float) -> float:
        """When the hand of `r` first came to `p`: within a half tile of its nearest approach (a
        hand withdrawing over a tile it laid first may pass nearer to it than it was laid)."""
        nearest = min(_dist(q[1:], p) for q in r.path)
        return next(q[0] for q in r.path if _dist(q[1:], p) <= nearest + half_length)

    def _tail(self, r: Reach) -> bool:
        """Whether glimpse `r` is the end of an arm already given a tile (seen again as it
        withdrew, after a still frame): one from the same edge gone at most a second before."""
        return follows(r, (x for x in self._reaches if x in self._used))

    def went_elsewhere(self, c) -> Reach | None:
        """The glimpse given candidate `c` where it was the first piece of an arm whose later piece
        was given another tile, and whose hand, in either piece, never came near `c` (fresh35
        h812, no divider: Vera's 0-4 was boxed first on the frame after Gleb's hand showed at his
        edge; it took that glimpse, and Gleb's hand then went on to lay 3-3 at the far end). That
        arm did not lay `c`: an arm not seen did."""
        first = self.given(c.edge, c.arm_t)
        if first is None or first.frames >= WHOLE:
            return None
        later = [r for r in self._laid if r is not first and r.edge == first.edge
                 and 0.0 <= r.start - first.end <= 1.0]
        away = AWAY * c.reach / REACH_OF_HALF_SPAN
        if later and all(_nearest(r, c.centre) > away for r in (first, *later)):
            return first
        return None

    def withdrawing(self, r: Reach) -> bool:
        """Whether glimpse `r` is the hand of an arm that laid a tile going out of view: from
        the same edge, come at most a second after that arm was lost (fresh27 h616, dark: Boris's
        hand seen on two frames at the border beside the pile, 0.3 s after he laid 2-5, and told a
        draw he never made). Nobody draws right after laying a tile: the turn has passed on."""
        return r.frames < WHOLE and follows(r, (x for x in self._laid if x.end <= r.start))

    def beside_laying(self, r: Reach) -> bool:
        """Whether `r`, from an edge where nobody sits and never deep, was seen only while an arm
        from another edge was over the table laying a tile: that arm's shake or shadow, not a
        hand (fresh44 h1010, pin, two players, the camera turned: the boneyard's outlines by the
        left edge lit by a shake as Boris withdrew from laying 0-3, told a draw nobody made)."""
        return (not r.deep and r.edge not in self.calibration.seats
                and any(x.edge != r.edge and x.start <= r.start and r.end <= x.end for x in self._laid))

    def came_since(self, p, since: float, within: float) -> bool:
        """Whether the hand of an arm that could lay a tile, gone after `since`, came within
        `within` pixels of `p`."""
        return any(r.end > since and r.deep and self.came_within(r, p, within) for r in self._reaches)

    def passed_over(self, r: Reach, c) -> bool:
        """Whether the hand of `r` came over the tile of candidate `c` (within its half span)."""
        return self.came_within(r, c.centre, c.reach / REACH_OF_HALF_SPAN)

    def give(self, r: Reach, c) -> None:
        """Give candidate `c` arm `r`: it laid that tile (`assign`'s choice, or one the draw watch
        had taken for a draw)."""
        c.edge, c.arm_t, c.rooted = r.edge, r.start, r.rooted
        self._used.add(r)
        self._laid.append(r)
        self._undrawn.discard((r.edge, r.start))

    def laid_from(self, p, since: float, until: float, near: float) -> Reach | None:
        """An arm gone between two settled frames that laid a tile and whose hand passed within
        `near` pixels of `p` on its way: the tile it laid may have lain there."""
        return next((r for r in self._laid if since < r.end <= until and self.came_within(r, p, near)), None)

    def unused_since(self, t0: float, t: float) -> list[Reach]:
        """Arms gone between two settled frames that no tile was given, in order."""
        return sorted((r for r in self._reaches if t0 < r.end <= t and r not in self._used),
                      key=lambda r: r.start)

    def laid_between(self, t0: float, t: float) -> list[Reach]:
        """Arms gone between `t0` and `t` that could have laid a tile (deep), in the order they came."""
        return sorted((r for r in self._reaches if t0 < r.end <= t and r.deep), key=lambda r: r.start)

    def given(self, edge: str | None, start: float) -> Reach | None:
        """The arm `assign` gave a tile (its edge and when it came), while it is kept."""
        return next((r for r in self._reaches if r.edge == edge and r.start == start and r in self._used), None)

    def spend(self, reach: Reach) -> None:
        self._used.add(reach)

    def undrawn(self, edge: str | None, start: float) -> None:
        """The arm from `edge` that came at `start`, told a draw, took no tile: the boneyard
        was drawn out. A tile read later that its hand came near is its."""
        if edge is not None:
            self._undrawn.add((edge, start))

    @property
    def previous_settled(self) -> float:
        return self._prev_settled_t

    def took_from(self, places: list, since: float, until: float) -> list[Reach | None]:
        """The arms that took tiles from `places` (the boneyard) between two settled frames:
        each place gets the arm whose tip came nearest to it, among those no tile was given,
        one arm per place while there are enough. Only a hand from an edge where a player sits
        draws: not change scattered by light, nor an arm from an empty side (the test deal s44
        framed: an exposure flicker lit the cloth's stripes along the left edge, where nobody
        sits, and a row tile played later was written as a draw by that 'arm')."""
        pool = [r for r in self._reaches if since < r.end <= until and r not in self._used
                and r.hand_frames > 0 and r.edge in self.calibration.seats]
        out: list[Reach | None] = [None] * len(places)
        pairs = sorted((_dist(r.tip, p), k, i) for k, p in enumerate(places) if p is not None
                       for i, r in enumerate(pool))
        taken: set[int] = set()
        for _, k, i in pairs:
            if out[k] is None and i not in taken:
                out[k] = pool[i]
                taken.add(i)
        self._used.update(r for r in out if r is not None)
        return out

    def episode(self, t: float) -> tuple[float, str] | None:
        """(when it ended, the edge most touched) of the latest unsettled stretch of arms within
        arm_window_s before `t` whose arm has not already laid a move (no reaches needed), for a
        tile that appeared on the settled frame at `t`; the tile claims it.

        A stretch a tile took on an earlier settled frame than the one before is not given again:
        a tile appearing later with no arm in between was laid by an arm not seen (another
        player's; turn order tells), while a tile unread on its first frame, which appears one
        frame late, still shares its arm."""
        for t_end, edge in reversed(self._episodes):
            if t - self.config.arm_window_s <= t_end <= t and t_end not in self._spent:
                if self.silent(t_end):
                    return None  # it laid nothing; a later tile is an unseen arm's
                if self._claimed.setdefault(t_end, t) < self._prev_settled_t:
                    return None
                return t_end, edge
        return None

    def spend_episode(self, t_end: float) -> None:
        """The arms of that stretch laid a tile that is now a move: a tile seen later is another's."""
        self._spent.add(t_end)
        self._spent = {x for x in self._spent if x >= self._episodes[0][0]} if self._episodes else set()
        self._claimed = {x: c for x, c in self._claimed.items() if x >= self._episodes[0][0]} if self._episodes else {}

