"""Draws from the boneyard: an arm that reached it and laid no tile took one (seen at once, even
where the pile is half out of the picture); tiles gone from the pile beyond those are drawn too,
each given the arm that reached nearest to where it lay. Who drew is settled when it is written
(the tracker's job: the seat of the arm, else turn order)."""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from vision.live.arms import WHOLE, Arms, Reach, follows
from vision.live.boneyard import HOLDS, Boneyard, Drawn, still_there
from vision.live.calibration import TableCalibration
from vision.live.observation import Observation

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Draw:
    """A tile gone from the boneyard, not yet written: who took it is settled when it is."""

    first_t: float  # the first settled frame without it
    arm_t: float  # when the arm that took it came (inf: no arm seen)
    edge: str | None  # where that arm came from
    player: str | None = None  # who, where the rows told (a row holding a tile more)
    # no arm seen: the last settled frame that still showed its tile (it went after that)
    after_t: float = -math.inf


AT_EARLY_S = 0.5  # an arm's draw told this much before its place's tile was last seen
ROW_SLACK_S = 0.5  # a row grown this soon after a draw seen is that draw's tile
HANDOVER_S = 0.25  # one edge's reach ending and another's starting this close: one hand
GLIMPSE_NEAR = 1.5  # tile lengths: a glimpse at the pile this near the last visit's is that hand
HIDDEN_S = 3.0  # a place unseen this long before it was found gone may be any arm's draw since
UNSURE_S = 2.0  # a place emptied with no witness stays empty this long before it is a draw
LEFT_PILE = 2.0  # tile lengths: a hand last seen this far from where it reached had left it
LAID_FROM = 2.0  # tile lengths: a place this near the path of a hand that laid a tile may have held it
DWELL = 0.5  # tile lengths: a hand seen twice this near one place of the pile stayed there
TOOK_NEAR = 4.0  # tile lengths: a glimpse of a hand never this near a place of the pile took nothing from it
DEEPER = 0.05  # of the table: a hand this much deeper in between went on past the pile
LATE_TILE_S = 1.0  # a tile first seen this soon after an arm left may have been laid by it
TWO_DRAWS_S = 1.5  # an arm over the pile this long may have taken two tiles (one takes about a second)


def one_per_hand(reaches: list[Reach], near: float) -> list[Reach]:
    """One hand seen from two edges at once (an arm along the side of the table into a corner
    touches both), or from one and then the other on the next frame: of reaches at the same
    time ending at the same place, the longest. (Two players cannot take turns at one place
    of the pile within a frame or two: one arm must leave before the other comes.)"""
    out: list[Reach] = []
    for r in sorted(reaches, key=lambda r: -r.frames):
        if not any(r.start <= o.end + HANDOVER_S and o.start <= r.end + HANDOVER_S
                   and math.dist(r.tip, o.tip) <= near for o in out):
            out.append(r)
    return sorted(out, key=lambda r: r.start)


def carried_by(visit: Reach, reaches: list[Reach], calibration: TableCalibration) -> Reach:
    """`visit` as the hand of a longer arm from another seat seen at its edge all the while
    (fresh deal h112: south's arm along the side of the table to a pile in the far corner was
    seen whole only up to the shadow across the table; past it, its hand showed as pieces at the
    east and north edges, and north's was the draw). Another player's arm does not come and go
    at the pile while one arm is over the table."""
    hosts = [r for r in reaches
             if r.edge != visit.edge and r.edge in calibration.seats and r.rooted and r.frames > visit.frames
             and r.start < visit.start + HANDOVER_S and visit.end <= r.end + HANDOVER_S]
    if not hosts:
        return visit
    host = max(hosts, key=lambda r: r.frames)
    return replace(visit, start=host.start, end=max(visit.end, host.end), edge=host.edge,
                   frames=host.frames, rooted=True)


BACK = 0.08  # of the table's depth: a hand this near its edge has withdrawn from the pile


