"""The players' face-down hands as the camera counts them, settled frame by settled frame: whose
row lost a tile when a tile was laid that no arm was seen to lay (a sleeve the colour of the
table, a forearm out of the picture). A player who lays a tile holds one fewer; counted over
several frames on each side (since the move before, and once the tile lies), one misdetected
back cannot decide it."""

from __future__ import annotations

import math
from collections import Counter
from statistics import median

from vision.live.calibration import TableCalibration
from vision.live.observation import BONEYARD, LAYOUT, Observation, Point, TileObs

KEEP_S = 12.0  # how far back the counts are kept
FRAMES = 5  # settled frames counted on each side of a tile's arrival, at most
# ... before tiles that appeared together: the frames this soon after the move before, since a
# quick player's arm takes the next tile from the row soon after (held-out h28: 0.2 s; a count of
# frames would reach past it where reading fell behind and frames went unread)
GROUP_BEFORE_S = 0.25
# ... and after them, the frames before anyone moves again (live-eval s24: the next player took
# a tile from her row while the two lay there, and her loss was counted as theirs); a gap this
# long between settled frames is an arm (reading that fell behind leaves shorter ones)
GROUP_STILL_S = 0.5
APART = 3.0  # tile lengths: a back this far from every other of its seat's is in no row
CLEAR = 0.85  # a row whose boxes have this median confidence shows what its backs look like
WEAK = 0.85  # ... and a box under this share of that median is no back


def _backs(confidences: list[float]) -> int:
    """The backs in one row, from the confidences of its boxes. A box far weaker than the others
    of a clearly seen row is no back: the detector puts one in the gap a tile just left (held-out
    h28: 0.35 to 0.71 against 0.88 to 0.95). Only there: a set's backs may all be boxed weakly
    and unevenly (black tiles, h11: 0.3 to 0.86), and there every box counts."""
    middle = median(confidences) if len(confidences) >= 3 else 0.0
    if middle < CLEAR:
        return len(confidences)
    return sum(c >= WEAK * middle for c in confidences)


def _near(x: TileObs, p: Point) -> bool:
    return math.dist(x.centre, p) <= APART * 2 * max(x.half_span, 1.0)


def _in_row(backs: list[TileObs], seen: list[Point]) -> list[TileObs]:
    """The boxes of one seat's row: of three or more, a box APART tile lengths from every other
    is something else on the cloth (fresh36 h836, black tiles: a blue pen at the left border,
    boxed as a back at 0.65-0.71 and given to Boris, counted in his row once the row's own boxes
    were weak; his row "kept" its tiles after he laid 2-5, and a draw nobody made was written).
    Where the row was seen before (`seen`: where its backs lay this deal), that tells instead: a
    box as far from all of those is not in it, however few boxes the row has now (h836 again:
    down to one back, the pen made two, and his row "kept" its tile after he laid 0-4), and one
    near them is, however far from the boxes of this frame (fresh37 h859, dark: Boris's last
    back at the far end of his row, the tiles between played, left out; his row lost two for
    one tile laid, and Anna's 2-2 was given to him)."""
    if seen:
        near = [x for x in backs if any(_near(x, p) for p in seen)]
        if near:
            return near
        # None near where the row lay, three or more in a row of their own: the row moved (a
        # player squared up the hand, a real table; the renderer never moves one), and counts
        # from here on. One or two boxes far from it are a pen or a cup, not the row.
        moved = _in_own_row(backs)
        return moved if len(moved) >= 3 else []
    if len(backs) < 3:
        return backs
    return _in_own_row(backs)


def _in_own_row(backs: list[TileObs]) -> list[TileObs]:
    """The boxes within APART tile lengths of another of them."""
    return [x for x in backs if any(_near(x, o.centre) or _near(o, x.centre) for o in backs if o is not x)]


