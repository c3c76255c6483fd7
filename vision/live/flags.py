"""What a frame gives besides events: flags for the operator (take-backs, misreads, tiles to
confirm...), never engine events, and the watches that raise the take-back, returned and misread
flags of moves already made."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.live.observation import Observation
from vision.live.places import Committed

# The ID each kind of flag is shown with (a rule ID of RULES.md where one applies).
FLAG_IDS = {"take-back": "TAKE-BACK", "returned": "RETURNED", "misread": "MISREAD",
            "no-attachment": "NO-ATTACH", "duplicate": "SET-DUP", "recount": "RECOUNT",
            "refused": "REFUSED", "to-confirm": "TO-CONFIRM",
            "unseen": "RECOUNT-UNSEEN", "seat": "RECOUNT-SEAT"}


@dataclass(frozen=True)
class LiveFlag:
    """Something the operator should look at; never an engine event."""

    kind: str  # a key of FLAG_IDS
    t: float
    message: str
    tile: str | None = None
    player: str | None = None

    @property
    def rule(self) -> str:
        return FLAG_IDS.get(self.kind, self.kind.upper())

    def to_dict(self) -> dict:
        return {"kind": self.kind, "rule": self.rule, "t": self.t, "message": self.message,
                "tile": self.tile, "player": self.player}


@dataclass
class Update:
    """One frame's events (engine record format) and flags, in order."""

    events: list[dict] = field(default_factory=list)
    flags: list[LiveFlag] = field(default_factory=list)

    def extend(self, other: Update) -> None:
        self.events.extend(other.events)
        self.flags.extend(other.flags)


def committed_presence(t: float, obs: Observation, present: dict[str, int],
                       committed: dict[str, Committed], takeback_s: float,
                       covered: frozenset[str] = frozenset()) -> list[LiveFlag]:
    """Where each move is on this settled frame (`present`: name -> tile index): a move missing
    from consecutive settled frames spanning `takeback_s` is a take-back; one back, returned.
    A move under a box that lies over played tiles (`covered`: a phantom across a joint took
    its box) is neither there nor gone on this frame."""
    flags: list[LiveFlag] = []
    for name, c in committed.items():
        if name in present:
            c.last_t, c.miss_t, c.miss_frames, c.misread = t, None, 0, None
            c.obs = obs.tiles[present[name]]
            if c.missing:
                c.missing = False
                flags.append(LiveFlag("returned", t, f"{name} is back on the table", name, c.player))
            continue
        if c.misread is not None and c.misread[1] == t:
            continue  # read under another name this frame: it is there
        if name in covered:
            continue
        # Missing from consecutive settled frames spanning takeback_s (frames with an arm
        # between them count neither way).
        c.miss_t = t if c.miss_t is None else c.miss_t
        c.miss_frames += 1
        if not c.missing and t - c.miss_t >= takeback_s and c.miss_frames >= 3:
            c.missing = True
            flags.append(LiveFlag(
                "take-back", t,
                f"{name} (played by {c.player}) has left the layout: a take-back? "
                "Undo the move on /operator, or put the tile back.",
                name, c.player,
            ))
    return flags


class MisreadWatch:
    """Another name read where a move lies: flicker, or a tile swapped; flagged once if it lasts."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str], float] = {}  # (move, name read) -> first seen
        self._flagged: set[tuple[str, str]] = set()

    def seen(self, t: float, c: Committed, name: str, lasting_s: float) -> LiveFlag | None:
        """`name` is read where move `c` lies on this frame; the flag once it has lasted `lasting_s`."""
        since = c.misread[1] if c.misread is not None and c.misread[0] == name else None
        c.misread = (name, t)
        c.last_t, c.miss_t, c.miss_frames = t, None, 0
        if since is None:
            self._first[(c.tile, name)] = t
            return None
        first = self._first.get((c.tile, name), t)
        if t - first >= lasting_s and (c.tile, name) not in self._flagged:
            self._flagged.add((c.tile, name))
            return LiveFlag("misread", t, f"{name} is read where {c.tile} was played: correct the move on "
                            "/operator if the tile was swapped", name, c.player)
        return None
