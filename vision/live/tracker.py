"""From per-frame observations to game events: the live pipeline's core, with no pixels in it.

`Tracker.update(t, motion, observation) -> Update(events, flags)`. Feed it every frame; the
observation only on settled frames (the motion gate decides), None otherwise.

- A new layout tile becomes a `play` once it has been seen for `stable_s` seconds in at least
  `presence` of the settled frames since it first appeared (misread flicker never gets there).
- Its `to` is the committed tile it touches (the reader's edges, else the nearest half), its player
  the seat whose edge the arm came in from just before it appeared; turn order is the fallback.
  Several tiles from the same seat form one turn (the engine groups consecutive plays).
  Skipped seats are left to the engine: an out-of-turn play becomes inferred passes, or a `TURN`
  flag where the variant has no passes.
- A committed tile missing for `takeback_s` raises a `take-back` flag (it stays in the record;
  the operator decides); if it comes back, a `returned` flag.
- Recount: when face-up tiles lie in front of at least `recount_seats` seats (or `start_recount()`
  is called, e.g. when the engine says the deal is over), each seat's hand is read until it holds
  still for `stable_s`, then one `reveal` per player. When the table has been clear for `stable_s`,
  the next stable tile opens a new deal (`{"event": "deal"}` first).

The Tracker keeps the plays (candidates becoming moves) and composes the other jobs: naming a
frame's tiles (`naming`, plain functions), the draws (`draws.DrawWatch`), the recount
(`reveal.RevealWatch`), the tiles to confirm (`confirm.ConfirmQueue`), the flags of moves already
made (`flags`), the arms, the boneyard and the pile (`arms`, `boneyard`, `pile`); the records it
follows are in `places`.
"""

from __future__ import annotations

import logging
import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from engine.tiles import Tile
from vision.live.arms import REACH_OF_HALF_SPAN, Arms
from vision.live.boneyard import Boneyard
from vision.live.calibration import TableCalibration
from vision.live.confirm import ConfirmQueue
from vision.live.draws import ROW_SLACK_S, UNSURE_S, Draw, DrawWatch
from vision.live.flags import FLAG_IDS, LiveFlag, MisreadWatch, Update, committed_presence
from vision.live.motion import MotionInfo
from vision.live.naming import (
    BLANK,
    Names,
    alias,
    beside,
    blank_backs,
    blank_on_end,
    blank_opener,
    closed_by,
    dist,
    hops,
    joint_distance,
    middle_opener,
    name_tiles,
    reown,
    touching,
)
from vision.live.observation import LAYOUT, Observation, TileObs
from vision.live.pile import PileMemory
from vision.live.places import Candidate, Committed, Held
from vision.live.prior import (
    HOLDS_NONE,
    LONE,
    MISFIT,
    NO_END,
    ONE_TURN,
    ONE_VISIT,
    SEEN_TWICE,
    ToConfirm,
    chain_ends,
    covers,
    doubt,
    fitting_to,
    misfit,
    overlaps,
)
from vision.live.reveal import (
    ROW_LEFT,
    RevealWatch,
    blank_in_hand,
    blank_off_pile,
    by_elimination,
    hand_tiles,
    laid_apart,
    reveal,
    rows_turned_up,
    to_counts,
)
from vision.live.rows import GROUP_BEFORE_S, GROUP_STILL_S, RowWatch, in_turn_order, seats_of_group

__all__ = ["FLAG_IDS", "PLAY", "RECOUNT", "REVEALED", "Committed", "LiveFlag", "Tracker", "TrackerConfig",
           "Update"]

log = logging.getLogger(__name__)

PLAY, RECOUNT, REVEALED = "play", "recount", "revealed"
RECOUNT_SURE = 0.4  # a face-up tile out of the layout read at least this surely may start the recount
FORGOTTEN_S = 4.0  # a tile read again where a forgotten one lay this soon after is that one
UNREAD_SEEN = 3  # settled frames a box seen unread is remembered on, as a tile read later there
LONE_SEEN = 2  # settled frames a box no arm laid is seen on at most, to be a phantom a tile was laid over


OUT_OF_TURN_S = 2.0  # an arm visit to the pile from a seat not to move waits this long for the pile
# ... and this long for a tile laid before it, by the player to move, still being read
TURN_PENDING_S = 6.0
DRAWN_LAID_S = 2.0  # a draw written this soon before a tile's arm came may be that tile
# A tile read under one name on two readings but seen too seldom to be a move holds the later
# tiles this long after it appeared (not order_hold_s): it is on the table, only boxed on and off.
CLEAR_HOLD_S = 8.0


# a box the detector scored below this is one it is unsure of (vision.read.verify's UNSURE_CONFIDENCE)
UNSURE_BOX = 0.4


@dataclass
class TrackerConfig:
    stable_s: float = 0.5  # a new tile must hold this long before it is a move
    # A tile ready to be a move waits for one laid before it whose name is not clear yet, this long
    # at most after that one appeared (held-out deals h10, h18: two plays written in the wrong order).
    order_hold_s: float = 3.0
    presence: float = 0.7  # share of settled frames it must be seen in meanwhile
    agree: float = 0.65  # share of those frames that must read the same name
    min_reads: int = 2  # readings (not reuses of one) that must name it: one misread is no move
    gap_s: float = 0.6  # a candidate unseen this long is forgotten
    takeback_s: float = 1.0  # a committed tile missing this long is flagged
    arm_window_s: float = 1.5  # an arm that left at most this long before a tile appeared placed it
    reach_window_s: float = 4.0  # arms gone at most this long are matched to new tiles by reach
    min_reach: float = 0.2  # an arm must get this far into the table (share of it) to lay a tile
    reach_gap_s: float = 0.45  # an arm lost for longer than this at its edge is gone (a pause
    # over the table while laying a tile can hide it for a few frames)
    join_factor: float = 1.8  # nearest-half fallback: within this many half spans
    recount_seats: int = 2  # face-up tiles in front of this many seats start the recount
    visit_frames: int = 2  # an arm seen over the boneyard on this many frames took a tile
    doubt_s: float = 1.5  # a tile the rules doubt is re-read this long before the operator is asked


def _left_open(tile: str, to: str | None) -> list[int]:
    """The values of `tile`, just laid to `to`, left open, as the chain's own rule has it
    (`prior.chain_ends`, BYK-1.6): a double's, else the one it did not join by."""
    return [v for n, v in chain_ends([(tile, None)] if to is None else [(to, None), (tile, to)]) if n == tile]


def _norm(tile: str) -> str:
    """The engine's text of a tile written either way (`5-3` -> `3-5`); raises TileError (a ValueError)."""
    return str(Tile.parse(tile))