class RowWatch:
    """Face-down tiles in front of each seated player on the settled frames of play."""

    def __init__(self) -> None:
        self._counts: list[tuple[float, Counter]] = []
        self._reused: set[float] = set()  # the settled frames that reused the reading before
        self._seen: dict[str, list[Point]] = {}  # where each seat's backs lay this deal, rows of three or more

    def reset(self) -> None:
        self._counts.clear()
        self._reused.clear()
        self._seen.clear()

    def update(self, t: float, obs: Observation, calibration: TableCalibration, fresh: bool = True) -> None:
        """One settled frame's counts; `fresh=False`: the frame reuses the reading before (the
        pipeline reuses one on still frames for a while)."""
        rows: dict[str, list[TileObs]] = {}
        for tile in obs.tiles:
            if tile.owner in (LAYOUT, BONEYARD) or tile.face != "down":
                continue
            player = calibration.seat_of_point(tile.centre)
            if player is not None:
                rows.setdefault(player, []).append(tile)
        counts: Counter = Counter()
        for p, row in rows.items():
            kept = _in_row(row, self._seen.get(p, []))
            counts[p] = _backs([x.confidence for x in kept])
            if len(kept) >= 3:
                self._remember(p, kept)
        self._counts = [(ts, c) for ts, c in self._counts if ts >= t - KEEP_S] + [(t, counts)]
        self._reused = {ts for ts in self._reused if ts >= t - KEEP_S} | (set() if fresh else {t})

    def _remember(self, player: str, backs: list[TileObs]) -> None:
        seen = self._seen.setdefault(player, [])
        if seen and not any(_near(x, p) for x in backs for p in seen):
            seen.clear()  # the row moved: where it lay before tells nothing now
        for x in backs:
            if all(math.dist(x.centre, p) > x.half_span for p in seen):
                seen.append(x.centre)

    def losses(self, first_t: float, since_t: float, players: list[str], *, before_s: float | None = None,
               still_s: float | None = None, least: int = 2, readings: bool = False) -> Counter | None:
        """How many tiles fewer each player's row holds from `first_t` on (a tile's first settled
        frame) than just after `since_t` (when the move before it appeared: the player took the
        tile from the row in between, perhaps on frames settled while the arm went unseen), over
        up to FRAMES frames before (of those within `before_s` after `since_t`) and FRAMES after
        (with `still_s`: before the next arm, see `_after`); None when fewer than `least` were
        counted before or two after. With `readings`, each reading of those frames counts once
        (a frame that reused the reading before, none)."""
        # no move before (the deal's first tiles): the frames just after the deal began (the
        # counts are kept in time order)
        start = since_t if since_t > -math.inf or not self._counts else self._counts[0][0]
        before = [(ts, c) for ts, c in self._counts
                  if since_t <= ts < first_t and (before_s is None or ts < start + before_s)][:FRAMES]
        if before_s is None:
            # The earlier half: an arm the gate did not see may have taken the tile from the row
            # on frames it took for settled (fresh live deal h91: a bare arm over a pine table,
            # the row 5, 5 then 4, 4 before the tile appeared).
            before = before[:max(least, (len(before) + 1) // 2)]
        after = self._after(first_t, still_s)
        if len(before) < least or len(after) < 2:
            return None
        if readings:
            before, after = ([(ts, c) for ts, c in side if ts not in self._reused] for side in (before, after))
            if not before or not after:
                return None
        out: Counter = Counter()
        for p in players:
            fewer = int(median(c[p] for _, c in before) - median(c[p] for _, c in after))
            if fewer > 0:
                out[p] = fewer
        return out

    def _after(self, first_t: float, still_s: float | None) -> list[tuple[float, Counter]]:
        """Up to FRAMES (time, counts) from `first_t` on; with `still_s`, only while the table
        stays settled: up to the first gap longer than that (an arm came in between)."""
        out: list[tuple[float, Counter]] = []
        last = first_t
        for ts, c in self._counts:
            if ts < first_t:
                continue
            if still_s is not None and ts - last > still_s:
                break
            out.append((ts, c))
            last = ts
        return out[:FRAMES]

    def rose(self, player: str, expected: int, since_t: float, hold_s: float) -> tuple[float, float] | None:
        """When `player`'s row came to hold one tile more than the `expected` (their hand as the
        record has it since `since_t`) and has held exactly that ever since, on three settled
        frames over `hold_s` at least, having held the expected count on the frames before: the
        first frame holding it and the last frame before (it grew in between); None when it has
        not. A jump by two, or a row that never agreed with the record, is the detector's
        (held-out h29, JPEG at quality 40: backs boxed twice). The frames before are counted over
        twice FRAMES: a back at the picture's edge lost on the last few frames before is no
        change of hand (fresh deal h175: 7 on nine frames, 6 on the three before the draw)."""
        run, last_before = self._grown(player, expected, since_t)
        if len(run) < 3 or run[-1] - run[0] < hold_s:
            return None
        return run[0], last_before

    def kept(self, player: str, expected: int, since_t: float, first_t: float, hold_s: float) -> bool | None:
        """Whether `player`'s row, holding `expected` on the frames before a tile they laid first
        appeared at `first_t` (since `since_t`, over up to twice FRAMES frames), still held as many
        on two frames or more over `hold_s` after (players who move on at once leave a settled
        frame a move, 1.3 s apart in h186): the tile came from elsewhere, a draw laid at
        once (fresh deal h186: a tile taken from the pile's part out of the picture, by a hand
        hardly seen at the picture's edge, and laid). False when the row lost a tile on any frame
        since, or did not hold `expected` before; None while it cannot tell yet."""
        before = [c[player] for ts, c in self._counts if since_t <= ts < first_t][-2 * FRAMES:]
        after = [(ts, c[player]) for ts, c in self._counts if ts >= first_t]
        if not before or median(before) != expected or any(n < expected for _, n in after):
            return False
        if len(after) >= 2 and after[-1][0] - after[0][0] >= hold_s:
            return all(n == expected for _, n in after)
        return None

    def rising(self, player: str, expected: int, since_t: float) -> float | None:
        """When `player`'s row began to hold one tile more than `expected` on the latest settled
        frames, not yet long enough for `rose` to tell a draw; None when it does not."""
        run, _ = self._grown(player, expected, since_t)
        return run[0] if run else None

    def _grown(self, player: str, expected: int, since_t: float) -> tuple[list[float], float]:
        """The latest settled frames on which `player`'s row holds `expected` + 1, having held
        `expected` before (`_agreed`, over up to twice FRAMES frames), and the last frame before
        them; ([], -inf) when it does not."""
        seen = [(ts, c[player]) for ts, c in self._counts if ts >= since_t]
        k = len(seen)
        while k > 0 and seen[k - 1][1] == expected + 1:
            k -= 1
        # Each reading once: a frame that reused the reading before is no second witness (fresh18
        # h398: one reading of Boris's row, a pile back among it, agreed with the record only
        # because his draw was written before the tile reached the row; reused, it passed for two).
        before = [n for ts, n in seen[:k] if ts not in self._reused][-2 * FRAMES:]
        if k == len(seen) or not _agreed(before, expected):
            return [], -math.inf
        return [ts for ts, _ in seen[k:]], seen[k - 1][0]

    def holds_more(self, player: str, expected: int, from_t: float) -> bool | None:
        """Whether `player`'s row holds more than `expected` tiles on the settled frames from
        `from_t` on (their median); None before two such frames."""
        after = [c[player] for _, c in self._after(from_t, None)]
        return None if len(after) < 2 else median(after) > expected

    def shrank(self, first_t: float, since_t: float, players: list[str], readings: bool = False,
               laid: Counter | None = None) -> str | None:
        """The one player whose row holds fewer tiles from `first_t` on than just after `since_t`
        (see `losses`; `readings`: each reading once), less the tiles `laid` meanwhile by arms
        seen at each seat's edge (their rows lost those); None when no row, or more than one, did."""
        fewer = self.losses(first_t, since_t, players, readings=readings)
        if fewer is not None and laid:
            fewer -= laid
        return next(iter(fewer)) if fewer is not None and len(fewer) == 1 else None


def _agreed(before: list[int], expected: int) -> bool:
    """Whether a row's counts on the frames before a change agree with the record's `expected`:
    held on a third of them (two at least), more on fewer. Fewer is a back lost for a while, not a
    tile given (fresh deal h254, JPEG at quality 40: a row read 9 and 8 by turns while its
    player's arm, out of the picture, drew and covered its end; then 10: the draw)."""
    held = sum(n == expected for n in before)
    return held >= max(2, len(before) / 3) and sum(n > expected for n in before) < held


def seats_of_group(losses: Counter | None, arm_seats: list[str | None]) -> Counter | None:
    """The seats of the tiles that appeared together on one settled frame (players quick after
    one another, their arms seen as one or not at all), where the rows tell them and the arms
    do not: the rows lost exactly as many tiles as appeared, and the arms' seats are not those
    rows (held-out h19, h22, h28: one arm given every tile of a visit two players made). None:
    the arms stand."""
    if not losses or sum(losses.values()) != len(arm_seats) or len(arm_seats) < 2:
        return None
    if None not in arm_seats and len(set(arm_seats)) == len(arm_seats):
        # An arm of its own for each tile, each from another seat: two rows miscounted is likelier
        # than two arms wrong (fresh live deal h86: black backs, two rows read one short).
        return None
    arms = Counter(s for s in arm_seats if s is not None)
    return None if arms == losses else Counter(losses)


def in_turn_order(seats: Counter, players: list[str], last: str | None, again: bool) -> str:
    """The first of `seats` to move after `last` went (`again`: the same player may go on, where
    a turn may hold several tiles): of tiles that appeared together, the one laid first (the
    chain puts it first) is the turn's."""
    start = players.index(last) if last in players else 0
    steps = range(0 if again or last not in players else 1, len(players) + 1)
    for k in steps:
        p = players[(start + k) % len(players)]
        if seats[p] > 0:
            return p
    raise ValueError("no seat left in the group")
