"""The event's tournament, fed by the tables (engine/tournament does the rules; this module only
turns the hub's log and the tables' finished games into the tournament's record lines).

The tournament record is derived from the hub's append-only log, never edited: the first
`tournament` entry declares the event; `result`, `no-show` and `turn` entries follow in log
order; a `correct` entry (`{"event": "correct", "target": LOG_ID, "points": {...}}`) replaces the
fields it names of an earlier result, as a correction does at a table. Every new entry is checked
by replaying the whole record with it (engine.tournament.replay_lines) before it is written.

A table's finished game or deal becomes a result by the tournament's own rules:
- baltic-rally (BAL-T, BAL-6): a game that reached 151 is the result of the open table whose four
  players it seated; `points` are the game's totals.
- bykovo-micro (BYK-2.x): each counted deal of the four the event calls next
  (engine.tournament.live.bykovo_result).
- sport-pairs (SPT-8): each deal of a table whose seats it matches: who went out or a blocked
  line, the pips as counted, the opener.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.tournament import TournamentError, replay_lines
from engine.tournament.live import bykovo_result
from webui.event.hubstore import LogEntry
from webui.journal import current_game
from webui.store import Entry

RECORD_EVENTS = frozenset({"result", "no-show", "turn"})
CORRECTABLE = ("points", "places", "pips", "went_out", "blocked", "penalty", "opener")
# The engine variant a table plays for each tournament format (the seating names it).
VARIANT = {"baltic-rally": "baltic", "bykovo-micro": "bykovo", "sport-pairs": "sport"}


@dataclass(frozen=True)
class Candidate:
    """A result a table finished: the record line and the key that enters it once."""

    key: str
    line: dict[str, Any]


def declaration(log: Sequence[LogEntry]) -> LogEntry | None:
    return next((e for e in log if e.event.get("event") == "tournament"), None)


def record_lines(log: Sequence[LogEntry]) -> list[tuple[int, dict[str, Any]]] | None:
    """The tournament record (line number = log id) with corrections applied; None before a
    declaration."""
    decl = declaration(log)
    if decl is None:
        return None
    fixes: dict[int, dict[str, Any]] = {}
    for e in log:
        if e.event.get("event") == "correct":
            fixes.setdefault(int(e.event["target"]), {}).update(
                {k: v for k, v in e.event.items() if k in CORRECTABLE})
    lines = [(decl.id, decl.event)]
    for e in log:
        if e.id > decl.id and e.event.get("event") in RECORD_EVENTS:
            line = dict(e.event)
            for k, v in fixes.get(e.id, {}).items():
                if v is None:
                    line.pop(k, None)
                else:
                    line[k] = v
            lines.append((e.id, line))
    return lines


def replay(log: Sequence[LogEntry]) -> dict[str, Any] | None:
    """The tournament's replay JSON (as `dominocam tournament replay`), None before a declaration.
    Raises TournamentError if the record does not replay."""
    lines = record_lines(log)
    return None if lines is None else replay_lines(lines)


def check_new(log: Sequence[LogEntry], event: dict[str, Any]) -> None:
    """Raise TournamentError (the message says why) unless `event` may be appended to the log."""
    kind = event.get("event") if isinstance(event, dict) else None
    if kind == "tournament":
        if declaration(log) is not None:
            raise TournamentError("this event already has its tournament; start another hub (--event) for another")
        replay_lines([(1, event)])
        return
    if declaration(log) is None:
        raise TournamentError('no tournament yet: declare one first ({"event": "tournament", "format": ...})')
    if kind == "correct":
        targets = {e.id: e for e in log}
        target = targets.get(event.get("target"))  # type: ignore[arg-type]
        if target is None or target.event.get("event") != "result":
            raise TournamentError(f"correct: no result {event.get('target')!r} in the event's log")
        if not any(k in CORRECTABLE for k in event):
            raise TournamentError(f"correct: give the fields to change ({', '.join(CORRECTABLE)})")
    elif kind not in RECORD_EVENTS:
        raise TournamentError(f"unknown event {kind!r}: the event's log takes result, no-show, turn, correct")
    probe = LogEntry((log[-1].id if log else 0) + 1, 0.0, "check", event)
    lines = record_lines([*log, probe])
    assert lines is not None
    replay_lines(lines)


def game(entries: Sequence[Entry]) -> tuple[int, list[dict[str, Any]]] | None:
    """(the game entry's id, its effective record) of entries that start with a `game` entry."""
    played = current_game(list(entries))
    if not played.moves or not entries or played.moves[0].id != entries[0].id:
        return None
    return entries[0].id, played.record


def candidates(fmt: str, tournament: dict[str, Any], table: int, game_id: int,
               result: dict[str, Any], players: Sequence[str]) -> list[Candidate]:
    """The results a table's game (the engine's replay `result`) gives this tournament now."""
    tag = {"table": table, "game": game_id}
    if fmt == "baltic-rally":
        if not result.get("finished"):
            return []
        for open_table in tournament.get("call_list", []):
            if set(open_table["players"]) == set(players):
                line = {"event": "result", "table": open_table["table"], "points": dict(result["totals"]),
                        "live": tag}
                return [Candidate(f"table {table}/game {game_id}", line)]
        return []
    out: list[Candidate] = []
    for deal in result.get("deals", []):
        key = f"table {table}/game {game_id}/deal {deal.get('number')}"
        live = tag | {"deal": deal.get("number")}
        if fmt == "bykovo-micro":
            try:
                line = bykovo_result(deal)
            except TournamentError:
                continue
            out.append(Candidate(key, line | {"live": live}))
        elif fmt == "sport-pairs" and deal.get("end") not in (None, "unfinished") and deal.get("pips"):
            seats = [t for t in tournament.get("tables", []) if list(t.get("seats", [])) == list(players)]
            if not seats:
                continue
            line = {"event": "result", "table": seats[0]["table"], "pips": dict(deal["pips"]),
                    "opener": deal.get("opener"), "live": live}
            if deal.get("end") == "out":
                line["went_out"] = deal.get("winner")
            else:
                line["blocked"] = True
            out.append(Candidate(key, line))
    return out