class Tracker:
    def __init__(
        self,
        players: list[str],
        calibration: TableCalibration,
        config: TrackerConfig | None = None,
        *,
        to_move: Callable[[], str | None] | None = None,
        hand_size: int | None = None,
        open_ends: Callable[[], list[tuple[str, int]] | None] | None = None,
        may_open: Callable[[str], bool] | None = None,
        opens_with_double: Callable[[], bool] | None = None,
    ) -> None:
        if not players:
            raise ValueError("the tracker needs the players in clockwise seat order")
        self.players = list(players)
        self.calibration = calibration
        self.config = config or TrackerConfig()
        self.to_move = to_move
        self.open_ends = open_ends  # the engine's open ends (tile, value); else from the moves
        self.may_open = may_open  # whether a tile may open the deal (BYK-1.5: 0-0), by the engine
        self.opens_with_double = opens_with_double  # the deal opens with a double (SPI-2), by the engine
        self.face_down = True  # the variant lets a double be laid face down (SPI-4, BAL-12)
        self.multi = "any"  # tiles a player may lay in one turn (the engine's rule: "doubles", BAL-13)
        self._visits: dict[str, tuple[float, str | None]] = {}  # move -> its arm (when it left, edge)
        self.hand_size = hand_size  # tiles dealt to each, where no boneyard changes the count
        self.boneyard_size: int | None = None  # tiles left undealt (None: no boneyard in this variant)
        self.removed = 0  # of those, taken out unseen and never drawn (SPI-1)
        self.rows = False  # hands are rows turned face up during play (BLB-2, DRK-2)
        self.draw_in_turn = False  # only the player to move draws (draw until a tile fits)
        self._clear_frames = 0
        self.mode = PLAY
        self.need_deal = False
        self.committed: dict[str, Committed] = {}
        self.order: list[str] = []
        self._candidates: dict[int, Candidate] = {}
        self._forgotten: list[Candidate] = []  # candidates forgotten lately (`_revive`)
        self._serial = 0
        self._recent: deque[float] = deque()  # times of the recent settled frames
        self._frame = 0
        self.arms = Arms(self.config, calibration)
        self._last_player: str | None = None
        self.recount = RevealWatch()
        self._clear_since: float | None = None
        self.misreads = MisreadWatch()
        self.last_observation: Observation | None = None
        self.last_names: list[str | None] = []
        self.bones = Boneyard(self.config.stable_s)
        self.pile = PileMemory()
        self.draws = DrawWatch()
        self._drawn: Counter = Counter()  # draws written this deal, by player
        self._hand_t: dict[str, float] = {}  # when each player's hand last changed in the record
        self._drew_t: dict[str, float] = {}  # when each player's last draw was written
        self.rows_seen = RowWatch()  # the face-down hands, counted
        # the tiles that appeared together being written: (their first frame, seats left, last
        # mover, the seats each named by one of those tiles' own arms)
        self._group: tuple[float, Counter | None, str | None, set[str]] | None = None
        self.confirming = ConfirmQueue()  # tiles to confirm
        self._stale: set[str] = set()  # tiles of a deal the referee closed, still on the table
        self._deals = 0  # deal events in the referee's record at the last resume
        self._opened = False  # the referee's record already opens the deal awaited
        self.last_t = 0.0
        self._fresh = True  # this frame's reading is a new one (not the last one reused)
        # Nothing has moved over the table since the deal began: what is read now was there
        # before any hand, so it is no move (see _found_here).
        self._untouched = True
        self._found: list[tuple[tuple[float, float], float, set[str | None]]] = []

    # --- public -----------------------------------------------------------------------------
    def update(self, t: float, motion: MotionInfo, obs: Observation | None, *,
               fresh: bool = True) -> Update:
        """One frame: its motion, and on a settled frame its reading (`fresh=False`: the last
        reading reused, as the pipeline does on still frames; it counts for presence, not as a
        vote)."""
        self.last_t = t
        self.arms.observe(t, motion)
        if motion.arm or (not motion.settled and motion.moving > 0.0):  # (not the gate's first frame)
            self._untouched = False
        if obs is None or not motion.settled:
            return Update()
        self.arms.settled(t)
        self._frame += 1
        self._fresh = fresh  # a reading reused on still frames is one reading, one vote
        if self.boneyard_size:
            # The reader gives the boneyard's tiles to seats; in play they are told apart by how they lie.
            obs = self.pile.mark(obs, self.boneyard_size)
        if self.mode == PLAY:
            obs = middle_opener(reown(obs, self.committed), self.committed)
            # the engine is asked only before the first move (the only time the answer is used)
            opens = bool(self.committed) or self.may_open is None or self.may_open("0-0")
            obs = blank_opener(obs, self.committed, blank_may_open=opens, closed_doubles=self.face_down)
            if self.face_down:
                obs = blank_backs(obs, self.committed, self.config.join_factor)
            else:
                obs = blank_on_end(obs, self.committed, self.config.join_factor)
        elif self.mode == RECOUNT:
            obs = laid_apart(obs, self.committed, self.calibration)
        self.last_observation = obs
        names = name_tiles(obs, self.committed, face_down=self.face_down, join_factor=self.config.join_factor,
                           open_ends=self._ends)
        self.last_names = names
        if self.mode == PLAY:
            return self._play_step(t, obs, names)
        if self.mode == RECOUNT:
            # Tiles laid just before the hands went down still become moves.
            out = self._play_step(t, obs, names, recount=False)
            out.extend(self._recount_step(t, obs))
            return out
        return self._revealed_step(t, obs, names)

    def expected_hands(self) -> dict[str, int] | None:
        """Tiles each player should still hold (known without a boneyard: `hand_size` minus plays)."""
        if self.hand_size is None:
            return None
        played = Counter(c.player for c in self.committed.values())
        return {p: max(0, self.hand_size - played[p]) for p in self.players}

    def to_confirm(self) -> list[ToConfirm]:
        """Tiles seen laid that the rules doubt (prior.doubt), oldest first: not moves until the
        operator confirms them (`confirm`) or says they are not tiles (`dismiss`)."""
        return self.confirming.items()

    def confirm(self, item_id: int, tile: str | None = None, player: str | None = None,
                to: str | None = None) -> list[dict]:
        """The operator's word on a tile to confirm: it is a move (as read, or as `tile`); returns
        the events to write (the play, after a `deal` where it opens one). Raises KeyError for an
        unknown id, ValueError for a bad tile name or a tile already played."""
        held = self.confirming.held.pop(item_id)
        item = held.item
        name = _norm(tile) if tile else item.tile
        if name in self.committed and not self.committed[name].missing:
            self.confirming.held[item_id] = held
            raise ValueError(f"{name} is already a move of this deal: correct that one instead")
        out = Update()
        player = player if player in self.players else (item.player or self._in_turn(out)
                                                        or self._fallback_player())
        to = _norm(to) if to else item.to
        if to is not None and to not in self.committed:
            to = None
        if not self.committed:
            to = None
        event: dict = {"event": "play", "player": player, "tile": name}
        if to is not None:
            event["to"] = to
        if item.face == "down":
            event["face"] = "down"
        events = [event]
        if self.need_deal:
            events.insert(0, {"event": "deal"})
            self.need_deal = False
        self.committed[name] = Committed(name, player, to, item.face, item.t, held.last_t, held.tile)
        self.order.append(name)
        self._last_player = player
        self._clear_since = None
        log.info("confirmed: %s plays %s", player, name)
        return events

    def dismiss(self, item_id: int) -> None:
        """The operator says a tile to confirm is not a tile: its place is ignored this deal.
        Raises KeyError for an unknown id."""
        self.confirming.dismiss(item_id)

    def start_recount(self, t: float | None = None) -> None:
        """Switch to recount (the engine or the operator says the deal is over)."""
        if self.mode == PLAY:
            log.info("recount: reading the hands laid out in front of each seat")
            self.mode = RECOUNT
            self.recount.begin(t)

    def new_deal(self) -> None:
        """Forget the layout: the next stable tile opens a deal (the operator's 'next deal')."""
        self.mode = PLAY
        self.committed.clear()
        self._visits.clear()
        self.order.clear()
        self._candidates.clear()
        self._forgotten.clear()
        self._last_player = None
        self._clear_since = None
        self._clear_frames = 0
        self.bones.reset()
        self.pile.reset()
        self.draws.reset()
        self._drawn.clear()
        self._hand_t.clear()
        self._drew_t.clear()
        self.rows_seen.reset()
        self._group = None
        self.confirming.clear(places=True)
        self._stale.clear()
        self._opened = False
        self._untouched = True
        self._found.clear()

    def set_calibration(self, calibration: TableCalibration) -> None:
        self.calibration = calibration
        self.arms.calibration = calibration

    def resume(self, record: list[dict]) -> None:
        """Take the referee's record as what is on the table: the current deal's plays are the
        moves made (corrections and undos applied). Where a tile lay is kept across corrections."""
        starts = [i for i, e in enumerate(record) if e.get("event") == "deal"]
        old, old_order = self.committed, self.order
        self.committed, self.order = {}, []
        if not starts:
            self.mode, self.need_deal = PLAY, True
            self._candidates.clear()
            self._forgotten.clear()
            return
        events = record[starts[-1] + 1:]
        self._drawn = Counter(e.get("player") for e in events if e.get("event") == "draw")
        plays = [e for e in events if e.get("event") == "play" and e.get("tile")]
        names = [_norm(e["tile"]) for e in plays]
        new_deal, self._deals = len(starts) > self._deals > 0, len(starts)
        if not plays and (self._stale or (new_deal and old)):
            # The referee opened the next deal while the last one still lies on the table: its
            # tiles are not the new deal's moves. Wait until the table is cleared.
            log.info("next deal: waiting for the table to be cleared")
            self._stale = set(old) | self._stale
            self._candidates.clear()
            self._forgotten.clear()
            self.confirming.clear(places=False)
            self.mode = REVEALED
            self.need_deal = False
            self._opened = True
            return
        self._stale.clear()
        self._opened = False
        for key in [k for k, h in self.confirming.held.items() if h.item.tile in names]:
            del self.confirming.held[key]  # entered by the referee
        for k, (e, name) in enumerate(zip(plays, names, strict=True)):
            prev = old.get(name)
            if prev is None and k < len(old_order) and old_order[k] not in names:
                prev = old.get(old_order[k])  # the same move, its tile corrected
            self.committed[name] = Committed(
                name, e.get("player", ""), _norm(e["to"]) if e.get("to") else None,
                e.get("face", "up"), prev.t if prev else 0.0, prev.last_t if prev else 0.0,
                prev.obs if prev else None,
            )
            if prev is not None:  # a take-back already flagged stays flagged once
                c = self.committed[name]
                c.missing, c.miss_t, c.miss_frames, c.misread = (
                    prev.missing, prev.miss_t, prev.miss_frames, prev.misread)
            self.order.append(name)
        self._last_player = plays[-1].get("player") if plays else None
        if plays:
            self._untouched = False  # a deal in play (a restart): tiles laid meanwhile are moves
        for key in [k for k, c in self._candidates.items() if c.name in self.committed]:
            del self._candidates[key]
        self.need_deal = False
        if any(e.get("event") == "reveal" for e in events):
            self.mode = REVEALED
        elif self.mode == REVEALED:
            self.mode = PLAY  # the referee undid the recount

    # --- play -------------------------------------------------------------------------------
    def _play_step(self, t: float, obs: Observation, names: Names, *,
                   recount: bool = True) -> Update:
        out = Update()
        layout = [i for i, tile in enumerate(obs.tiles) if tile.owner == LAYOUT]
        present = {names[i]: i for i in layout if names[i] in self.committed}
        others = [i for i in layout if names[i] not in self.committed]
        absent = [c for c in self.committed.values() if c.tile not in present and c.obs is not None]
        fresh = []
        covered: set[str] = set()
        placed = [c.obs for c in self.committed.values() if c.obs is not None and not c.missing]
        for i in others:
            moved = alias(obs.tiles[i], absent)
            if moved is not None:  # a misread of a move already made, where it lies
                absent.remove(moved)
                flag = self.misreads.seen(t, moved, obs.tiles[i].name or "unreadable", self.config.takeback_s)
                if flag is not None:
                    out.flags.append(flag)
            elif overlaps(obs.tiles[i], placed):
                # One tile per place: a box over played tiles (a phantom double across a joint,
                # a second box on one tile) is no new tile. The moves under it are still there,
                # their own boxes lost to it (fresh22 h499, groove: a 5-5 across the joint of
                # 2-5 and 5-6 on many frames, each time flagged as two take-backs).
                log.debug("%s lies over tiles already played: not a new tile", names[i])
                covered.update(c.tile for c in self.committed.values()
                               if c.obs is not None and not c.missing and covers(obs.tiles[i], c.obs))
            elif (self.confirming.at_held(t, obs.tiles[i], names[i], self._fresh)
                  or self.confirming.at_ignored(obs.tiles[i])):
                pass
            elif self._found_here(obs.tiles[i], names[i]):
                log.debug("%s was on the table before anything moved: not a move", names[i])
            elif names[i] is not None or obs.tiles[i].face == "up":
                fresh.append(i)  # unread this frame still marks where a new tile lies
        out.flags.extend(committed_presence(t, obs, present, self.committed, self.config.takeback_s,
                                            frozenset(covered)))
        self.rows_seen.update(t, obs, self.calibration, self._fresh)
        self._match_candidates(t, obs, names, fresh)
        self._held_step(t, out)
        if recount:  # in play (not once the deal is over): tiles leaving the boneyard
            self.draws.watch(t, obs, self.arms, self.bones, self.calibration, self.config.visit_frames,
                             self.draw_in_turn)
            self._row_draws()
        self._commit_ready(t, obs, names, out)
        if recount:
            self._check_recount(t, obs)
        return out

    def _match_candidates(self, t: float, obs: Observation, names, fresh: list[int]) -> None:
        cfg = self.config
        self._recent.append(t)
        while self._recent and self._recent[0] < t - 4 * cfg.stable_s:
            self._recent.popleft()
        for c in self._candidates.values():
            c.index = None
        new: list[Candidate] = []
        chosen: dict[int, Candidate | None] = {i: None for i in fresh}

        def take(i: int, fits: Callable[[Candidate], bool]) -> None:
            """Box `i` to the nearest candidate still free that `fits` it (a new tile laid over
            a doubtful one's place does not)."""
            tile = obs.tiles[i]
            pool = [c for c in self._candidates.values()
                    if c.index is None and fits(c) and not self._laid_over(c, names[i], tile.confidence)]
            if pool:
                chosen[i] = c = min(pool, key=lambda c: dist(c.centre, tile.centre))
                c.index = i

        # A box lying on a candidate's place (within half its reach) is that tile: it is matched
        # first, so that no other box takes it as a tile boxed astray (below).
        for i in fresh:
            take(i, lambda c, p=obs.tiles[i].centre: dist(c.centre, p) <= c.reach / 2)
        for i in [i for i in fresh if chosen[i] is None]:
            tile = obs.tiles[i]
            take(i, lambda c, p=tile.centre: dist(c.centre, p) <= c.reach)
            if chosen[i] is None:
                # One tile per place: a box seen on the last settled frame, lost on this one, that
                # lay over part of this one was this tile boxed astray (fresh30 h679, groove: Anna's
                # 1-5 first boxed as a 1-1 across its joint with the 1-6, then boxed whole 26 px
                # off; taken as a new tile, it lost her arm to the phantom and went to Boris with his
                # 3-5). One missed since was a box of nothing: a tile there would have been boxed
                # (h692: a 0-3 read once 2 s before Anna laid her 3-5 there took it, with its arm).
                # One boxed where it lay is not lost (fresh32 h728, 48 px tiles: Gleb's 5-5 took
                # the place of Vera's 4-5, boxed long on the frame before; the 4-5 was written with
                # the 5-5's box, and the 5-5 then lay "over" it). One boxed there unread on
                # UNREAD_SEEN frames was a tile, whose reading failed, however long it was missed
                # (fresh37 h859, dark: Boris's 1-6 boxed as two halves, unread, hidden by Anna's
                # hand laying 0-6 beside it, then boxed whole and read, taken for her second tile).
                take(i, lambda c, tile=tile: c.box is not None
                     and (c.miss_frames == 0 or (c.name is None and c.seen >= UNREAD_SEEN))
                     and (covers(tile, c.box) or covers(c.box, tile)))
        for i in fresh:
            tile, c = obs.tiles[i], chosen[i]
            if c is None:
                episode = self.arms.episode(t)
                c = Candidate(t, self._frame, t, tile.centre, REACH_OF_HALF_SPAN * max(tile.half_span, 1.0),
                               episode and episode[1], t, episode_t=episode and episode[0])
                self._serial += 1  # keys in order of appearance: ties break the same way each run
                self._candidates[self._serial] = c
                new.append(c)
            else:
                c.seen += 1
                c.centre = ((c.centre[0] + tile.centre[0]) / 2, (c.centre[1] + tile.centre[1]) / 2)
            c.last_t, c.box, c.least_sure = t, tile, min(c.least_sure, tile.confidence)
            c.down += tile.face == "down"
            c.read_up += tile.face == "up" and tile.values is not None
            c.seen_ts.append(t)
            c.miss_t, c.miss_frames = None, 0
            if self._fresh or not c.names:
                c.names[names[i]] += 1
                c.reads.append((t, names[i]))
            c.index = i
        new = [c for c in new if not self._revive(t, c)]
        if self._fresh:
            self.arms.note_read(t, bool(new))
        far = hops(obs, names, self.committed)
        for key, c in list(self._candidates.items()):
            if c.index is None:
                # Forget it after gap_s without it, over three settled frames at least (an arm over
                # the table in between counts in the time: `_revive` finds it again).
                c.miss_t = t if c.miss_t is None else c.miss_t
                c.miss_frames += 1
                if t - c.miss_t > cfg.gap_s and c.miss_frames >= 3:
                    del self._candidates[key]
                    if c.name is not None or c.seen >= UNREAD_SEEN:
                        self._forgotten.append(c)
                    if c.name is None and self.boneyard_size is not None and self.mode == PLAY:
                        reach = self.arms.given(c.edge, c.arm_t)
                        if reach is not None:  # a box of nothing: its arm may have drawn
                            self.draws.unlaid(c.first_t, reach, self.arms, self.bones, self.calibration,
                                              cfg.visit_frames)
            elif self._fresh or not c.to_votes:
                self._vote_attachment(obs, names, c, far)
        if not self.committed and len(new) > 1 and self.may_open is not None:
            # Tiles laid together at a deal's start, each touching the other: the one that may
            # open it (BYK-1.5, BLB-1) came first, whatever arm came nearer.
            opens = {x.name for x in new if x.name is not None and self.may_open(x.name)}
            if len(opens) > 1 and self.opens_with_double is not None and self.opens_with_double():
                # Where the engine lets any tile open only because it cannot see the hands (the
                # opening double may not have been dealt: then the lowest double dealt opens, SPI-2,
                # TRAD), a double opened (fresh live deal h60: 2-2 and 2-5 laid together at the
                # start, taken the other way round).
                opens = {n for n in opens if Tile.parse(n).is_double} or opens
            for x in new:
                if x.name in opens:
                    for n in [n for n in x.to_votes if n not in opens]:
                        del x.to_votes[n]
        self.arms.assign(t, new)
        for c in self._candidates.values():
            if c not in new and c.edge is not None and (first := self.arms.went_elsewhere(c)) is not None:
                log.debug("%s: the arm given it went on to lay another tile, never near it", c.name)
                c.edge, c.rooted, c.arm_t = None, False, first.start - 1e-3
        if self.boneyard_size is not None and not self.draw_in_turn and self.mode == PLAY:
            # Where a tile drawn is never laid in the same visit (one after a miss: BLB-2, DRK-2;
            # or no drawing mid-turn), an arm told a draw whose hand was over a named tile seen
            # just after it left laid that tile.
            for c in new:
                if c.name is not None and self.arms.given(c.edge, c.arm_t) is None:
                    reach = self.draws.laid_instead(t, lambda r, c=c: self.arms.passed_over(r, c))
                    if reach is not None:
                        self.arms.give(reach, c)

    def _laid_over(self, c: Candidate, name: str | None, confidence: float = 1.0) -> bool:
        """Whether a box read `name` where doubtful candidate `c` lay is another tile laid over
        its place: read under another name after a hand came over it since it was doubted. It
        is a new tile with the arm that laid it (fresh31 h714, engraved pips on a dotted cloth:
        the cloth beside the 5-6 boxed as a 1-1 fitting no end; Anna's 6-6, laid over that spot,
        took the phantom's place and the arm seen before it, Gleb's). A doubtful tile only read
        again, with no hand near, keeps its place and arm. So is a box no arm laid, seen on a
        frame or two, read otherwise after a hand came over it (fresh38 h878, big pips on a
        checked cloth: the cloth by 0-1's end boxed once as a blank 0-0; Anna's 0-6, laid there a
        second later, took its place and its first sighting, and went before Gleb's 5-5), or one
        given an arm but boxed unsurely, by a box the detector is sure of (`confidence`: its score)."""
        if not self._fresh or name is None or c.name is None or c.names[name]:
            # A name it was read under before is this tile read again (fresh44 h1010, pin: Boris's
            # 0-1 read 0-1 and 1-1 as often, doubted as the 1-1; read 0-1 after Anna's hand laid
            # 1-1 beside it, it was taken for a tile of hers).
            return False
        if c.doubt_since is not None:
            since = c.doubt_since
        elif c.seen <= LONE_SEEN and (c.edge is None or c.least_sure < UNSURE_BOX <= confidence):
            # An arm given it does not make a box the detector was unsure of a tile (fresh44
            # h1008, faint divider on a checked cloth: a dark square by 1-2's open end, boxed at
            # 0.05 as the closed 2-2 on the frame after Vera laid 1-2, took Gleb's 0-2, laid
            # there next, as her second tile of the visit). An unsure box is no tile laid over it
            # either (fresh40 h932, no divider: Boris's 2-6, boxed at under 0.4, then boxed 16 px
            # astray at 0.25 and read 0-2 as Vera's hand laid 4-5 beside it: his move was lost).
            since = c.last_t
        else:
            return False
        # A tile length: the hand's tip is where the motion reached deepest, its fingers (the tile
        # they hold) a little short of it or beside it.
        return self.arms.came_since(c.centre, since, 2 * c.reach / REACH_OF_HALF_SPAN)

    def _revive(self, t: float, c: Candidate) -> bool:
        """Whether new candidate `c` is a tile forgotten lately at its place under the same name:
        then it is that one again, with its first sighting and its arm (fresh live deal h110: a
        4-5 of a pin set read once, then lost by the detector on the next reading, forgotten
        over the next player's arm, and seen again as a new tile that arm laid). A tile is laid
        once; one read away and back where it lay is the same tile."""
        self._forgotten = [f for f in self._forgotten if t - f.last_t <= FORGOTTEN_S]
        # A tile boxed there, unread, on UNREAD_SEEN frames was that tile too, before the arm
        # now given it came (fresh37 h859, dark: Boris's 1-6 boxed unread for 0.6 s, lost under
        # Anna's hand laying 0-6 beside it, then read and taken for a second tile of hers).
        old = next((f for f in self._forgotten if c.name is not None and f.name in (c.name, None)
                    and dist(f.centre, c.centre) <= f.reach), None)
        if old is None:
            return False
        self._forgotten.remove(old)
        c.first_t, c.first_frame, c.edge, c.arm_t, c.laid_t = old.first_t, old.first_frame, old.edge, old.arm_t, old.laid_t
        c.rooted, c.episode_t, c.seen = old.rooted, old.episode_t, c.seen + old.seen
        c.names.update(old.names)
        c.reads[:0], c.seen_ts[:0] = old.reads, old.seen_ts
        log.debug("%s seen again where it was read before: the same tile", c.name)
        return True

    def _found_here(self, tile: TileObs, name: str | None) -> bool:
        """Whether a tile lies where one was read before anything moved over the table this
        deal, under a name read there then (or unread): a tile is laid by a hand, so what the
        camera found on the table is no move (fresh live deals h49, h62: a 0-0 read at 0.3 on a
        hand's row at the frame's edge, and in the boneyard's heap of white backs, became the
        opener and every move after it was lost). A clear other name there is a new tile."""
        if self._untouched:
            for centre, reach, seen in self._found:
                if dist(centre, tile.centre) <= reach:
                    seen.add(name)
                    return True
            self._found.append((tile.centre, max(tile.half_span, 1.0), {name}))
            return True
        return any(dist(centre, tile.centre) <= reach and name in seen for centre, reach, seen in self._found)

    def _presence(self, c: Candidate, t: float) -> float:
        """Share of the settled frames of the last stable_s in which the candidate was seen."""
        since = t - self.config.stable_s
        frames = sum(1 for x in self._recent if x >= since)
        return sum(1 for x in c.seen_ts if x >= since) / max(frames, 1)

    def _vote_attachment(self, obs: Observation, names: Names, c: Candidate, far: dict[int, int]) -> None:
        """Count which earlier tile this candidate touches on this frame (its `to`)."""
        # A tile played touches a move already made; failing that, a tile that appeared no later
        # (two tiles laid between two settled frames).
        earlier_names = {x.name for x in self._candidates.values()
                         if x is not c and x.first_t <= c.first_t and x.name is not None}
        own = names[c.index]

        def played(n) -> bool:
            return n is not None and n != own and n in self.committed and not self.committed[n].missing

        join = self.config.join_factor
        j = touching(obs, c.index, names, played, join)
        if obs.tiles[c.index].face == "down" and own is not None:
            # A closed double lies against the end whose double it is named (fresh31 h699: the
            # reader joined Boris's closed 5-5 to the 2-2 beside it, not to the 1-5 it closed).
            closes = closed_by(obs, c.index, names, played, join, set(self._ends()))
            j = closes if closes is not None else j
        if j is None:
            # Among new neighbours, the one nearer (in joins) to the moves already made: a
            # chain grows outward.
            linked = [k for k in obs.neighbours(c.index) if names[k] in earlier_names
                      and names[k] != own and names[k] not in self.committed]
            if linked:
                # A tile seen before this one was laid before it, whatever its distance from the
                # moves (fresh23 h521: the opener 1-1 not yet a move, Vera's 1-2 and Gleb's 2-4
                # seen together on it; the 1-2, touching both, was taken as laid against the 2-4,
                # the 2-4 against the 1-2, so their order was free and the arms went crosswise).
                older = {x.name for x in self._candidates.values()
                         if x is not c and x.first_t < c.first_t and x.name is not None}
                j = min(linked, key=lambda k: (names[k] not in older, far.get(k, math.inf)))
            else:
                j = touching(obs, c.index, names, lambda n: n is not None and n != own
                             and n not in self.committed and n in earlier_names, join)
        if j is None:
            j_name = self._against_unboxed(obs.tiles[c.index], c)
            if j_name is not None:
                c.to_votes[j_name] += 1
        if j is not None:
            c.to_votes[names[j]] += 1
        # A tile laid in a tight turn may touch a second move end to end, showing its value,
        # besides the one it was laid against (fresh live deal h420, spider: a 2-3 laid against
        # a 2-4 with its 3 on the end of a closed 3-3, the reader joining it to the 3-3 alone):
        # each counts, and the open ends decide which it was laid to (BYK-1.6).
        for k in beside(obs, c.index, names, played):
            if k != j:
                c.to_votes[names[k]] += 1

    def _lost_as_laid(self, c: Candidate) -> set[str]:
        """The moves unboxed since `c`'s arm came (or `c` was first seen): the hand that laid it,
        or the tile itself against theirs, hid them from the detector; they lie where last seen
        (fresh35 h812, no divider: the opener 0-0, a plain white tile, unboxed from the frame
        Boris laid 0-6 against it for 6 s; the 0-6 touched nothing boxed and was asked about)."""
        since = min(c.first_t, c.arm_t if c.edge is not None else c.first_t) - self.config.stable_s
        return {n for n, x in self.committed.items()
                if x.obs is not None and x.miss_t is not None and x.miss_t >= since}

    def _standing(self, c: Candidate) -> set[str]:
        """The moves `c` may have been laid against: those on the table, and those lost as it came."""
        return {n for n, x in self.committed.items() if not x.missing} | self._lost_as_laid(c)

    def _against_unboxed(self, tile: TileObs, c: Candidate) -> str | None:
        """The move lost as `c` came whose last box `tile` touches end to end (not over it)."""
        best, best_d = None, math.inf
        for n in self._lost_as_laid(c):
            placed = self.committed[n].obs
            d = joint_distance(tile, placed)
            reach = self.config.join_factor * max(tile.half_span, placed.half_span, 1.0)
            if d <= reach and d < best_d and not covers(tile, placed):
                best, best_d = n, d
        return best

    def _commit_ready(self, t, obs, names, out: Update) -> None:
        cfg = self.config
        ready: list[tuple] = sorted((
            (c.first_t, c.arm_t, key) for key, c in self._candidates.items()
            if c.index is not None
            and t - c.first_t >= cfg.stable_s
            and self._presence(c, t) >= cfg.presence
            and c.name is not None
            and c.names[c.name] >= cfg.min_reads
            # Its name must be clear (or it has waited long enough for a plurality to do).
            and (c.names[c.name] >= cfg.agree * c.named or t - c.first_t >= 3 * cfg.stable_s)
            and not self._waits_for_draw(t, c)
        ), key=lambda item: (*item[:2], self._candidates[item[2]].laid_t, item[2]))
        for _, _, key in ready:
            c = self._candidates[key]
            if self._laid_from_pile(c):
                player = self.calibration.seat_of_edge(c.edge)
                log.debug("%s's row lost no tile for %s: drawn from the pile and laid", player, c.name)
                self.draws.add_row_draw(c.first_t, player, c.arm_t - 1e-3)  # just before the play
        # A draw no arm was seen make went after its tile was last seen: where a drawn tile may be
        # laid at once (TRAD, SPI-1), before a tile whose arm came later and that appeared on the
        # same settled frame (fresh19 h429, spider: Anna drew and laid 1-1 in one unsettled
        # stretch, her hand hardly seen; the draw was written after the play and then lost).
        ready = sorted(ready + [(d.first_t, d.after_t if self.draw_in_turn and not math.isinf(d.after_t)
                                 else d.arm_t, d) for d in self.draws.pending],
                       key=lambda item: item[:2])
        # Tiles touching no tile of the layout, re-read meanwhile: a later tile of another arm
        # waits for them (fresh43 h995, pin: Boris's 0-5, lone while the 0-1 it lies on read 1-1,
        # was written after Vera's 0-2, laid after it; a circle of passes between). Not a misfit
        # or a tile fitting no end, more often a box of nothing (fresh26 h579: a 1-4 boxed over a
        # joint, misfit, held four tiles back, then fitted the ends they opened and was written).
        doubted: list[Candidate] = []
        progress = True
        while ready and progress:
            progress = False
            held_back: list[Candidate] = []  # tiles kept back this pass for one laid before them
            for item in list(ready):
                if isinstance(item[2], Draw):
                    if self._before_draw(t, item[2], item[:2], out):
                        break  # a tile laid before this draw is not a move yet: wait for it
                    if self._draw_out_of_turn(t, item[2], out):
                        break  # the move of the seat before may yet be found: see there
                    if self._out_of_turn_visit(item[2], out):
                        if t - item[2].first_t < OUT_OF_TURN_S:
                            break  # the pile may yet show the place it emptied
                        self.draws.pending.remove(item[2])
                        ready.remove(item)
                        log.info("an arm from %s over the boneyard, not the player to move, took "
                                 "nothing the pile shows: not a draw", item[2].edge)
                        progress = True
                        continue
                    told, by_rows = self._seat_by_rows(t, item[2])
                    if not told:
                        break  # no arm told who drew: the rows will, on the next frames
                    self._commit_draw(item[2], out, by_rows)
                    ready.remove(item)
                    progress = True
                    continue
                key = item[2]
                c = self._candidates[key]
                if self._earlier_unread(t, c, {i[2] for i in ready}) or any(
                        (h.first_t, h.arm_t) < (c.first_t, c.arm_t) and not self._laid_before(c, h)
                        for h in held_back) or any(self._waits_for_doubted(c, h) for h in doubted):
                    held_back.append(c)
                    continue  # a tile laid before it is still being read: the record keeps their order
                name, reason = self._plausible(t, c, out)
                if reason is not None:
                    # The rules doubt it: read it again on the next settled frames; if it stays
                    # doubtful, the operator is asked. Never a move, never passes, meanwhile.
                    ready.remove(item)
                    if c.doubt_since is None:
                        c.doubt_since = t
                        log.info("%s %s: reading it again", name, reason)
                    elif t - c.doubt_since >= cfg.doubt_s:
                        del self._candidates[key]
                        self._ask(t, c, name, reason, obs.tiles[c.index], out)
                        continue
                    if reason == LONE:
                        doubted.append(c)
                    continue
                live = self._standing(c)
                held = self.confirming.tiles()
                pending = {x.name for x in self._candidates.values() if x.name is not None} | held
                votes = [n for n, _ in c.to_votes.most_common() if n in live or n in pending]
                to = votes[0] if votes else None
                # Laid against a tile whose open end it fits, of those it touches (BYK-1.6).
                to = fitting_to(name, votes, self._ends(out)) or to
                if not self.committed and not held:
                    to = None  # the first of the deal opens it, whatever it touches
                elif not self.committed and to is None:
                    continue  # the opener is still to confirm: wait for the operator
                elif to is not None and to not in live:
                    continue  # it touches a tile that is not a move yet
                if to is None and live:
                    out.flags.append(LiveFlag(
                        "no-attachment", t,
                        f"{name} touches no tile of the layout: check the attachment", name,
                    ))
                del self._candidates[key]
                self._commit(t, c, name, obs.tiles[c.index], to, out)
                ready.remove(item)
                progress = True

    # --- the rules as a prior ---------------------------------------------------------------
    def _ends(self, out: Update | None = None) -> list[tuple[str, int]]:
        """The layout's open ends (tile, value): the engine's, plus the tiles written this frame
        (not in its record yet), whose values all count as open. Without the engine's view (none
        given, or the record and the table differ): the ends of the moves' own chain."""
        ends = self.open_ends() if self.open_ends is not None else None
        if ends is None:
            ends = chain_ends([(n, self.committed[n].to) for n in self.order if n in self.committed])
        new = [(e["tile"], e.get("to")) for e in (out.events if out is not None else []) if e.get("event") == "play"]
        return list(ends) + [(n, v) for n, to in new for v in _left_open(n, to)]

    def _doubt(self, name: str, c, out: Update) -> str | None:
        # A tile to confirm lies on the table too: tiles laid against it are judged by it (one
        # doubtful opener must not make every later tile doubtful).
        held = self.confirming.tiles()
        first = not self.committed and not held
        # A candidate or a tile to confirm read as a move's name is that tile seen twice, no tile
        # of its own to lay against (fresh27 h618: Anna's 3-4 read 1-4 beside Boris's 1-4, just
        # written, then held as a duplicate; her 3-4 read 1-3 passed as fitting the 1 of either).
        written = set(self.committed) | {e["tile"] for e in out.events if e.get("event") == "play"}
        pending = {x.name for x in self._candidates.values()
                   if x is not c and x.name is not None and x.first_t <= c.first_t} | held
        pending -= written
        if first and not out.events and self._cannot_open(name):
            return NO_END  # the deal cannot open with it (BYK-1.5, BLB-1, SPT)
        ends = self._ends(out)
        reason = doubt(name, ends, on_table=name in self.committed, first=first, pending=pending)
        if reason is None and not first:
            live = self._standing(c)
            touched = [n for n in c.to_votes if n in live or n in pending]
            if misfit(name, touched, ends, pending):
                return MISFIT
            if self._one_visit_refused(name, c):
                return ONE_VISIT if self.multi == "doubles" else ONE_TURN
            if not touched:
                # After the first tile every tile is laid against one (BYK-1.6): a box touching
                # none is something else on the cloth (fresh deal h243: a red pencil read 0-0 a
                # tile and a half from the chain, written as a play with no attachment).
                return LONE
        return reason

    def _one_visit_refused(self, name: str, c: Candidate) -> bool:
        """Whether `name` came in the same arm visit as a move written, where a turn is one tile
        (BYK-1.6) or only doubles go together (BAL-13): fresh live deal h468, Baltic: Boris laid
        4-6, and a back boxed at its 4 end in the same visit, named the closed 4-4, was written as
        his second tile, with a circle of passes nobody made between them."""
        if self.multi not in ("doubles", "one") or c.edge is None:
            return False
        # Where a turn is one tile (BYK-1.6), so is a visit: a second box of it the detector was
        # unsure of is doubtful (fresh31 h714, engraved pips on a dotted cloth: Boris laid 1-3,
        # and the cloth beside it, boxed at 0.38 as a 1-1 fitting its 1, was written as his second
        # tile with a circle of passes nobody made). Tiles boxed surely are not: several seen
        # together after arms unseen share an arm as often as not (fresh27 h615, striped cloth).
        if self.multi == "one" and c.least_sure >= UNSURE_BOX:
            return False
        if self._group is not None and self._group[0] == c.first_t and self._group[1] is not None:
            return False  # one of tiles seen together whose seats the rows tell, not the arm
        return any(visit == (c.arm_t, c.edge) and n in self.committed
                   and not (self.multi == "doubles" and Tile.parse(name).is_double and Tile.parse(n).is_double)
                   for n, visit in self._visits.items())

    def _cannot_open(self, name: str) -> bool:
        """The engine says the deal cannot open with `name` (BYK-1.5, BLB-1, SPT)."""
        return self.may_open is not None and not self.may_open(name)

    def _plausible(self, t: float, c, out: Update) -> tuple[str, str | None]:
        """The name to write for a ready tile and why the rules doubt it (None: they do not).
        A doubted name gives way to the one read clearly on the latest stable_s of readings."""
        name = c.name
        reason = self._doubt(name, c, out)
        if reason is None:
            return name, None
        recent = [n for ts, n in c.reads if n is not None and ts > t - self.config.stable_s]
        if len(recent) >= 2:
            best, k = Counter(recent).most_common(1)[0]
            if k >= self.config.agree * len(recent) and self._doubt(best, c, out) is None:
                log.info("%s read again as %s", name, best)
                return best, None
        return name, reason

    def _ask(self, t: float, c: Candidate, name: str, reason: str, tile: TileObs,
             out: Update, player: str | None = None) -> None:
        """A tile still doubtful after doubt_s: the operator is asked (`to_confirm`). `player`:
        whose it would be, where known better than by its arm's edge."""
        live = {n for n, x in self.committed.items() if not x.missing}
        votes = [n for n, _ in c.to_votes.most_common() if n in live]
        player = player or self.calibration.seat_of_edge(c.edge)
        item = ToConfirm(self.confirming.next_id(), name, reason, c.first_t,
                         player if player in self.players else None,
                         votes[0] if votes else None, tile.face, c.centre)
        self.confirming.held[item.id] = Held(item, c.centre, c.reach, c.edge, tile, t,
                                    [r for r in c.reads if r[0] > t - self.config.stable_s])
        if c.episode_t is not None:
            self.arms.spend_episode(c.episode_t)  # its arm laid this tile, whatever it is
        kind = "duplicate" if reason == SEEN_TWICE else "to-confirm"
        out.flags.append(LiveFlag(kind, t, f"to confirm: {item.message}", name, item.player))

    def _held_step(self, t: float, out: Update) -> None:
        """Tiles to confirm read clearly as a tile that fits, on the latest stable_s of readings,
        are moves."""
        cfg = self.config
        for key, best in self.confirming.read_clearly(t, stable_s=cfg.stable_s, gap_s=cfg.gap_s, agree=cfg.agree):
            on_table = best in self.committed
            first = not self.committed
            if first and self._cannot_open(best):
                continue  # read clearly, but the deal cannot open with it (BYK-1.5, BLB-1): the operator's
            if self.confirming.held[key].item.reason in (LONE, HOLDS_NONE, ONE_VISIT, ONE_TURN):
                continue  # however clearly read, it touches nothing, its player is out, or it came
                # with a tile it may not go with (BAL-13, BYK-1.6): the operator's
            ends = self._ends(out)
            to = self.confirming.held[key].item.to
            if (doubt(best, ends, on_table=on_table, first=first) is None
                    and not misfit(best, [to] if to and not first else [], ends)):
                log.info("the tile to confirm %s now reads clearly as %s", self.confirming.held[key].item.tile, best)
                out.events.extend(self.confirm(key, best))

    def _earlier_unread(self, t: float, c: Candidate, ready: set) -> bool:
        """A tile that appeared before `c`, still on the table (seen within gap_s), not ready (its
        name not yet clear: a face-down double, a tile read late) and not waiting longer than
        order_hold_s: it goes first, so a later tile read clearly does not overtake it in the record."""
        cfg = self.config
        # A tile read on two frames and lost since (forgotten or not yet: `_revive` may find it
        # again) was laid: it goes first too (fresh deal h167: a 0-1 with no divider read twice,
        # lost for 2.4 s, and the 1-4 laid after it written first).
        lost = [x for x in self._forgotten if x.name is not None and x.name not in self.committed]
        # One read clearly on two readings and boxed on and off holds longer (fresh29 h669, engraved:
        # Gleb's 2-3 read twice, then boxed on one settled frame in five; after 3 s Anna's 0-5 and
        # his own 5-6 were written before it, with a circle of passes between his two plays).
        if any(x is not c and x.doubt_since is None and t - x.first_t < cfg.order_hold_s
               and self._laid_before(x, c) for x in self._candidates.values()):
            return True
        return any(x is not c and k not in ready and (x.first_t, x.arm_t) < (c.first_t, c.arm_t)
                   and t - x.first_t < (CLEAR_HOLD_S if self._read_clearly(x) else cfg.order_hold_s)
                   and x.doubt_since is None
                   and (t - x.last_t <= cfg.gap_s or (x.seen >= 2 and x.name is not None))
                   for k, x in [*self._candidates.items(), *((None, x) for x in lost)])

    @staticmethod
    def _waits_for_doubted(c: Candidate, h: Candidate) -> bool:
        """Whether `c` waits for `h`, a tile touching no tile of the layout, read again
        meanwhile: `h` came first, laid by an arm seen at another seat's edge, and neither lies
        against the other (`h` may be lone for want of `c`: a tile seen late that it lies on)."""
        return ((h.first_t, h.arm_t) < (c.first_t, c.arm_t) and h.rooted and h.edge is not None
                and h.edge != c.edge and h.name not in c.to_votes and c.name not in h.to_votes)

    def _laid_before(self, x: Candidate, c: Candidate) -> bool:
        """Whether tile `x`, seen after `c`, was laid before it: the arm seen at its edge laying
        `x` had left before `c`'s came (fresh34 h790: Gleb's 3-5, unboxed for 3 s, was written
        after the 3-4 Anna laid after it)."""
        if x.edge is None or c.edge is None or not x.rooted or x.first_t <= c.first_t or x.arm_t >= c.arm_t:
            return False
        r = self.arms.given(x.edge, x.arm_t)
        return r is not None and r.end < c.arm_t

    def _read_clearly(self, c: Candidate) -> bool:
        """Its name read on min_reads readings at least, and as the agreed share of them."""
        k = c.names[c.name] if c.name is not None else 0
        return k >= self.config.min_reads and k >= self.config.agree * c.named

    def _waits_for_draw(self, t: float, c: Candidate) -> bool:
        """Whether a tile laid waits for the pile or the rows to tell whether a draw came before it."""
        cfg = self.config
        # The pile's sure holds end 3 stable periods after the tile appeared: past them (as for
        # every tile `_before_draw` asks about) only the pile's unsure place is looked at.
        young = t - c.first_t < 3 * cfg.stable_s
        # A tile gone from the boneyard before it appeared is written first.
        return ((young and self.bones.drop_since is not None and self.bones.drop_since <= c.first_t)
                # ... and one the pile alone says was drawn, until that is certain.
                or (self.draws.unsure_since is not None and self.draws.unsure_since <= c.first_t
                    and t - c.first_t < UNSURE_S + 3 * cfg.stable_s)
                # ... and one a row grew by as it appeared, until the rows tell whether it was a draw.
                or (young and self._row_rising(c.first_t))
                # ... and one whose player's row has not lost a tile for it yet (drawn and laid at once?)
                or (young and self._laid_from_pile(c) is None))

    def _before_draw(self, t: float, d: Draw, order: tuple[float, float], out: Update) -> bool:
        """A new layout tile, not yet a move, that came before draw `d` (waited for a while, or
        for as long as it waits on the pile: fresh16 h337, h355: a tile laid while a place of the
        pile lay empty waited 2 s for the pile to be sure, and the next player's draw, seen
        meanwhile, was written before it). One laid by the player to move, before the draw's
        place in the record's order (`order`), is waited for while the draw is younger than
        TURN_PENDING_S: the turn passes with that tile (fresh27 h618, faint divider: Boris's 1-5
        read for 6 s; of Anna's draws meanwhile the first was written as his, before it, and two
        dropped as not hers, SPI-1)."""
        to_move = self._in_turn(out) if t - d.first_t < TURN_PENDING_S else None
        return any(((c.first_t, c.arm_t) < (d.first_t, d.arm_t)
                    and (t - c.first_t < 3 * self.config.stable_s or self._waits_for_draw(t, c)))
                   or (to_move is not None and (c.first_t, c.arm_t) < order
                       and self.calibration.seat_of_edge(c.edge) == to_move)
                   for c in self._candidates.values())

    def _row_draws(self) -> None:
        """A row holding a tile more than the record gives its player, grown since their hand
        last changed there, is a draw no arm and no place of the pile showed (TRAD, DRK, BLB:
        a drawn tile joins the hand)."""
        if self.boneyard_size is None or self.mode != PLAY:
            return
        if sum(self._drawn.values()) + len(self.draws.pending) >= self._drawable:
            return
        for p in self.players:
            rose = self.rows_seen.rose(p, self._expected(p), self._hand_t.get(p, -math.inf),
                                       2 * self.config.stable_s)
            if rose is None or self.draws.explains(rose[0], p, self.calibration.seat_of_edge):
                continue
            # The hand came after the row's last frame before it grew; where a tile laid appeared
            # in the same gap, turn order tells which came first (fresh deal h175: north, to
            # move, drew while south's arm came to lay 0-1, on frames taken for unsettled).
            to_move = self._in_turn(Update()) == p
            self.draws.add_row_draw(rose[0], p, rose[1] if to_move else rose[0])

    def _laid_from_pile(self, c: Candidate) -> bool | None:
        """Whether a tile laid by an arm seen at a seated player's edge came from the boneyard
        straight to the table, no draw of theirs seen (`RowWatch.kept`); None while the rows
        cannot tell yet."""
        player = self.calibration.seat_of_edge(c.edge)
        # Only where a drawn tile may be laid in the same turn (draw until one fits: TRAD, SPI-1),
        # and not the deal's opener: where a draw ends the turn (BLB-2, DRK-2) a row that seems to
        # keep its tiles is the detector's (held-out h29, JPEG at quality 40: backs boxed twice).
        if (not self.draw_in_turn or not self.committed or self.boneyard_size is None or self.mode != PLAY
                or player not in self.players or not c.rooted
                or sum(self._drawn.values()) + len(self.draws.pending) >= self._drawable
                # a draw of theirs written just before is the tile laid (fresh deal h168: with a
                # seat the record had wrong earlier, the row's count alone made it two draws)
                or c.arm_t - self._drew_t.get(player, -math.inf) < DRAWN_LAID_S
                or any(d.player == player or self.calibration.seat_of_edge(d.edge) == player
                       for d in self.draws.pending)
                # ... or a tile the pile alone says left it before this one appeared, nobody's yet:
                # that tile, drawn and laid (fresh28 h629, JPEG 40: Anna drew 0-6 and laid it, her
                # hand unseen at the pile; its place and her row that kept its count made two draws)
                or any(d.player is None and d.edge is None and d.first_t <= c.first_t + ROW_SLACK_S
                       for d in self.draws.pending)):
            return False
        return self.rows_seen.kept(player, self._expected(player), self._hand_t.get(player, -math.inf),
                                   c.first_t, 2 * self.config.stable_s)

    def _row_rising(self, first_t: float) -> bool:
        """Whether a row began to hold a tile more than the record gives by `first_t` (a draw
        `_row_draws` may soon tell: the tile laid then waits for it, see h175's test)."""
        if self.boneyard_size is None or self.mode != PLAY:
            return False
        told = {d.player for d in self.draws.pending}
        return any((r := self.rows_seen.rising(p, self._expected(p), self._hand_t.get(p, -math.inf))) is not None
                   and r <= first_t + ROW_SLACK_S for p in self.players if p not in told)

    @property
    def _drawable(self) -> int:
        """Tiles that may be drawn this deal: the undealt, less those taken out unseen (SPI-1)."""
        return (self.boneyard_size or 0) - self.removed

    def _expected(self, player: str) -> int:
        """The tiles `player` holds as the record has it, in a deal with a boneyard."""
        dealt = (28 - (self.boneyard_size or 0)) // len(self.players)
        return dealt - sum(c.player == player for c in self.committed.values()) + self._drawn[player]

    def _seat_by_rows(self, t: float, d: Draw) -> tuple[bool, str | None]:
        """Who took a draw no arm from a seat was seen to take: the one row that holds a tile more
        than the record gives from then on (fresh deal h31: an arm into the corner of two edges).
        (False, None) while the rows cannot tell yet (up to a second), else (True, the player or
        None)."""
        if d.player is not None or self.boneyard_size is None or self.draw_in_turn:
            return True, None
        if self.calibration.seat_of_edge(d.edge) in self.players:
            return True, None
        more = [self.rows_seen.holds_more(p, self._expected(p), d.first_t) for p in self.players]
        if None in more and t - d.first_t < 2 * self.config.stable_s:
            return False, None
        grown = [p for p, m in zip(self.players, more, strict=True) if m]
        return True, grown[0] if len(grown) == 1 else None

    def _draw_out_of_turn(self, t: float, d: Draw, out: Update) -> bool:
        """Whether draw `d`, where a draw ends the turn (one after a miss: BLB-2, DRK-2), is by a
        seat not to move and young enough that the move of the seat before may yet be found: the
        pile shows a place a hand emptied unseen a second late, and that draw came first (fresh22
        h481, dark: Boris's draw, his arm too brief for a visit, found by its place after Anna's
        draw was written, and written after it)."""
        if not self.rows or self.boneyard_size is None or t - d.first_t >= OUT_OF_TURN_S:
            return False
        seat = d.player or self.calibration.seat_of_edge(d.edge)
        to_move = self._in_turn(out, draw_ends_turn=True)
        return seat in self.players and to_move is not None and seat != to_move

    def _out_of_turn_visit(self, d: Draw, out: Update) -> bool:
        """Whether draw `d` is only an arm seen over the boneyard from a seat not to move, where
        only the player to move draws (TRAD, SPI-1), and no place of the pile has shown it yet: a
        spectator's hand, or a player reaching across (fresh deal h285: a spectator's hand from
        north hovered over the pile and was written as the draw of south, to move)."""
        if not self.draw_in_turn or d.player is not None or self.draws.confirmed(d):
            return False
        seat = self.calibration.seat_of_edge(d.edge)
        to_move = self._in_turn(out)
        return seat in self.players and to_move is not None and seat != to_move

    def _commit_draw(self, d: Draw, out: Update, by_rows: str | None) -> None:
        """A tile taken from the boneyard: by the seat whose arm took it (or whose row it joined:
        `d.player`, or `by_rows` as `_seat_by_rows` told), else the one to move."""
        self.draws.pending.remove(d)
        if self.boneyard_size is not None and sum(self._drawn.values()) >= self._drawable:
            # Every tile that may be drawn is drawn already (fresh deal h31: a box lost at the
            # last place; h105: a draw seen twice with the one tile SPI-1 takes out left).
            log.info("a draw seen with the boneyard drawn to its last tile: not a draw")
            self.arms.undrawn(d.edge, d.arm_t)
            return
        if (self.boneyard_size is not None and d.player is None and math.isinf(d.arm_t)
                and sum(x.player is not None or not math.isinf(x.arm_t) for x in self.draws.pending)
                >= self._drawable - sum(self._drawn.values())):
            # Only the pile told it (a place found empty, no hand seen at it), and the draws an arm
            # or a row saw, waiting with it, take every tile the boneyard has left: of more draws
            # than tiles, the one nobody was seen to make was not made (fresh16 h337: a tile
            # drawn and put by the pile, taken for one of its places, laid from there; the last
            # draw, Anna's arm seen at the pile, came while that place was still unsure).
            log.info("a draw only the pile told, the boneyard's last tiles drawn by arms seen: not a draw")
            return
        player = d.player or by_rows or self.calibration.seat_of_edge(d.edge)
        if self.draw_in_turn:
            # Only the player to move draws, until a tile fits (TRAD, SPI): surer than an arm
            # into a corner, which two seats reach alike.
            player = self._in_turn(out) or player
        if player not in self.players:
            player = self._fallback_player()
            log.debug("no arm seen for a draw: turn order gives %s", player)
        if self.need_deal:
            out.events.append({"event": "deal"})
            self.need_deal = False
        out.events.append({"event": "draw", "player": player})
        self._drawn[player] += 1
        self._hand_t[player] = self._drew_t[player] = self.last_t
        self._last_player = player
        log.info("draw: %s takes a tile from the boneyard", player)

    def unsure_seats(self) -> set[str]:
        """The moves of this deal whose player no arm seen at its edge and no row witnessed."""
        return {n for n, c in self.committed.items() if not c.witnessed}

    def reassign(self, tile: str, player: str) -> None:
        """A move's player corrected after the fact (the recount's hands): its record follows."""
        if tile in self.committed:
            self.committed[tile].player = player

    def unwrite_draw(self, player: str) -> None:
        """A draw this tracker wrote that the record refused (the deal was over): not in the hand."""
        if self._drawn[player] > 0:
            self._drawn[player] -= 1

    def _commit(self, t: float, c: Candidate, name: str, tile: TileObs, to: str | None,
                out: Update) -> None:
        player = self.calibration.seat_of_edge(c.edge)
        witnessed = player in self.players and c.rooted
        grouped = self._seat_in_group(c)
        if grouped is not None:
            witnessed = True
            if grouped != player:
                log.debug("%s appeared with others: the rows give it to %s, not %s", name, grouped, player)
            player = grouped
        elif player in self.players and not c.rooted:
            # An arm never seen at its edge (a sleeve the colour of the table) was told by the way
            # it points; reaching across to the far side it may point the wrong way. One row alone
            # holding a tile fewer says better (held-out h19: west's arm told as east's), unless
            # the arm's seat is the one to move: then two witnesses outweigh a row's count (fresh
            # h77: a dark sleeve over dark wood seen in pieces, a black back in the shadow lost).
            fewer = self.rows_seen.shrank(c.first_t, self._move_before(c.first_t), self.players)
            if fewer is not None and fewer != player and player != (self._in_turn(out) or self._fallback_player()):
                log.debug("%s's arm was not seen at its edge: %s's row holds one tile fewer", name, fewer)
                player, witnessed = fewer, True
        elif player not in self.players:
            # No arm seen: the hand that holds one tile fewer since it appeared, else turn order
            # (which cannot know who passed where passes leave no trace: BLB, held-out h11).
            since = max((x.t for x in self.committed.values()), default=-math.inf)
            player = self._shrank_unlaid(c, since)
            if player is not None:
                # Counted over each reading once, the rows must say so too: a back missed on one
                # reading, reused on the still frames after, is no witness, and the hands shown
                # may correct the seat (fresh16 h340: Vera's dark arm never seen, her 0-2 given
                # to Anna, one of whose backs one reading missed).
                witnessed = self._shrank_unlaid(c, since, readings=True) == player
                log.debug("no arm seen for %s: %s's row holds one tile fewer (on each reading once: %s)",
                          name, player, witnessed)
            if not witnessed:
                # No row lost a tile, or only frames reusing one reading say so: turn order
                # (fresh28 h630 on a slow machine: Gleb's dark arm over the table's shadow never
                # seen, his 0-4 given to Boris, one of whose backs one reading missed).
                player = self._in_turn(out) or self._fallback_player()
                log.debug("no arm seen for %s, no row's witness: turn order gives %s", name, player)
        if self._holds_none(player):
            # A player who holds no tile lays none (BYK-1.9; without a boneyard each hand's count
            # is known: dealt less played): a box read after their last tile is asked about, never
            # written (fresh15 h333: a weak box on the cloth at the open 3 of the 3-5 that put Anna
            # out, named 3-3 face down by BAL-12's closed double, written as a play after the deal
            # ended; Vera's 3-3, shown, was then lost from her hand).
            log.info("%s holds no tile as the record has it: %s is asked about", player, name)
            self._ask(t, c, name, HOLDS_NONE, tile, out, player)
            return
        if c.episode_t is not None:
            self.arms.spend_episode(c.episode_t)
        # The arm's visit is this move's only where its seat laid it: a tile the rows or turn order
        # gave to another seat shares no visit with the tiles that arm laid (fresh33 h765, Baltic:
        # Boris's 3-3 and Vera's 3-4 seen together, one arm given both; the rows gave the 3-3 to
        # Boris, and Vera's 3-4, "a second tile of his visit", was asked about, the deal's last
        # moves with it).
        self._visits[name] = (c.arm_t, c.edge if player == self.calibration.seat_of_edge(c.edge) else None)
        if self.need_deal:
            out.events.append({"event": "deal"})
            self.need_deal = False
        event: dict = {"event": "play", "player": player, "tile": name}
        if to is not None:
            event["to"] = to
        face = tile.face if self.face_down else "up"  # read face down: a misread of a face-up tile
        if face == "up" and self.face_down and tile.values is None and c.down > c.read_up:
            # A closed double seen face down, its box unread face up on the frame it is written
            # (fresh40 h918, faint divider, Baltic: Anna's closed 6-6, BAL-12, written face up).
            face = "down"
        if face == "down":
            event["face"] = "down"
        out.events.append(event)
        self.committed[name] = Committed(name, player, to, face, c.first_t, t, tile, witnessed=witnessed)
        self._hand_t[player] = c.first_t
        self.order.append(name)
        self._last_player = player
        self._clear_since = None
        log.info("move: %s plays %s%s", player, name, f" to {to}" if to else "")

    def _holds_none(self, player: str) -> bool:
        """Whether `player` holds no tile, where the count is certain (no boneyard)."""
        if self.boneyard_size is not None or self.hand_size is None or not self.committed:
            return False
        return (self.expected_hands() or {}).get(player, 1) <= 0

    def _move_before(self, first_t: float) -> float:
        """When the last move before a tile first seen at `first_t` appeared (-inf: none yet)."""
        return max((x.t for x in self.committed.values() if x.t < first_t), default=-math.inf)

    def _shrank_unlaid(self, c: Candidate, since: float, readings: bool = False) -> str | None:
        """The one player whose row holds fewer tiles from `c`'s first sighting on than just after
        `since`, less the tiles an arm seen at that player's edge laid meanwhile: their row lost
        those (fresh35 h813, faint divider: Boris's 0-4, laid by an arm never seen, boxed with
        Vera's 3-5 on one frame, went to Vera, whose row was one short for her own tile; Boris's
        row, taken from the frame after the move before, showed no loss)."""
        laid = Counter(self.calibration.seat_of_edge(x.edge) for x in self._candidates.values()
                       if x is not c and x.rooted and x.edge is not None and since <= x.first_t <= c.first_t)
        return self.rows_seen.shrank(c.first_t, since, self.players, readings=readings, laid=laid)

    def _seat_in_group(self, c: Candidate) -> str | None:
        """The seat of a tile that appeared with others on one settled frame, where the rows tell
        who laid them and the arms tell otherwise (rows.seats_of_group); the tiles take those
        seats in turn order, in the order they are written (the chain's). A tile whose own arm,
        seen at its edge, names a seat no other tile of the group's does, and whose row lost a
        tile, keeps that seat, and the others take the rest (fresh37 h859, dark: Boris's 0-5,
        its arm unseen, and Anna's 2-2 from her edge, seen together; both rows one fewer, and by
        turn order, a turn holding several tiles (DRK-3), the 0-5 went to Anna and the 2-2 to
        Boris). None: the arm's stands."""
        if self._group is None or self._group[0] != c.first_t:
            others = [x for x in self._candidates.values() if x.first_t == c.first_t and x.name is not None]
            if not others:
                self._group = None
                return None
            # (one frame before will do: the table may not settle between the move before and these)
            losses = self.rows_seen.losses(c.first_t, self._move_before(c.first_t), self.players,
                                           before_s=GROUP_BEFORE_S,
                                           still_s=GROUP_STILL_S, least=1)
            seats = seats_of_group(losses,
                                   [self.calibration.seat_of_edge(x.edge) for x in (c, *others)])
            last = self.committed[self.order[-1]].player if self.order else None
            named = Counter(self._own_arm(x) for x in (c, *others))
            self._group = (c.first_t, seats, last, {p for p, k in named.items() if p is not None and k == 1})
        _, seats, last, own = self._group
        if seats is None or sum(seats.values()) == 0:
            return None
        mine = self._own_arm(c)
        if mine in own and seats[mine] > 0:
            seats[mine] -= 1
            return mine
        claimed = Counter(p for x in self._candidates.values()
                          if x is not c and x.first_t == c.first_t and (p := self._own_arm(x)) in own)
        free = seats - claimed
        pool = free if sum(free.values()) > 0 else seats
        again = not self.arms.one_per_arm or last is None
        if last is None:
            last = self._opener_in_group(c, pool)
        player = in_turn_order(pool, self.players, last, again)
        seats[player] -= 1
        return player

    def _opener_in_group(self, c: Candidate, pool: Counter) -> str | None:
        """Of the deal's first tiles, seen together, the seat that laid the first: of the group's
        seats, the one whose last arm before the tiles came first (fresh39 h902, no divider:
        Boris's blank 0-0 went unboxed until Gleb's hand, laying 0-5 beside it, passed over it;
        both rows one fewer, and Gleb's arm, the one seen at the 0-0, was given the opening), else
        the first tile's own arm. A seat's last arm: the hands that shuffled and took the tiles
        came before it."""
        came: dict[str, float] = {}
        for r in self.arms.laid_between(c.first_t - self.config.reach_window_s, c.first_t):
            seat = self.calibration.seat_of_edge(r.edge)
            if r.rooted and pool[seat] > 0:
                came[seat] = r.start
        if came:
            return min(came, key=came.__getitem__)
        opener = self.calibration.seat_of_edge(c.edge)
        return opener if pool[opener] > 0 else None

    def _own_arm(self, c: Candidate) -> str | None:
        """The seat of the arm seen at its edge laying `c` (None: none seen there)."""
        seat = self.calibration.seat_of_edge(c.edge) if c.rooted else None
        return seat if seat in self.players else None

    def _in_turn(self, out: Update, draw_ends_turn: bool = False) -> str | None:
        """Who is to move, counting the events of this frame not yet in the engine's record (a
        draw keeps the turn: draw until a tile fits; or ends it: one after a miss, BLB-2, DRK-2)."""
        last = next((e for e in reversed(out.events) if e.get("event") in ("play", "draw")), None)
        if last is not None and last.get("player") in self.players:
            if last["event"] == "draw" and not draw_ends_turn:
                return last["player"]
            return self.players[(self.players.index(last["player"]) + 1) % len(self.players)]
        nxt = self.to_move() if self.to_move is not None else None
        return nxt if nxt in self.players else None

    def _fallback_player(self) -> str:
        if self.to_move is not None:
            nxt = self.to_move()
            if nxt in self.players:
                return nxt
        if self._last_player in self.players:
            return self.players[(self.players.index(self._last_player) + 1) % len(self.players)]
        return self.players[0]

    # --- recount ---------------------------------------------------------------------------
    def _check_recount(self, t: float, obs: Observation) -> None:
        if not self.committed:
            return
        hands = hand_tiles(obs, self.committed, self.calibration)
        # Hands laid out for the recount are read surely: a die in a corner read as a 1-0 at 0.2
        # (fresh deal h140), face up at one seat for two seconds, starts none.
        sure = {tile.name for tile in obs.tiles if tile.confidence >= RECOUNT_SURE}
        hands = {name: player for name, player in hands.items() if name in sure}
        # A hand laid out for the recount is turned up: where a row of backs, more than the
        # face-up tiles, still lies at a seat, its face-up box is no hand shown (fresh15 h323: a
        # box in the gap a tile left in east's row read 4-4 off the cloth's pattern, face up at
        # one seat for 2 s, started the recount after the third play; every move after it lost).
        # In every variant: whatever the rules, hands lie as face-down rows until shown (and
        # where they are not turned up in play, not BLB or DRK, a hand is shown whole).
        seats = rows_turned_up(obs, hands, self.calibration, ROW_LEFT if self.rows else 1)
        # A blank face with no divider looks like a plain back (JPEG, a no-divider set): a seat
        # whose only face-up tile is the 0-0 shows no hand by itself (fresh15 h314, JPEG 40: one
        # of Anna's backs read 0-0 beside her last back, her third tile unboxed, from the 16th play).
        seats -= {p for p in seats if {n for n, q in hands.items() if q == p} == {BLANK}}
        if self.recount.wants_recount(t, seats, len(self.players), self.expected_hands(), rows=self.rows,
                                      recount_seats=self.config.recount_seats, stable_s=self.config.stable_s):
            self.start_recount(t)

    def _recount_step(self, t: float, obs: Observation) -> Update:
        cfg = self.config
        if self.recount.since is None:
            self.recount.since = t
        if not any(tile.face == "up" for tile in obs.tiles):
            # The table was cleared: reveal what was read if the hands held still, else ask.
            self._clear_since = t if self._clear_since is None else self._clear_since
            if t - self._clear_since >= cfg.stable_s:
                if self.recount.last_held is not None:
                    out = self._reveal(t, self.recount.last_held)
                    self.new_deal()
                    self.need_deal = True
                    return out
                log.info("table cleared during the recount: reveal the hands on /operator")
                self.new_deal()
                self.need_deal = True
                return Update(flags=[LiveFlag(
                    "recount", t, "the table was cleared before the hands could be read: "
                    "enter the hands on /operator")])
            return Update()
        self._clear_since = None
        self.recount.seen = {tile.name for tile in obs.tiles if tile.name is not None}
        self.recount.backs = sum(tile.face == "down" and tile.owner != LAYOUT for tile in obs.tiles)
        counts = self._hand_counts()
        hands = blank_off_pile(hand_tiles(obs, self.committed, self.calibration), obs, self.bones.holds)
        hands = blank_in_hand(obs, hands, self.committed, self.calibration, counts)
        centres = {tile.name: tile.centre for tile in obs.tiles
                   if tile.name in hands and self.calibration.seat_of_point(tile.centre) == hands[tile.name]}
        hands = to_counts(hands, centres, counts, self.calibration)
        found = self.recount.hands(t, hands, self.players, self.expected_hands(), cfg.stable_s)
        if found is None:
            return Update()
        return self._reveal(t, found[0])

    def _hand_counts(self) -> dict[str, int] | None:
        """The tiles each hand holds as the record has it: with a boneyard, the draws counted
        (fresh live deal h465, spider: a pile back by Anna's one tile named the 0-0 of her hand,
        her count unknown to the recount)."""
        if self.boneyard_size is not None:
            return {p: self._expected(p) for p in self.players}
        return self.expected_hands()

    def _reveal(self, t: float, by_player: dict[str, list[str]]) -> Update:
        counts = self._hand_counts()
        undrawn = 0
        if self.boneyard_size is not None:
            undrawn = self.boneyard_size - sum(self._drawn.values())
        # (undrawn counts a tile taken out unseen, SPI-1: never known.) A back out of the layout:
        # the boneyard is not empty, or a hand is not all turned up; the tiles left are not known.
        undrawn = max(undrawn, self.recount.backs)
        accounted = (set(self.committed) | self.confirming.tiles() | self.recount.seen
                     | {tile for tiles in by_player.values() for tile in tiles})
        by_player, left = by_elimination(by_player, counts, accounted, undrawn)
        inferred = {p: left for p in self.players if left and set(left) <= set(by_player[p])}
        out = reveal(t, by_player, self.players, counts, inferred=inferred)
        self.mode = REVEALED
        self._clear_since = None
        self.recount.last_held = None
        return out

    def _revealed_step(self, t: float, obs: Observation, names: Names) -> Update:
        """After the recount: wait for the table to be cleared, then a new deal."""
        old_layout = any(n in self.committed or n in self._stale for n in names if n is not None)
        if any(tile.face == "up" for tile in obs.tiles) and old_layout:
            self._clear_since, self._clear_frames = None, 0
            return Update()
        # Cleared: no face-up tile (a face-down pile being shuffled is fine), or none of the old
        # layout left (the next deal began quickly), for stable_s or three settled frames.
        self._clear_since = t if self._clear_since is None else self._clear_since
        self._clear_frames += 1
        if t - self._clear_since >= self.config.stable_s or self._clear_frames >= 3:
            log.info("table cleared: the next tile opens a new deal")
            opened = self._opened
            self.new_deal()
            self.need_deal = not opened
            if not old_layout:
                return self._play_step(t, obs, names)
        return Update()
