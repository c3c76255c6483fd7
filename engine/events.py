"""Typed record events: one frozen dataclass per line kind of the JSON Lines record.

`from_dict(d)` checks one event's syntax (what `engine.record.check_event` checks) and returns a
`GameEvent`, `DealEvent`, `PlayEvent`, `PassEvent`, `DrawEvent` or `RevealEvent`; `to_dict()` gives
the dict back exactly (same keys, same order, tiles spelled as they were written, nulls kept), so
`dumps_event(e.to_dict())` writes the line that was read. Tiles are `engine.tiles.Tile`.

Any event may carry `time` (seconds since the start, SPT-9) and what the camera adds (`frame`,
`note`, `source`, `confidence`); these are kept as given.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from engine.errors import RecordError, TileError
from engine.tiles import ALL_TILES, Tile

_parse = Tile.parse

# Keys any event may carry besides its own (the camera's extras and SPT-9's time).
EXTRA = ("time", "frame", "note", "source", "confidence")


@dataclass(frozen=True, slots=True)
class Written:
    """How a line was written where the typed fields do not say it: the key order, keys given as
    null, and tile-bearing keys spelled otherwise than `str(tile)` (e.g. "5-3" for Tile(3, 5))."""

    order: tuple[str, ...]
    nulls: frozenset[str] = frozenset()
    spelled: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every record event may carry. Subclasses name their `kind` and own fields."""

    kind: ClassVar[str] = ""
    time: int | float | None = None
    frame: Any = None
    note: Any = None
    source: Any = None
    confidence: Any = None
    written: Written | None = field(default=None, compare=False, repr=False)

    def _fields(self) -> dict[str, Any]:  # the kind's own keys, as JSON values (None: absent)
        return {}

    def to_dict(self) -> dict[str, Any]:
        """The event as its record dict (the line it was read from, if it was read)."""
        values = {"event": self.kind, **self._fields()}
        for key in EXTRA:
            values[key] = getattr(self, key)
        w = self.written
        if w is None:
            return {key: value for key, value in values.items() if value is not None}
        for key, text in w.spelled:
            if values[key] is not None and _same(text, values[key]):
                values[key] = text
        out = {}
        for key in w.order:
            if key in values and (values[key] is not None or key in w.nulls):
                out[key] = values[key]
        for key, value in values.items():  # set since it was read (a correction)
            if value is not None and key not in out:
                out[key] = value
        return out


def _same(text: Any, canonical: Any) -> bool:
    """Whether a written tile value (a text, a list of texts, a map of lists) is the canonical one
    spelled otherwise (a correction may have changed the value since)."""
    try:
        if isinstance(canonical, str):
            return _parse(text) == _parse(canonical)
        if isinstance(canonical, list):
            return (isinstance(text, list) and len(text) == len(canonical)
                    and all(_parse(a) == _parse(b) for a, b in zip(text, canonical, strict=True)))
        if isinstance(canonical, dict):
            return (isinstance(text, dict) and list(text) == list(canonical)
                    and all(_same(text[k], canonical[k]) for k in canonical))
    except TileError:
        return False
    return False


def _texts(tiles) -> list[str] | None:
    return None if tiles is None else [str(t) for t in tiles]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEvent(Event):
    """Line 0: the variant, the players in clockwise seat order, options, pairs (SPT)."""

    kind: ClassVar[str] = "game"
    variant: str
    players: tuple[str, ...]
    options: dict[str, Any] | None = field(default=None, hash=False)  # None: not written
    pairs: tuple[tuple[str, ...], ...] | None = None

    def _fields(self) -> dict[str, Any]:
        return {"variant": self.variant, "players": list(self.players),
                "options": None if self.options is None else dict(self.options),
                "pairs": None if self.pairs is None else [list(p) for p in self.pairs]}


@dataclass(frozen=True, slots=True, kw_only=True)
class DealEvent(Event):
    """A new deal; in a scored record each hand (rows left to right), the boneyard, the removed."""

    kind: ClassVar[str] = "deal"
    hands: tuple[tuple[str, tuple[Tile, ...]], ...] | None = None  # (player, hand) in written order
    boneyard: tuple[Tile, ...] | None = None
    removed: tuple[Tile, ...] | None = None

    def _fields(self) -> dict[str, Any]:
        return {"hands": None if self.hands is None else {p: _texts(h) for p, h in self.hands},
                "boneyard": _texts(self.boneyard), "removed": _texts(self.removed)}


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayEvent(Event):
    """A tile laid: attached to `to` (None: the record leaves it to the engine), face up or down."""

    kind: ClassVar[str] = "play"
    player: str
    tile: Tile
    to: Tile | None = None
    face: str | None = None  # None: not written (face up)

    @property
    def tile_text(self) -> str:
        """The tile as the record wrote it ("5-3" stays "5-3"), for messages that quote it."""
        w = self.written
        if w is not None:
            for key, text in w.spelled:
                if key == "tile" and _same(text, str(self.tile)):
                    return text
        return str(self.tile)

    def _fields(self) -> dict[str, Any]:
        return {"player": self.player, "tile": str(self.tile),
                "to": None if self.to is None else str(self.to), "face": self.face}


