"""The game record: JSON Lines, one event per line (see docs/guides/replay.md).

`parse_event` checks one line's syntax (`engine.events.from_dict`: `parse_line` gives the typed
event); `check_events` checks what needs the game event (the variant, its options, player names).
`read_record` gives a file's dicts, `read_events` its typed events. All raise `RecordError` naming
the file and line.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.errors import RecordError
from engine.events import EXTRA_KEYS, SCHEMA, Event, GameEvent, from_dict
from engine.rules import ruleset

__all__ = ["SCHEMA", "EXTRA_KEYS", "parse_event", "parse_line", "check_event", "check_events",
           "typed_events", "dumps_event", "read_record", "read_events"]


def parse_event(line: str, lineno: int = 0) -> dict:
    """Parse one JSON line into an event dict. Raises `RecordError` (with `lineno`, 0-based)."""
    event = _loads(line, lineno)
    from_dict(event, lineno)
    return event


def parse_line(line: str, lineno: int = 0) -> Event:
    """Parse one JSON line into a typed event. Raises `RecordError` (with `lineno`, 0-based)."""
    return from_dict(_loads(line, lineno), lineno)


def _loads(line: str, lineno: int):
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON ({exc.msg} at column {exc.colno})", lineno=lineno) from None


def check_event(event, lineno: int = 0) -> None:
    """Check the syntax of one event dict. Raises `RecordError`."""
    from_dict(event, lineno)


def dumps_event(event: dict) -> str:
    """One event as its JSON line (no newline); `parse_event(dumps_event(e)) == e`."""
    return json.dumps(event, ensure_ascii=False, separators=(", ", ": "))


def check_events(events: list[dict] | list[Event], path: str | None = None) -> None:
    """Check a whole record: the game event first, a known variant and options, known players,
    the player count (rule `players` of the variant). Raises `RecordError` with path and line."""
    typed_events(events, path)


def typed_events(events: list[dict] | list[Event], path: str | None = None) -> list[Event]:
    """The checked record as typed events (dicts are converted, `Event`s taken as they are).
    Raises `RecordError` with path and line, as `check_events`."""
    if not events:
        raise RecordError("empty record: the first line must be a game event", path=path)
    out: list[Event] = []
    game: GameEvent | None = None
    for i, item in enumerate(events):
        try:
            event = item if isinstance(item, Event) else from_dict(item, i)
            if i == 0 and not isinstance(event, GameEvent):
                raise RecordError("the first line must be a game event", lineno=0)
            if isinstance(event, GameEvent):
                if i != 0:
                    raise RecordError("a second game event; start a new record per game", lineno=i)
                _check_game(event, i)
                game = event
            else:
                _check_names(event, game, i)
            out.append(event)
        except RecordError as exc:
            raise exc.at(path=path, lineno=i) from None
    return out


def _check_game(event: GameEvent, i: int) -> None:
    players = set(event.players)
    try:
        rules = ruleset(event.variant, **(event.options or {}))
    except (ValueError, TypeError) as exc:
        raise RecordError(str(exc), lineno=i) from None
    lo, hi = rules.players
    if not lo <= len(players) <= hi or len(players) not in rules.hand_size:
        raise RecordError(
            f"{rules.name} is played by {lo}" + (f" to {hi}" if hi != lo else "")
            + f" players ({rules.rule('players')}), the game names {len(players)}", lineno=i)
    for pair in event.pairs or ():
        for name in pair:
            if name not in players:
                raise RecordError(f"pair names unknown player {name!r}", lineno=i)
    if rules.pairs and len(players) != 4:
        raise RecordError("pairs need 4 players", lineno=i)


def _check_names(event: Event, game: GameEvent, i: int) -> None:
    if event.kind == "deal":
        names = tuple(name for name, _ in event.hands or ())
    else:
        names = (event.player,)
    for name in names:
        if name not in game.players:
            raise RecordError(f"unknown player {name!r}; the game's players are {', '.join(game.players)}",
                              lineno=i)


def read_record(path) -> list[dict]:
    """Read and check a record file: its events as dicts. Raises `RecordError` naming the file and
    line."""
    dicts, events = _read(path)
    typed_events(events, str(path))
    return dicts


def read_events(path) -> list[Event]:
    """Read and check a record file: its typed events. Raises `RecordError` as `read_record`."""
    return typed_events(_read(path)[1], str(path))


def _read(path) -> tuple[list[dict], list[Event]]:
    """Every line's dict and typed event (each line's syntax checked, in order)."""
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
    dicts, events = [], []
    for i, line in enumerate(lines):
        if not line.strip():
            raise RecordError("blank line; every line must be one event", path=str(path), lineno=i)
        try:
            dicts.append(_loads(line, i))
            events.append(from_dict(dicts[-1], i))
        except RecordError as exc:
            raise exc.at(path=str(path), lineno=i) from None
    return dicts, events