def _back_to_edge(r: Reach, arms: Arms, bones: Boneyard) -> list[Reach]:
    """Visit `r` as the visits it holds: a hand at the pile that went back to its edge and out
    to the pile again, the arm never out of the picture between, made two (fresh36 h827, no
    divider, traditional: Anna's draws back to back, 39.1-41.4 s one reach, her hand at the pile,
    back to 28 px from her edge at 40.1 s, out to the pile again: two draws, one told)."""
    path = list(r.path)
    if r.scattered or len(path) < 2 * WHOLE:
        return [r]
    at = [i for i, q in enumerate(path) if bones.near(q[1:])]
    for k in range(len(path)):
        if (arms.depth(r.edge, path[k][1:]) <= BACK and any(i < k for i in at) and any(i > k for i in at)
                and k >= WHOLE - 1 and len(path) - k >= WHOLE):
            first, rest = tuple(path[:k + 1]), tuple(path[k:])
            deepest = max(first, key=lambda q: arms.depth(r.edge, q[1:]))
            head = replace(r, end=first[-1][0], tip=deepest[1:], frames=len(first), path=first)
            tail = replace(r, start=rest[0][0], tip=max(rest, key=lambda q: arms.depth(r.edge, q[1:]))[1:],
                           frames=len(rest), path=rest)
            log.debug("an arm from %s went back to its edge at %.1f s and out to the pile again: two visits",
                      r.edge, path[k][0])
            return [head, *_back_to_edge(tail, arms, bones)]
    return [r]


def same_hand(last: Reach, reach: Reach, tile_len: float) -> bool:
    """Whether `reach` at the pile is the hand of the visit before it seen again: from the same
    edge within a second, over the same tile (it paused there while taking it), or in glimpses a
    tile or so apart (fresh deals h132, h85: a hand at the pile seen on two frames, faded into
    the background while it picked a tile up, then seen on two or three frames again). Two draws
    in a row are two whole arm visits (h80: 11 frames, then 30, 0.2 s apart), and so is a hand
    seen leaving the pile and coming back to it (fresh deal h188: two draws 0.2 s apart whose
    hands reached the same place of the pile, the arm withdrawn to its edge in between)."""
    if last.edge != reach.edge or reach.start - last.end > 1.0:
        return False
    if last.path and reach.path and (min(math.dist(last.path[-1][1:], last.tip),
                                         math.dist(reach.path[0][1:], reach.tip)) > LEFT_PILE * tile_len
                                     or _round_trip(last, tile_len) and _round_trip(reach, tile_len)):
        return False
    near = 0.5 if min(last.frames, reach.frames) >= WHOLE else GLIMPSE_NEAR
    return math.dist(last.tip, reach.tip) <= near * tile_len


def _round_trip(r: Reach, tile_len: float) -> bool:
    """Whether the hand of `r` came from a tile or more away to its deepest point and went back
    where it came from: a whole visit, not a hand that faded at the pile (fresh28 h629: a pile a
    few tile lengths from Boris's edge; his hand went back to where it had come in, 1.6 tile
    lengths from the pile, and came again 0.5 s later for his next draw)."""
    first, last = r.path[0][1:], r.path[-1][1:]
    return (math.dist(first, r.tip) >= tile_len and math.dist(last, r.tip) >= tile_len
            and math.dist(first, last) < math.dist(last, r.tip))


def second_draw(visit: Reach, before_t: float, first_t: float, place: tuple[float, float],
                tile_len: float) -> bool:
    """Whether a long arm visit that already took one tile took the one last seen at `place` at
    `before_t` too: two draws without the arm leaving the pile in between (fresh deal h159: 2.1 s
    over the pile for 4-4 and then 2-4; the second place was under the arm laying 2-4 and was
    found empty only after it, so the draw went after the play, to the wrong player). The tile
    was there when the arm came and the hand passed over it."""
    if visit.end - visit.start < TWO_DRAWS_S or not (before_t < visit.end and visit.start <= first_t):
        return False
    points = [visit.tip, *((x, y) for _, x, y in visit.path)]
    return any(math.dist(p, place) <= tile_len for p in points)