@dataclass(frozen=True, slots=True, kw_only=True)
class PassEvent(Event):
    kind: ClassVar[str] = "pass"
    player: str

    def _fields(self) -> dict[str, Any]:
        return {"player": self.player}


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawEvent(Event):
    """A tile drawn from the boneyard (`tile` None: the camera saw a draw, not the tile)."""

    kind: ClassVar[str] = "draw"
    player: str
    tile: Tile | None = None

    def _fields(self) -> dict[str, Any]:
        return {"player": self.player, "tile": None if self.tile is None else str(self.tile)}


@dataclass(frozen=True, slots=True, kw_only=True)
class RevealEvent(Event):
    """A hand shown at the end of a deal."""

    kind: ClassVar[str] = "reveal"
    player: str
    tiles: tuple[Tile, ...]

    def _fields(self) -> dict[str, Any]:
        return {"player": self.player, "tiles": _texts(self.tiles)}


KINDS: dict[str, type[Event]] = {
    cls.kind: cls for cls in (GameEvent, DealEvent, PlayEvent, PassEvent, DrawEvent, RevealEvent)}


def _maker(cls):
    """A fast positional constructor for `from_dict` (the kind's own fields, `written`, then the
    extras): it sets the slots directly, a third of what the keyword `__init__` of a frozen
    dataclass costs, which a replay pays on every event. Generated from the fields only."""
    own = [f.name for f in fields(cls) if f.name not in EXTRA and f.name != "written"]
    args = ", ".join([*own, "written", *(f"{k}=None" for k in EXTRA)])
    body = [f"def make({args}):", "    new = _new(_cls)"]
    for name in [*own, "written", *EXTRA]:
        body.append(f"    _set_{name}(new, {name})")
    body.append("    return new")
    scope = {"_new": object.__new__, "_cls": cls}
    scope.update({f"_set_{f.name}": getattr(cls, f.name).__set__ for f in fields(cls)})
    exec("\n".join(body), scope)  # noqa: S102 - generated from the dataclass fields only
    return scope["make"]


_make_game, _make_deal, _make_play, _make_pass, _make_draw, _make_reveal = (
    _maker(cls) for cls in (GameEvent, DealEvent, PlayEvent, PassEvent, DrawEvent, RevealEvent))

# kind -> (required keys, optional keys)
SCHEMA: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "game": (frozenset({"variant", "players"}), frozenset({"options", "pairs"})),
    "deal": (frozenset(), frozenset({"hands", "boneyard", "removed"})),
    "play": (frozenset({"player", "tile"}), frozenset({"to", "face"})),
    "pass": (frozenset({"player"}), frozenset()),
    "draw": (frozenset({"player"}), frozenset({"tile"})),
    "reveal": (frozenset({"player", "tiles"}), frozenset()),
}
EXTRA_KEYS = frozenset({"event", *EXTRA})


class _Fail:
    """Raises the RecordError of one line (a callable, so the builders stay short)."""

    __slots__ = ("lineno",)

    def __init__(self, lineno: int):
        self.lineno = lineno

    def __call__(self, msg: str):
        raise RecordError(msg, lineno=self.lineno)


def from_dict(d: Any, lineno: int = 0) -> Event:
    """The typed event of one record dict. Raises `RecordError` (with `lineno`, 0-based) naming
    what is wrong: not an object, an unknown kind or key, a missing key, a bad tile or name."""
    if not isinstance(d, dict):
        _Fail(lineno)(f"an event is a JSON object, got {type(d).__name__}")
    kind = d.get("event")
    spec = _SPECS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        _Fail(lineno)(f"unknown event {kind!r}; events are {', '.join(SCHEMA)}")
    required, allowed, own, build = spec
    keys = d.keys()
    if not keys >= required:
        _Fail(lineno)(f"{kind} event lacks {', '.join(sorted(required - keys))}")
    extra = None
    if not keys <= own:  # the time or the camera's keys (most events carry none)
        if not keys <= allowed:
            _Fail(lineno)(f"{kind} event has unknown key(s) {', '.join(sorted(keys - allowed))}")
        get = d.get
        t = get("time")
        if t is not None and (isinstance(t, bool) or not isinstance(t, int | float)):
            _Fail(lineno)(f"time must be seconds (a number), got {t!r}")
        extra = {"time": t, "frame": get("frame"), "note": get("note"), "source": get("source"),
                 "confidence": get("confidence")}
    try:
        return build(d, _Fail(lineno), extra)
    except TileError as exc:
        raise RecordError(str(exc), lineno=lineno) from None


_NONE: frozenset[str] = frozenset()
_ORDERS: dict[tuple[str, ...], Written] = {}  # the few key orders records use, shared


