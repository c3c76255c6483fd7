"""The table's physics and the rules as a prior on what the camera reads (no pixels here).

A reading becomes a move only if it could be one:

- **One tile per place.** Tiles do not overlap: a box whose halves lie on tiles already played (a
  detector's phantom double across the joint of two touching tiles, a second box on one tile) is
  not a new tile (`overlaps`).
- **The rules.** A tile that fits no open end of the layout (BYK-1.6, a joint shows the same value
  on both halves), or none of the tiles it was seen touching (`misfit`), or is already in the
  layout (SET-DUP: each tile of the set once), is doubtful (`doubt`): it is re-read on later
  settled frames, and if it stays doubtful the operator is asked (`ToConfirm`) instead of a move
  being written. A doubtful tile never makes passes.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from engine.tiles import Tile
from vision.live.observation import TileObs

NO_END, SEEN_TWICE, MISFIT, LONE, HOLDS_NONE = "no-end", "seen-twice", "misfit", "lone", "holds-none"
ONE_VISIT, ONE_TURN = "one-visit", "one-turn"
# What the operator is told, with the rule it comes from.
REASONS = {
    NO_END: "fits no open end of the layout (BYK-1.6: a joint shows the same value on both sides)",
    MISFIT: "fits none of the tiles it touches (BYK-1.6: a joint shows the same value on both sides)",
    SEEN_TWICE: "is already on the table (SET-DUP: each tile of the set is played once)",
    LONE: "touches no tile of the layout (BYK-1.6: a tile is laid against an open end)",
    HOLDS_NONE: "laid by a player whose hand is empty (BYK-1.9: a player who empties the hand is out)",
    ONE_VISIT: "laid by the same hand as the tile before it, in one visit (BAL-13: only doubles go together)",
    ONE_TURN: "laid by the same hand as the tile before it, in one visit (BYK-1.6: one tile a turn)",
}
RULE_OF = {SEEN_TWICE: "SET-DUP", HOLDS_NONE: "BYK-1.9", ONE_VISIT: "BAL-13", ONE_TURN: "BYK-1.6"}


@dataclass(frozen=True)
class ToConfirm:
    """A tile the camera saw laid but that the rules say cannot be there as read: the operator
    confirms it, corrects its name, or says it is not a tile. Never in the record until then."""

    id: int
    tile: str  # the name read most often
    reason: str  # NO_END, MISFIT, LONE, HOLDS_NONE, ONE_VISIT, ONE_TURN or SEEN_TWICE
    t: float  # when it first appeared
    player: str | None  # the seat of the arm that laid it (a guess)
    to: str | None  # the move it touches (a guess)
    face: str
    centre: tuple[float, float]

    @property
    def message(self) -> str:
        return f"{self.tile} {REASONS.get(self.reason, self.reason)}: confirm, correct or not a tile"

    def to_dict(self) -> dict:
        return {"id": self.id, "tile": self.tile, "reason": self.reason, "t": self.t,
                "player": self.player, "to": self.to, "face": self.face,
                "centre": [round(float(c), 1) for c in self.centre],
                "message": self.message, "rule": RULE_OF.get(self.reason, "BYK-1.6")}


HALF_ON_PLAYED = 0.5  # a box this much over played tiles is no new tile (fresh30 h679, groove)


def _inside(p: tuple[float, float], tile: TileObs, shrink: float) -> bool:
    """Whether point `p` lies on `tile`: its footprint is two squares of side half_span around
    the half centres (long side 2s, short side s), shrunk by `shrink` for jitter."""
    (x1, y1), (x2, y2) = tile.halves
    s = max(tile.half_span, 1.0)
    ux, uy = (x2 - x1) / s, (y2 - y1) / s
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = p[0] - cx, p[1] - cy
    along = abs(dx * ux + dy * uy)
    across = abs(-dx * uy + dy * ux)
    return along <= shrink * s and across <= shrink * s / 2


def _body_points(tile: TileObs, along: int = 8, across: int = 4) -> list[tuple[float, float]]:
    """Points spread evenly over `tile`'s footprint (cell centres of an along x across grid)."""
    (x1, y1), (x2, y2) = tile.halves
    s = max(tile.half_span, 1.0)
    ux, uy = (x2 - x1) / s, (y2 - y1) / s
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    out = []
    for i in range(along):
        a = s * (2 * (i + 0.5) / along - 1)
        for j in range(across):
            b = s / 2 * (2 * (j + 0.5) / across - 1)
            out.append((cx + a * ux - b * uy, cy + a * uy + b * ux))
    return out


