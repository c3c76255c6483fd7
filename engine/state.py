"""Value types of a game in progress: flags, plays, terminations, the deal and the game state.

`GameState` and `Deal` are treated as immutable: `engine.game.apply` copies before it changes
anything, so an old state stays valid (the web keeps them per event).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.layout import Layout, PlacedTile
from engine.rules import RuleSet
from engine.tiles import Tile


class Termination(enum.Enum):
    """How a deal ended."""

    OUT = "out"  # a player emptied the hand (BYK-1.9)
    FISH = "fish"  # blocked, provable from the table alone (BYK-1.11 рыба)
    SORTIR = "sortir"  # passes ended it while tiles that fit were held back (BYK-1.11 сортир)
    BLOCKED = "blocked"  # nobody could play (forced passes) though the table alone does not prove it
    UNFINISHED = "unfinished"


@dataclass(frozen=True, slots=True)
class Flag:
    """A verdict on one event: the rule it breaks, who, and why (the event is kept)."""

    event: int
    rule: str
    player: str | None
    message: str
    # The rule set's concept ("multi", "out", ...): one rule ID can hold several (BLZ-3 is both
    # how many tiles a turn may lay and going out), so code that asks which rule compares this.
    # Not part of the record's JSON.
    concept: str = ""

    def to_dict(self) -> dict:
        return {"event": self.event, "rule": self.rule, "player": self.player, "message": self.message}


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: a tile, the placed tile it attaches to (None when it opens), face up/down."""

    tile: Tile
    to: Tile | None = None
    face: str = "up"

    def to_event(self, player: str) -> dict:
        event = {"event": "play", "player": player, "tile": str(self.tile)}
        if self.to is not None:
            event["to"] = str(self.to)
        if self.face != "up":
            event["face"] = self.face
        return event


@dataclass(frozen=True, slots=True)
class PassRecord:
    """A pass (entered or inferred) kept for the audit at reveal (SPT-11, BAL-5)."""

    seat: int
    event: int
    ends: frozenset[int]
    inferred: bool
    checked: bool  # already judged with the hand known


class Deal:
    """One deal (кон) in progress. Seats are indices into `GameState.players`."""

    __slots__ = (
        "number", "opener", "open_tiles", "hands", "counts", "boneyard", "bone_count", "removed",
        "drawable_at_start", "layout", "to_move", "last_layer", "turn_seat", "turn_tiles",
        "turn_start", "turn_doubles", "turn_event", "pass_run", "passes", "played", "revealed",
        "end", "winner", "out", "final_seat", "new_arm_pending", "wrongful", "redeal_due",
        "missed", "redeals", "moves", "last_time", "dealt", "open_text", "audit_opening",
    )

    def __init__(self, number: int, n_players: int, layout: Layout):
        self.number = number
        self.opener: int | None = None
        self.open_tiles: frozenset[Tile] | None = None  # tiles allowed to open; None = any
        self.hands: list[tuple[Tile, ...] | None] = [None] * n_players  # rows left to right
        self.counts: list[int] = [0] * n_players
        self.boneyard: frozenset[Tile] | None = None  # known undealt tiles (candidates)
        self.bone_count = 0  # tiles that can still be drawn
        self.removed = 0  # SPI-1 tiles out of play
        self.drawable_at_start = 0
        self.layout = layout
        self.to_move: int | None = None
        self.last_layer: int | None = None
        self.turn_seat: int | None = None
        self.turn_tiles = 0
        self.turn_start = 0
        self.turn_doubles = False
        self.turn_event = 0
        self.pass_run = 0
        self.passes: tuple[PassRecord, ...] = ()
        self.played: list[tuple[Tile, ...]] = [()] * n_players
        self.revealed: list[tuple[Tile, ...] | None] = [None] * n_players
        self.end: Termination | None = None
        self.winner: int | None = None
        self.out: tuple[int, ...] = ()
        self.final_seat: int | None = None  # BYK-1.9: the circle is played out to this seat
        self.new_arm_pending: frozenset[int] = frozenset()  # SEV-2
        self.wrongful: tuple[int, ...] = ()  # seats flagged for a wrongful pass
        self.redeal_due: str | None = None
        self.missed: int | None = None  # seat that just missed and may draw one (BLB-2, DRK-2)
        self.redeals = 0
        self.moves = 0
        self.last_time: float | None = None
        self.dealt = False  # all hands known from the deal event
        self.open_text: str | None = None
        self.audit_opening = False  # BLZ-2/BLB-1 in camera mode: check the opening tile later

    def copy(self) -> Deal:
        return _copy_deal(self)

    def hand_pips(self, seat: int) -> int | None:
        """Pips left in a hand: what was revealed, else the known hand, else 0 for an empty hand."""
        tiles = self.revealed[seat]
        if tiles is None:
            tiles = self.hands[seat]
        if tiles is None:
            return 0 if self.counts[seat] == 0 and self.end is not None else None
        return sum(t.pips for t in tiles)

    def final_hand(self, seat: int) -> tuple[Tile, ...] | None:
        tiles = self.revealed[seat]
        if tiles is None:
            tiles = self.hands[seat]
        if tiles is None and self.counts[seat] == 0 and self.end is not None:
            return ()
        return tiles


class GameState:
    """A game: the rules, the players, the committed deals, and the deal in progress."""

    __slots__ = ("rules", "players", "seat", "pairs", "index", "results", "totals", "eggs", "deal")

    def __init__(self, rules: RuleSet, players: tuple[str, ...], pairs):
        self.rules = rules
        self.players = players
        self.seat = {name: i for i, name in enumerate(players)}
        self.pairs: tuple[tuple[str, str], tuple[str, str]] | None = pairs
        self.index = 1  # the next event's line number (the game event is line 0)
        self.results: tuple[dict, ...] = ()  # committed deal results
        self.totals: dict[str, int] = {}
        self.eggs: tuple[tuple[frozenset[str], int], ...] = ()  # BAL-15/16 hanging points
        self.deal: Deal | None = None

    def copy(self) -> GameState:
        return _copy_state(self)

    @property
    def layout(self) -> Layout:
        return self.deal.layout if self.deal is not None else Layout(self.rules.arms)

    @property
    def to_move(self) -> str | None:
        """Who is to move (None before a deal, after its end, or while anyone may open)."""
        d = self.deal
        if d is None or d.end is not None or d.to_move is None:
            return None
        return self.players[d.to_move]

    @property
    def placed(self) -> tuple[PlacedTile, ...]:
        return self.layout.placed

    def hand(self, player: str) -> tuple[Tile, ...] | None:
        d = self.deal
        return None if d is None else d.hands[self.seat[player]]

    def __repr__(self) -> str:
        d = self.deal
        where = "no deal" if d is None else f"deal {d.number}, {len(d.layout)} placed, end={d.end}"
        return f"<GameState {self.rules.name} event {self.index}: {where}, to move {self.to_move}>"


def _copier(cls, lists=()):
    """A fast shallow copy for a slotted class (apply copies a state on every event); the named
    list fields are copied too."""
    lines = ["def copy(self):", "    new = _new(_cls)"]
    for name in cls.__slots__:
        value = f"list(self.{name})" if name in lists else f"self.{name}"
        lines.append(f"    new.{name} = {value}")
    lines.append("    return new")
    scope = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(lines), scope)  # noqa: S102 - generated from __slots__ only
    return scope["copy"]


_copy_deal = _copier(Deal, lists=("hands", "counts", "played", "revealed"))
_copy_state = _copier(GameState)