class DrawWatch:
    """The draws seen in play and not yet written (`pending`, oldest first)."""

    def __init__(self) -> None:
        self.pending: list[Draw] = []
        self._arm_draws: list[tuple[float, Reach]] = []  # draws seen by the arm alone: when, which arm
        self._last_visit: Reach | None = None  # the last arm that reached the boneyard
        self._row_draws: list[float] = []  # draws seen by a row alone: when the row grew
        self._spent: list[tuple[float, Reach]] = []  # arm draws matched to a place gone
        self._aged: list[tuple[float, Reach]] = []  # arm draws no place was found for in time
        self._unsure: list[Drawn] = []  # places emptied with no arm near: draws not yet certain
        self._glimpse: Reach | None = None  # the last glimpse at the pile too short to be a visit

    def reset(self) -> None:
        self.pending.clear()
        self._arm_draws.clear()
        self._last_visit = None
        self._row_draws.clear()
        self._spent.clear()
        self._aged.clear()
        self._unsure.clear()
        self._glimpse = None

    def explains(self, rose_t: float, seat: str | None, seat_of: Callable[[str | None], str | None]) -> bool:
        """Whether a draw seen, not yet written, is the tile that came into a row at `rose_t`: its
        arm came before, or (no arm seen) it left the pile by then, give or take ROW_SLACK_S. A row
        counted one more a reading before the arm came is that arm's draw too (fresh23 h524, JPEG
        40: Anna's row read 8 at 3.8 s, her arm came at 4.0 s and drew; written twice)."""
        return any((d.arm_t < rose_t + ROW_SLACK_S or (math.isinf(d.arm_t) and d.first_t <= rose_t + ROW_SLACK_S))
                   and (d.player or seat_of(d.edge)) in (seat, None) for d in self.pending)

    def add_row_draw(self, rose_t: float, player: str, arm_t: float) -> None:
        """A tile came into `player`'s row at `rose_t` that no arm and no place of the pile showed
        leaving the boneyard (an arm the colour of the table taking a tile from its part out of
        the picture: fresh deal h31), its hand dated `arm_t`. A place of the pile found gone
        later is this draw, not another."""
        self.pending.append(Draw(rose_t, arm_t, None, player))
        log.debug("%s's row holds a tile more than the record gives: a draw", player)
        # A place found gone just before, with no arm to give it, is this draw too (fresh live
        # deal h434, JPEG at quality 40: the place Boris's hand emptied, unseen, was found gone on
        # the frame his row was seen to grow, and became a second draw, Anna's by turn order).
        place = next((d for d in self._unsure if d.before_t - ROW_SLACK_S < rose_t), None)
        if place is not None:
            self._unsure.remove(place)
        else:
            self._row_draws.append(rose_t)

    def unlaid(self, first_t: float, reach: Reach, arms: Arms, bones: Boneyard,
               calibration: TableCalibration, visit_frames: int) -> None:
        """An arm given to a box first seen at `first_t` that was never read and is gone (no tile):
        where it reached the boneyard it took a tile, as `watch` would have told (fresh deal h179:
        a face-up box of nothing between the pile and the layout took the arm of Boris's second
        draw, and the place that arm emptied went to his third)."""
        if not self._visit(reach, arms, bones, calibration, visit_frames):
            return
        last = self._last_visit
        if last is not None and (same_hand(last, reach, bones.tile_len) if last.start <= reach.start
                                 else same_hand(reach, last, bones.tile_len)):
            return
        # A place of the pile found empty meanwhile with no arm to give it is this arm's draw.
        place = next((d for d in self._unsure if d.before_t < reach.end and reach.start <= d.first_t), None)
        if place is not None:
            self._unsure.remove(place)
            self.pending.append(Draw(min(first_t, place.first_t), reach.start, reach.edge))
            self._spent.append((first_t, reach))
            log.debug("an arm from %s given to no tile took the tile of a place gone", reach.edge)
            return
        self.pending.append(Draw(first_t, reach.start, reach.edge))
        self._arm_draws.append((first_t, reach))
        log.debug("an arm from %s given to no tile had reached the boneyard: a draw", reach.edge)

    def laid_instead(self, first_t: float, over: Callable[[Reach], bool]) -> Reach | None:
        """An arm told a draw, not yet written and no place of the pile gone for it, whose hand
        was `over` a tile first seen within LATE_TILE_S of its leaving: it laid that tile, seen a
        settled frame after it left (fresh22 h499, dark: Anna's hand laid 0-3 by the pile, the
        tile boxed only once her arm had gone, and her arm written as a draw). It is no draw."""
        for x in self._arm_draws:
            seen_t, reach = x
            if not 0.0 <= first_t - reach.end <= LATE_TILE_S or not over(reach):
                continue
            d = next((d for d in self.pending
                      if d.first_t == seen_t and d.arm_t == reach.start and d.edge == reach.edge), None)
            if d is None:
                continue
            self.pending.remove(d)
            self._arm_draws.remove(x)
            if self._last_visit is reach:
                self._last_visit = None
            log.debug("the arm from %s told a draw laid a tile seen as it left: no draw", reach.edge)
            return reach
        return None

    def _with_glimpse(self, r: Reach, arms: Arms, bones: Boneyard, calibration: TableCalibration,
                      visit_frames: int) -> Reach:
        """A glimpse at the pile too short to be a visit, joined to the one before it from the same
        seat at the same place within a second: one hand seen on a frame, lost against the table, seen
        on a frame again (fresh deal h209, JPEG at quality 40: north's draw seen so twice, 0.8 s
        apart, 9 px apart), or at an edge where nobody sits, in pieces of an arm along it (fresh deal
        h256: south's hand at a pile in the far corner, seen at the right edge twice). A glimpse
        long enough to be a visit (`_visit`), or not at the pile, is left as it is."""
        enough = visit_frames if r.edge in calibration.seats else WHOLE
        if r.hand_frames >= enough and self._glimpse is not None and self._glimpse.edge == r.edge:
            # A visit from that seat since: a glimpse after it is not joined across it (fresh25
            # h569, JPEG 40: Boris's one draw seen on one frame, then two, then one as it left;
            # the first and the last, joined, made a second draw).
            self._glimpse = None
        if r.hand_frames >= enough or not self._at_pile(r, arms, bones):
            return r
        last, self._glimpse = self._glimpse, r
        if (last is None or last.edge != r.edge or not 0 <= r.start - last.end <= 1.0
                or math.dist(last.tip, r.tip) > GLIMPSE_NEAR * bones.tile_len):
            return r
        self._glimpse = None
        arms.spend(last)
        return replace(r, start=last.start, frames=last.frames + r.frames, path=last.path + r.path,
                       scattered=last.scattered + r.scattered)

    def confirmed(self, d: Draw) -> bool:
        """Whether an arm's draw has been matched to a place of the pile gone."""
        return any(ft == d.first_t and r.start == d.arm_t and r.edge == d.edge for ft, r in self._spent)

    @property
    def unsure_since(self) -> float | None:
        """When the earliest tile the pile alone says was drawn, not yet certain, left it."""
        return min((d.first_t for d in self._unsure), default=None)

    def _settle_unsure(self, t: float, obs: Observation, bones: Boneyard, one_a_turn: bool) -> None:
        """A place of the pile emptied with no arm seen near it and no row grown is a draw only
        once it has stayed empty UNSURE_S more: a back the detector lost for a few settled frames
        comes back (fresh deal h213: a back unboxed on three frames across a move, 1.4 s, taken
        for a draw nobody made). One that comes back is a place of the pile again. Where a draw
        ends the turn (`one_a_turn`: BLB-2, DRK-2), an arm's draw told since with no place of its
        own is the one that emptied it (`_unclaimed`); where a player draws until a tile fits,
        draws follow each other within a second, and a place and the next arm are two draws
        (fresh19 h411, spider: Anna's first draw unseen, its place found as her second arm left)."""
        back = [x.centre for x in still_there(obs)] + list(obs.faint)
        for drawn in list(self._unsure):
            if any(math.dist(c, drawn.place) <= HOLDS * bones.tile_len for c in back):
                self._unsure.remove(drawn)
                bones.restore(drawn.place, t)
                log.debug("a back lost from the pile is there again: no draw")
            elif t - drawn.first_t >= UNSURE_S:
                self._unsure.remove(drawn)
                seen = self._unclaimed(drawn) if one_a_turn else None
                if seen is not None:
                    log.debug("a tile left the boneyard, no arm seen near: the draw of the arm "
                              "from %s, whose place was never found", seen[1].edge)
                    continue
                self.pending.append(Draw(drawn.first_t, math.inf, None, after_t=drawn.before_t))
                log.debug("a tile left the boneyard, no arm seen")

    def _unclaimed(self, drawn: Drawn) -> tuple[float, Reach] | None:
        """The oldest arm draw, seen after `drawn`'s tile was last seen, that no place of the pile
        was found gone for: the tile it took, written already (fresh22 h481, dark: a back lost
        by the detector a second before Anna's hand took it, found gone with the place Boris had
        emptied, its time before her arm's, and written as a draw of its own, Boris's by turn
        order). Claimed, it is spent."""
        for pool in (self._aged, self._arm_draws):
            seen = min((x for x in pool if x[0] > drawn.before_t), key=lambda x: x[0], default=None)
            if seen is not None:
                pool.remove(seen)
                self._spent.append(seen)
                return seen
        return None

    @classmethod
    def _visit(cls, r: Reach, arms: Arms, bones: Boneyard, calibration: TableCalibration,
               visit_frames: int) -> bool:
        """Whether arm `r` visited the boneyard: at the pile, seen whole, or on `visit_frames`
        frames from a side where someone sits (a fragment of an arm that laid a tile elsewhere can
        show at an empty side near the pile). A frame of change scattered in pieces along the
        edge is light, not the hand (rendered deal s44 as the renderer now draws it: two frames of
        an exposure flicker lit the dark pile's edges, one in five pieces, taken for north's draw)."""
        return cls._at_pile(r, arms, bones) and (r.frames >= WHOLE or (
            r.hand_frames >= visit_frames and r.edge in calibration.seats))

    def _carried_glimpse(self, r: Reach, gone: list[Reach], arms: Arms, bones: Boneyard,
                         calibration: TableCalibration) -> bool:
        """Whether `r`, a glimpse at the pile too short to be a visit, was the hand of a longer
        arm from another seat that laid no tile, over the table all the while (`carried_by`):
        fresh38 h877 (small pips, dark): Anna's arm across the table to the pile in the far
        corner, seen from her edge in two pieces, her hand at the pile once, at the top edge;
        no visit, and her draw went unwritten. Not an arm going back from a visit just made
        (fresh28 h632, no divider: Boris's arm leaving the pile after his draw, seen 0.2 s
        later, carried a glimpse at the right edge, and a second draw of his was written)."""
        if not self._at_pile(r, arms, bones):
            return False
        carried, last = carried_by(r, gone, calibration), self._last_visit
        return carried is not r and not follows(carried, [last] if last is not None and last.end <= carried.start else [])

    @staticmethod
    def _dwelt(r: Reach, arms: Arms, bones: Boneyard) -> bool:
        """Whether the hand of `r` was seen at one place of the pile (within DWELL of a tile
        length) on two frames, going no deeper into the table in between: it stayed there
        (rendered deal s44: north's hand in pieces by the pile, seen there twice among frames of
        its forearm alone). A hand passing the pile on its way to lay a tile further in and
        back did not (fresh13 h283: north's arm past the pile's corner to the chain, its tile
        read late, taken for a draw)."""
        path = [q[1:] for q in r.path]
        depth = [arms.depth(r.edge, p) for p in path]
        at = [i for i, p in enumerate(path) if bones.near(p)]
        return any(math.dist(path[i], path[j]) <= DWELL * bones.tile_len
                   and all(depth[k] <= max(depth[i], depth[j]) + DEEPER for k in range(i + 1, j))
                   for i, j in itertools.combinations(at, 2))

    @classmethod
    def _at_pile(cls, r: Reach, arms: Arms, bones: Boneyard) -> bool:
        """Whether the arm's hand was over the boneyard: its tip near it, the pile under the
        hand just behind the tip (fingers past the tile taken from the far row), or its hand kept
        there (`_dwelt`) though it reached as deep elsewhere (fresh deal h256: a hand at a
        pile in the corner seen as pieces at the right edge, as deep into the table as the
        forearm that came in by that corner)."""
        return (bones.near(r.tip) or any(arms.hand_over(r, z, 1.5 * bones.tile_len, 0.5 * bones.tile_len)
                                         for z in bones.zone)
                or cls._dwelt(r, arms, bones))

    def _witnesses(self, gone: list[Drawn], tile_len: float) -> list[tuple[float, Reach] | None]:
        """The arm draws already seen that emptied the places of the pile found gone together:
        taken by an arm seen reaching the boneyard in between, each is already written. Of
        several, the oldest whose hand was at the place, else the oldest (held-out h08: hands a
        tile and a half away or more tell nothing): a later place cannot take an older arm's
        draw, so the oldest taken first leaves each later place its own (the nearest taken first
        left a place of the rendered deal s44 none, and a draw more). Where the places found gone
        together cannot each have their first choice, as many as can have one of theirs (fresh16
        h355: a place hidden for 16 s, found gone with three others, took the draw the last of
        them needed, and that one became a draw nobody made)."""
        options: list[list[int]] = []
        for drawn in gone:
            # A hand at the place may be told a draw a little before the tile is last seen there
            # (fresh deal h31: a hand the colour of the table rested by the tile, then took it).
            at = sorted((k for k, x in enumerate(self._arm_draws)
                         if drawn.before_t - AT_EARLY_S < x[0] <= drawn.first_t
                         and math.dist(x[1].tip, drawn.place) <= 1.5 * tile_len),
                        key=lambda k: self._arm_draws[k][0])
            between = [k for k, x in enumerate(self._arm_draws)
                       if drawn.before_t < x[0] <= drawn.first_t and k not in at]
            options.append(at + between)
        owner: dict[int, int] = {}  # arm draw -> place

        def augment(i: int, tried: set[int]) -> bool:
            for k in options[i]:
                if k not in tried:
                    tried.add(k)
                    if k not in owner or augment(owner[k], tried):
                        owner[k] = i
                        return True
            return False

        for i, ks in enumerate(options):
            free = next((k for k in ks if k not in owner), None)
            if free is not None:
                owner[free] = i  # the first of its options still free
            else:
                augment(i, set())
        given = {i: self._arm_draws[k] for k, i in owner.items()}
        return [given.get(i) for i in range(len(gone))]

    def watch(self, t: float, obs: Observation, arms: Arms, bones: Boneyard,
              calibration: TableCalibration, visit_frames: int, laid_at_once: bool = False) -> None:
        """One settled frame of play: new draws join `pending`. An arm seen over the boneyard on
        `visit_frames` frames from a seat took a tile. `laid_at_once`: a tile drawn may be laid in
        the same turn (draw until one fits: TRAD, SPI-1)."""
        gone = arms.unused_since(arms.previous_settled, t)
        gone = [self._with_glimpse(r, arms, bones, calibration, visit_frames) for r in gone]
        visits = [r for r in gone if (self._visit(r, arms, bones, calibration, visit_frames)
                                      or self._carried_glimpse(r, gone, arms, bones, calibration))
                  and not arms.withdrawing(r)
                  and not arms.beside_laying(r)]
        for reach in visits:
            arms.spend(reach)
        # Pieces of one hand carried by one arm are that arm's one visit (fresh deal h256: a hand
        # at the pile seen at the right edge and the top, both south's, one draw).
        carried: dict[tuple, Reach] = {}
        for r in visits:
            r = carried_by(r, gone, calibration)
            carried.setdefault((r.edge, r.start), r)
        visits = list(carried.values())
        for reach in (x for r in one_per_hand(visits, 1.5 * bones.tile_len) for x in _back_to_edge(r, arms, bones)):
            last = self._last_visit
            if last is not None and same_hand(last, reach, bones.tile_len):
                self._last_visit = reach
                continue
            self._last_visit = reach
            self.pending.append(Draw(t, reach.start, reach.edge))
            self._arm_draws.append((t, reach))
            log.debug("an arm from %s reached the boneyard and laid no tile: a draw", reach.edge)
        width = 0.75 * bones.tile_len
        emptied = bones.update(t, obs, lambda p: arms.over(p, width, t))
        for drawn, seen in zip(emptied, self._witnesses(emptied, bones.tile_len), strict=True):
            if seen is not None:
                self._arm_draws.remove(seen)
                self._spent.append(seen)
                continue
            again = next((x for x in self._spent
                          if second_draw(x[1], drawn.before_t, drawn.first_t, drawn.place, bones.tile_len)), None)
            if again is not None:
                self._spent.remove(again)  # two tiles a visit at most
                self.pending.append(Draw(again[0], again[1].start, again[1].edge))
                log.debug("a second tile gone from where the arm from %s was: its second draw", again[1].edge)
                continue
            row = next((r for r in self._row_draws if drawn.before_t - ROW_SLACK_S < r), None)
            if row is not None:
                self._row_draws.remove(row)
                continue
            arm = arms.took_from([drawn.place], drawn.before_t, drawn.first_t)[0]
            if (arm is not None and arm.frames < WHOLE
                    and not Arms.came_within(arm, drawn.place, TOOK_NEAR * bones.tile_len)):
                # A glimpse never near the place took nothing from it (fresh22 h481, dark: a blob
                # at the edge on one frame, ten tile lengths away, given a place Boris emptied).
                # An arm seen whole may have been followed only part of the way (fresh22 h485:
                # Boris's hand at the pile, his arm's tip last seen five tile lengths short of it).
                arm = None
            layer = None if arm is not None else arms.laid_from(
                drawn.place, drawn.before_t, drawn.first_t, LAID_FROM * bones.tile_len)
            laid = layer is not None and not (laid_at_once and arms.laid_from(
                drawn.place, drawn.before_t, drawn.first_t, bones.tile_len))
            if (not laid and not laid_at_once and drawn.first_t - drawn.before_t > HIDDEN_S
                    and (seen := self._unclaimed(drawn)) is not None):
                # A place hidden long, found gone, where a draw ends the turn (BLB-2, DRK-2): an
                # arm's draw told meanwhile with no place of its own took it, before an arm the
                # pile's long window would give it (fresh22 h490, dark: two places hidden since
                # the deal's first draws took the arm of Boris's draw never seen whole, and the
                # place that arm emptied, found a second later, became a draw nobody made).
                log.debug("a place hidden since %.1f s found gone: the draw of the arm from %s, "
                          "whose place was never found", drawn.before_t, seen[1].edge)
                continue
            if laid:
                # The hand that laid a tile meanwhile took it from there: a hand row lying by the
                # pile, taken for part of it (fresh deal h249: north's row beside the pile, its
                # tile played, written as a draw nobody made). Where a tile drawn may be laid at
                # once (TRAD, SPI-1), only a hand that never came over the place took it from a
                # row: one that did drew it and laid it (rendered deal s44: a draw, then 1-6).
                log.debug("a tile gone from the pile where the hand that laid a tile passed: that tile")
                continue
            if arm is None:
                self._unsure.append(drawn)  # the pile alone tells it: see `_settle_unsure`
                continue
            told = None if arm.frames >= WHOLE else next(
                (x for x in self._arm_draws if x[1].start > arm.start and same_hand(arm, x[1], bones.tile_len)), None)
            if told is not None:
                # A glimpse of the hand of a draw already told, seen before it: that draw's place
                # (fresh25 h569, JPEG 40: Boris's hand glimpsed as the place emptied, then seen on
                # two frames and told a draw; the place, matched to the glimpse, made a second).
                self._arm_draws.remove(told)
                self._spent.append(told)
                continue
            self.pending.append(Draw(drawn.first_t, arm.start, arm.edge))
            log.debug("a tile left the boneyard unseen by an arm until now (%s)", arm.edge)
        self._settle_unsure(t, obs, bones, not laid_at_once)
        self._aged += [x for x in self._arm_draws if x[0] <= t - 10.0]
        self._arm_draws = [x for x in self._arm_draws if x[0] > t - 10.0]
        self._row_draws = [r for r in self._row_draws if r > t - 10.0]
        self._spent = [x for x in self._spent if x[0] > t - 10.0]
