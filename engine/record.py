"""The game record: JSON Lines, one event per line (see docs/readme/engine.md).

`parse_event` checks one line's syntax; `check_events` checks what needs the game event (the
variant, its options, player names). Both raise `RecordError` naming the file and line.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.errors import RecordError, TileError
from engine.rules import ruleset
from engine.tiles import Tile

# event -> (required keys, optional keys)
SCHEMA: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "game": (frozenset({"variant", "players"}), frozenset({"options", "pairs"})),
    "deal": (frozenset(), frozenset({"hands", "boneyard", "removed"})),
    "play": (frozenset({"player", "tile"}), frozenset({"to", "face"})),
    "pass": (frozenset({"player"}), frozenset()),
    "draw": (frozenset({"player"}), frozenset({"tile"})),
    "reveal": (frozenset({"player", "tiles"}), frozenset()),
}
# Keys any event may carry: seconds since the start (SPT-9) and what the camera adds.
EXTRA_KEYS = frozenset({"event", "time", "frame", "note", "source", "confidence"})
_ALLOWED = {kind: req | opt | EXTRA_KEYS for kind, (req, opt) in SCHEMA.items()}


def parse_event(line: str, lineno: int = 0) -> dict:
    """Parse one JSON line into an event dict. Raises `RecordError` (with `lineno`, 0-based)."""
    try:
        event = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON ({exc.msg} at column {exc.colno})", lineno=lineno) from None
    check_event(event, lineno)
    return event


def check_event(event, lineno: int = 0) -> None:
    """Check the syntax of one event dict. Raises `RecordError`."""

    def fail(msg: str):
        raise RecordError(msg, lineno=lineno)

    if not isinstance(event, dict):
        fail(f"an event is a JSON object, got {type(event).__name__}")
    kind = event.get("event")
    if kind not in SCHEMA:
        fail(f"unknown event {kind!r}; events are {', '.join(SCHEMA)}")
    required, optional = SCHEMA[kind]
    keys = event.keys()
    if not keys >= required:
        fail(f"{kind} event lacks {', '.join(sorted(required - keys))}")
    if not keys <= _ALLOWED[kind]:
        fail(f"{kind} event has unknown key(s) {', '.join(sorted(keys - _ALLOWED[kind]))}")
    if "time" in event and (isinstance(event["time"], bool) or not isinstance(event["time"], int | float)):
        fail(f"time must be seconds (a number), got {event['time']!r}")
    try:
        if kind == "game":
            _check_game(event, fail)
        elif kind == "deal":
            hands = event.get("hands")
            if hands is not None:
                if not isinstance(hands, dict):
                    fail("hands must map each player to a list of tiles")
                for name, tiles in hands.items():
                    _tiles(tiles, f"hand of {name}", fail)
            for key in ("boneyard", "removed"):
                if event.get(key) is not None:
                    _tiles(event[key], key, fail)
        else:
            if not isinstance(event["player"], str) or not event["player"]:
                fail(f"player must be a name, got {event['player']!r}")
            if kind == "play":
                Tile.parse(event["tile"])
                if event.get("to") is not None:
                    Tile.parse(event["to"])
                if event.get("face", "up") not in ("up", "down"):
                    fail(f"face must be 'up' or 'down', got {event['face']!r}")
            elif kind == "draw" and event.get("tile") is not None:
                Tile.parse(event["tile"])
            elif kind == "reveal":
                _tiles(event["tiles"], "tiles", fail)
    except TileError as exc:
        fail(str(exc))


def _tiles(value, what: str, fail) -> None:
    if not isinstance(value, list):
        fail(f"{what} must be a list of tiles like [\"0-0\", \"1-4\"], got {value!r}")
    for text in value:
        Tile.parse(text)


def _check_game(event: dict, fail) -> None:
    players = event["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        fail("players must be a list of names in clockwise seat order")
    if len(set(players)) != len(players):
        fail(f"players must be distinct, got {players}")
    if not isinstance(event["variant"], str):
        fail(f"variant must be a name, got {event['variant']!r}")
    options = event.get("options", {})
    if not isinstance(options, dict):
        fail(f"options must be an object, got {options!r}")
    pairs = event.get("pairs")
    if pairs is not None and (
        not isinstance(pairs, list) or len(pairs) != 2
        or not all(isinstance(p, list) and len(p) == 2 for p in pairs)
    ):
        fail("pairs must be two lists of two names, e.g. [[\"Anna\", \"Vera\"], [\"Boris\", \"Gleb\"]]")


def dumps_event(event: dict) -> str:
    """One event as its JSON line (no newline); `parse_event(dumps_event(e)) == e`."""
    return json.dumps(event, ensure_ascii=False, separators=(", ", ": "))


def check_events(events: list[dict], path: str | None = None) -> None:
    """Check a whole record: the game event first, a known variant and options, known players,
    the player count (rule `players` of the variant). Raises `RecordError` with path and line."""
    if not events:
        raise RecordError("empty record: the first line must be a game event", path=path)
    players: set[str] = set()
    for i, event in enumerate(events):
        try:
            check_event(event, i)
            kind = event["event"]
            if i == 0 and kind != "game":
                raise RecordError("the first line must be a game event", lineno=0)
            if kind == "game":
                if i != 0:
                    raise RecordError("a second game event; start a new record per game", lineno=i)
                players = set(event["players"])
                try:
                    rules = ruleset(event["variant"], **event.get("options", {}))
                except (ValueError, TypeError) as exc:
                    raise RecordError(str(exc), lineno=i) from None
                lo, hi = rules.players
                if not lo <= len(players) <= hi or len(players) not in rules.hand_size:
                    raise RecordError(
                        f"{rules.name} is played by {lo}" + (f" to {hi}" if hi != lo else "")
                        + f" players ({rules.rule('players')}), the game names {len(players)}", lineno=i)
                for pair in event.get("pairs") or []:
                    for name in pair:
                        if name not in players:
                            raise RecordError(f"pair names unknown player {name!r}", lineno=i)
                if rules.pairs and len(players) != 4:
                    raise RecordError("pairs need 4 players", lineno=i)
                continue
            names = [event["player"]] if "player" in event else list((event.get("hands") or {}).keys())
            for name in names:
                if name not in players:
                    raise RecordError(
                        f"unknown player {name!r}; the game's players are {', '.join(events[0]['players'])}",
                        lineno=i)
        except RecordError as exc:
            raise exc.at(path=path, lineno=i) from None


def read_record(path) -> list[dict]:
    """Read and check a record file. Raises `RecordError` naming the file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError("no such file; give the path of a .jsonl game record", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read: {exc}", path=str(path)) from None
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    events = []
    for i, line in enumerate(lines):
        if not line.strip():
            raise RecordError("blank line; every line must be one event", path=str(path), lineno=i)
        try:
            events.append(parse_event(line, i))
        except RecordError as exc:
            raise exc.at(path=str(path), lineno=i) from None
    check_events(events, str(path))
    return events
