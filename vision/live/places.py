"""Where tiles lie across frames, as the tracker follows them: a new tile not yet a move
(`Candidate`), a move made (`Committed`), a tile the rules doubt held for the operator (`Held`).
Mutable records: the tracker updates them frame by frame."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from vision.live.observation import TileObs
from vision.live.prior import ToConfirm


@dataclass
class Candidate:
    """A place where a new tile lies, not yet a move; its name is voted frame by frame."""

    first_t: float
    first_frame: int
    last_t: float
    centre: tuple[float, float]
    reach: float  # how far its centre may wander between frames (jitter, shake)
    edge: str | None = None  # where the arm came from just before it appeared
    arm_t: float = 0.0  # when that arm left: of two tiles seen together, its order
    laid_t: float = 0.0  # when that arm's hand came nearest to it: of two tiles it laid, their order
    rooted: bool = True  # that arm was seen at its edge (not told by its direction alone)
    episode_t: float | None = None  # the end of the stretch of arms it appeared after
    seen: int = 1
    names: Counter = field(default_factory=Counter)  # name read -> frames
    to_votes: Counter = field(default_factory=Counter)  # tile it touches -> frames
    index: int | None = None  # its tile on the current frame
    seen_ts: list[float] = field(default_factory=list)
    miss_t: float | None = None
    miss_frames: int = 0
    reads: list[tuple[float, str | None]] = field(default_factory=list)  # each fresh reading's name
    doubt_since: float | None = None  # ready, but the rules doubt its name (prior.doubt)
    box: TileObs | None = None  # its box on the last frame it was seen
    least_sure: float = 1.0  # the detector's lowest score of its box on the frames it was seen
    down: int = 0  # frames its box was seen face down
    read_up: int = 0  # ... and read face up, its pips counted

    @property
    def name(self) -> str | None:
        """The name read most often (None while it was never read)."""
        named = [(k, n) for n, k in self.names.items() if n is not None]
        return max(named)[1] if named else None

    @property
    def named(self) -> int:
        return sum(k for n, k in self.names.items() if n is not None)


@dataclass
class Held:
    """Where a tile to confirm lies: read on, never a new candidate, until resolved or gone."""

    item: ToConfirm
    centre: tuple[float, float]
    reach: float
    edge: str | None
    tile: TileObs
    last_t: float
    reads: list[tuple[float, str | None]] = field(default_factory=list)
    miss_t: float | None = None
    miss_frames: int = 0


@dataclass
class Committed:
    tile: str
    player: str
    to: str | None
    face: str
    t: float
    last_t: float
    obs: TileObs | None  # where it was last seen (None: known from the record only)
    missing: bool = False
    miss_t: float | None = None  # first settled frame of the current absence
    miss_frames: int = 0
    misread: tuple[str, float] | None = None  # another name read where it lies, since when
    # its player from an arm seen at that seat's edge, or from the rows (not from turn order, nor
    # from an arm told only by the way it pointed): what the recount may correct
    witnessed: bool = True