def covered_share(tile: TileObs, placed: list[TileObs]) -> float:
    """The share of `tile`'s footprint lying on tiles already played."""
    # A footprint reaches at most 1.12 half spans from its centre: only tiles that near can share it.
    s = max(tile.half_span, 1.0)
    near = [p for p in placed if math.dist(p.centre, tile.centre) <= 1.2 * (s + max(p.half_span, 1.0))]
    if not near:
        return 0.0
    points = _body_points(tile)
    return sum(any(_inside(q, p, 1.0) for p in near) for q in points) / len(points)


def overlaps(tile: TileObs, placed: list[TileObs], shrink: float = 0.8) -> bool:
    """Whether `tile` lies over tiles already played: its centre on one, each half on one (a
    box across the joint of two touching tiles), or half its footprint on them (a box over a
    played tile's half and the gap beyond). A tile laid against a played one touches it only
    at an edge: none of its half centres lies on it, and little of its body."""
    if not placed:
        return False
    if any(_inside(tile.centre, p, shrink) for p in placed):
        return True
    if all(any(_inside(h, p, shrink) for p in placed) for h in tile.halves):
        return True
    return covered_share(tile, placed) >= HALF_ON_PLAYED


def covers(tile: TileObs, placed: TileObs, shrink: float = 0.8) -> bool:
    """Whether `tile` lies partly on the played tile `placed`: its centre or a half centre on it."""
    return any(_inside(p, placed, shrink) for p in (tile.centre, *tile.halves))


def doubt(name: str, ends: list[tuple[str, int]] | None, *, on_table: bool, first: bool,
          pending: set[str] = frozenset()) -> str | None:
    """Why a tile read as `name` cannot be the next move (NO_END, SEEN_TWICE), or None.

    `ends`: the layout's open ends as (tile, value) (None: not known, no check); `first`: the
    layout is empty (any tile opens); `pending`: tiles seen laid, not yet moves (a tile may be
    laid against one of them)."""
    if on_table:
        return SEEN_TWICE
    if first or ends is None:
        return None
    a, b = Tile.parse(name).values
    values = {v for _, v in ends}
    for other in pending:
        values.update(Tile.parse(other).values)
    return None if a in values or b in values else NO_END


def misfit(name: str, touched: list[str], ends: list[tuple[str, int]] | None,
           pending: set[str] = frozenset()) -> bool:
    """Whether a tile read as `name`, seen touching the tiles `touched` (moves, or tiles seen
    laid and not yet moves), fits none of them: laid against a tile, a tile shows that tile's
    open value at the joint (BYK-1.6). A box on the cloth's pattern beside the chain's end (fresh
    live deal h74: green dots read as 4-4 against a 1-3) fits an end elsewhere, but not there."""
    if not touched or ends is None:
        return False
    open_pending = [(p, v) for p in pending for v in Tile.parse(p).values]  # all open, as in `doubt`
    return fitting_to(name, touched, [*ends, *open_pending]) is None


def chain_ends(moves: list[tuple[str, str | None]]) -> list[tuple[str, int]]:
    """The open ends (tile, value) of a chain given as (tile, the tile it was laid to) in the
    order laid: each joint uses one value on both sides (BYK-1.6). Where the engine cannot give
    its view (the record and the table differ), this is far closer than every value of every move
    (fresh live deal h94: a phantom 4-4 against a 4-5 closed on both sides passed as fitting).
    A double's value stays open (a spinner takes more than two)."""
    left: dict[str, Counter] = {}
    for tile, to in moves:
        left[tile] = Counter(Tile.parse(tile).values)
        if to is None or to not in left:
            continue
        a, b = Tile.parse(tile).values
        v = next((v for v in (a, b) if left[to][v] > 0), None)
        if v is None:
            continue  # laid where it does not fit: the engine's flag, not this one's
        left[tile][v] -= 1
        pa, pb = Tile.parse(to).values
        if pa != pb:
            left[to][v] -= 1
    out = []
    for tile, counts in left.items():
        a, b = Tile.parse(tile).values
        out += [(tile, a)] if a == b else [(tile, v) for v in dict.fromkeys((a, b)) if counts[v] > 0]
    return out


def fitting_to(name: str, votes: list[str], ends: list[tuple[str, int]] | None) -> str | None:
    """Of the tiles `name` was seen touching (most votes first), the first with an open end it
    fits; None when none has (the votes' first is kept then)."""
    if ends is None:
        return None
    a, b = Tile.parse(name).values
    for v in votes:
        if any(t == v and value in (a, b) for t, value in ends):
            return v
    return None


def dist(p, q) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])