def _written(d: dict, spelled: tuple = ()) -> Written:
    order = tuple(d)
    if spelled or None in d.values():
        return Written(order, frozenset(k for k, v in d.items() if v is None), spelled)
    w = _ORDERS.get(order)
    if w is None:
        w = Written(order)
        if len(_ORDERS) < 1024:
            _ORDERS[order] = w
    return w


def _spelled(key: str, value: Any) -> tuple:
    """(key, a copy of value) where tile texts in it are written b-a (already parsed: valid)."""
    if isinstance(value, str):
        return () if value in _CANONICAL else ((key, value),)
    if isinstance(value, list):
        return () if _CANONICAL.issuperset(value) else ((key, list(value)),)
    if all(_CANONICAL.issuperset(h) for h in value.values()):
        return ()
    return ((key, {k: list(v) for k, v in value.items()}),)


_CANONICAL = frozenset(str(t) for t in ALL_TILES)  # "a-b" with a <= b


def _player(d: dict, fail) -> str:
    player = d["player"]
    if not isinstance(player, str) or not player:
        fail(f"player must be a name, got {player!r}")
    return player


def _play(d: dict, fail, extra: dict | None) -> PlayEvent:
    player = _player(d, fail)
    get = d.get
    face = get("face")
    if face is not None and face not in ("up", "down"):
        fail(f"face must be 'up' or 'down', got {face!r}")
    text = d["tile"]
    tile = _parse(text)
    to_text = get("to")
    to = None if to_text is None else _parse(to_text)
    spelled = _spelled("tile", text)
    if to_text is not None and to_text not in _CANONICAL:
        spelled += (("to", to_text),)
    w = _written(d, spelled)
    if extra is None:
        return _make_play(player, tile, to, face, w)
    return _make_play(player, tile, to, face, w, **extra)


def _pass(d: dict, fail, extra: dict | None) -> PassEvent:
    player = _player(d, fail)
    if extra is None:
        return _make_pass(player, _written(d))
    return _make_pass(player, _written(d), **extra)


def _draw(d: dict, fail, extra: dict | None) -> DrawEvent:
    player = _player(d, fail)
    text = d.get("tile")
    tile = None if text is None else _parse(text)
    w = _written(d, () if text is None else _spelled("tile", text))
    return _make_draw(player, tile, w, **(extra or {}))


def _reveal(d: dict, fail, extra: dict | None) -> RevealEvent:
    player = _player(d, fail)
    tiles = _tiles(d["tiles"], "tiles", fail)
    return _make_reveal(player, tiles, _written(d, _spelled("tiles", d["tiles"])), **(extra or {}))


def _tiles(value: Any, what: str, fail) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        fail(f"{what} must be a list of tiles like [\"0-0\", \"1-4\"], got {value!r}")
    return tuple(map(_parse, value))


def _deal(d: dict, fail, extra: dict | None) -> DealEvent:
    hands = d.get("hands")
    typed = None
    if hands is not None:
        if not isinstance(hands, dict):
            fail("hands must map each player to a list of tiles")
        typed = tuple((name, _tiles(tiles, f"hand of {name}", fail)) for name, tiles in hands.items())
    boneyard, removed = d.get("boneyard"), d.get("removed")
    typed_boneyard = None if boneyard is None else _tiles(boneyard, "boneyard", fail)
    typed_removed = None if removed is None else _tiles(removed, "removed", fail)
    spelled = ()
    for key, value in (("hands", hands), ("boneyard", boneyard), ("removed", removed)):
        if value is not None:
            spelled += _spelled(key, value)
    return _make_deal(typed, typed_boneyard, typed_removed, _written(d, spelled), **(extra or {}))


def _game(d: dict, fail, extra: dict | None) -> GameEvent:
    players = d["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        fail("players must be a list of names in clockwise seat order")
    if len(set(players)) != len(players):
        fail(f"players must be distinct, got {players}")
    if not isinstance(d["variant"], str):
        fail(f"variant must be a name, got {d['variant']!r}")
    options = d.get("options", {})
    if not isinstance(options, dict):
        fail(f"options must be an object, got {options!r}")
    pairs = d.get("pairs")
    if pairs is not None and (
        not isinstance(pairs, list) or len(pairs) != 2
        or not all(isinstance(p, list) and len(p) == 2 for p in pairs)
    ):
        fail("pairs must be two lists of two names, e.g. [[\"Anna\", \"Vera\"], [\"Boris\", \"Gleb\"]]")
    return GameEvent(variant=d["variant"], players=tuple(players),
                     options=None if "options" not in d else dict(d["options"]),
                     pairs=None if pairs is None else tuple(tuple(p) for p in pairs),
                     written=_written(d), **(extra or {}))


_BUILDERS = {"game": _game, "deal": _deal, "play": _play, "pass": _pass, "draw": _draw, "reveal": _reveal}
# kind -> (required keys, allowed keys, the kind's own keys, builder)
_SPECS = {kind: (req, req | opt | EXTRA_KEYS, req | opt | {"event"}, _BUILDERS[kind])
          for kind, (req, opt) in SCHEMA.items()}
