"""Reading a tournament record: JSON Lines, first line declares the event.

Only syntax is checked here (JSON objects, an `event` key, a known format); each format's module
checks the meaning of its lines.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.tournament.errors import TournamentError

FORMATS = ("bykovo-micro", "baltic-rally", "sport-pairs")

Line = tuple[int, dict]


def parse_line(text: str, lineno: int) -> dict:
    """Parse one record line into a dict with an `event` key; raise TournamentError otherwise."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TournamentError(f"not valid JSON ({exc.msg} at column {exc.colno})", lineno=lineno) from None
    if not isinstance(obj, dict):
        raise TournamentError("a record line must be a JSON object", lineno=lineno)
    if not isinstance(obj.get("event"), str):
        raise TournamentError('a record line needs an "event" key (e.g. "result")', lineno=lineno)
    return obj


def parse_lines(text: str) -> list[Line]:
    """Parse a whole record; blank lines are skipped but keep the line numbering."""
    lines: list[Line] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            lines.append((lineno, parse_line(raw, lineno)))
    if not lines:
        raise TournamentError('the record is empty: the first line must declare the event ({"event": "tournament", ...})')
    lineno, first = lines[0]
    if first["event"] != "tournament":
        raise TournamentError(
            f'the first line must declare the event ({{"event": "tournament", "format": ...}}), got event {first["event"]!r}',
            lineno=lineno,
        )
    if first.get("format") not in FORMATS:
        raise TournamentError(
            f"unknown tournament format {first.get('format')!r}; use one of {', '.join(FORMATS)}",
            lineno=lineno,
        )
    return lines


def read_lines(path: str | Path) -> list[Line]:
    """Read and parse a record file; every problem is a TournamentError naming the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TournamentError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise TournamentError("is a directory, expected a JSON Lines file", path=str(path)) from None
    except UnicodeDecodeError:
        raise TournamentError("not UTF-8 text", path=str(path)) from None
    except OSError as exc:
        raise TournamentError(f"cannot read ({exc.strerror})", path=str(path)) from None
    try:
        return parse_lines(text)
    except TournamentError as exc:
        raise exc.at(path=str(path)) from None


# Small field validators shared by the formats; each raises TournamentError without a line number
# (the caller adds it).


def need_name_list(obj: dict, key: str, *, min_len: int = 1) -> list[str]:
    value = obj.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise TournamentError(f'"{key}" must be a list of player names')
    if len(value) < min_len:
        raise TournamentError(f'"{key}" needs at least {min_len} names, got {len(value)}')
    dup = sorted({v for v in value if value.count(v) > 1})
    if dup:
        raise TournamentError(f'"{key}" names {", ".join(dup)} more than once')
    return list(value)


def need_int(obj: dict, key: str, *, minimum: int | None = None, default: int | None = None) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentError(f'"{key}" must be an integer, got {value!r}')
    if minimum is not None and value < minimum:
        raise TournamentError(f'"{key}" must be at least {minimum}, got {value}')
    return value


def need_points(obj: dict, key: str = "points") -> dict[str, int]:
    value = obj.get(key)
    if not isinstance(value, dict) or not value:
        raise TournamentError(f'"{key}" must be an object of player -> points')
    for name, pts in value.items():
        if isinstance(pts, bool) or not isinstance(pts, int) or pts < 0:
            raise TournamentError(f'"{key}" for {name} must be a whole number >= 0, got {pts!r}')
    return dict(value)


def check_table(names: dict | list, expected: list[str], known: set[str], what: str) -> None:
    """The names of a result must be exactly the players expected at that table."""
    given = list(names)
    unknown = [n for n in given if n not in known]
    if unknown:
        raise TournamentError(f"unknown player {unknown[0]!r} in {what}")
    strangers = [n for n in given if n not in expected]
    if strangers:
        raise TournamentError(
            f"{strangers[0]} is not at the table of {what} (expected {', '.join(expected)})"
        )
    missing = [n for n in expected if n not in given]
    if missing:
        raise TournamentError(f"{what} lacks {', '.join(missing)} (expected {', '.join(expected)})")
