"""The call list (BAL-T: who plays next at which table, called ten minutes before) and the
seating of the tournament's open tables at the event's physical tables.

Pure functions over the tournament's replay JSON, the hub's log and the boards. The operator's
log entries that drive it:

  {"event": "seat", "table": "Q2-1", "at": 3}           play tournament table Q2-1 at table 3
  {"event": "round", "round": "Q2", "at": SECONDS}     the round starts then; call players
                                                          `call_before_s` (600 s) earlier

Without a `seat`, an open table goes to the physical table already playing its four players,
else to the next free table in number order.
"""

from __future__ import annotations

from typing import Any

from engine.tournament import TournamentError
from webui.event.hubstore import LogEntry


def open_tables(tournament: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The tournament's tables still to play in its current round: {round, table, players}."""
    if not tournament or tournament.get("finished"):
        return []
    fmt = tournament.get("format")
    if fmt == "baltic-rally":
        return [{"round": t["round"], "table": t["table"], "players": list(t["players"])}
                for t in tournament.get("call_list", [])]
    if fmt == "bykovo-micro":
        n = len(tournament.get("deals", [])) + 1
        return [{"round": f"deal {n}", "table": f"D{n}", "players": list(tournament.get("next_seated", []))}]
    if fmt == "sport-pairs":
        deals = int(tournament.get("deals") or 0)
        return [{"round": f"deal {len(t.get('sheet', [])) + 1}", "table": t["table"], "players": list(t["seats"])}
                for t in tournament.get("tables", []) if len(t.get("sheet", [])) < deals]
    return []


def table_of(tournament: dict[str, Any] | None, players: list[str]) -> str | None:
    """The open tournament table these players form, if any."""
    wanted = set(players)
    return next((t["table"] for t in open_tables(tournament) if wanted and set(t["players"]) == wanted), None)


def check(event: dict[str, Any], tournament: dict[str, Any] | None) -> None:
    """Raise TournamentError unless a `seat` or `round` entry fits the tournament now."""
    tables = open_tables(tournament)
    if not tables:
        raise TournamentError("no table is due: declare the tournament first, or it is finished")
    if event.get("event") == "seat":
        at = event.get("at")
        if isinstance(at, bool) or not isinstance(at, int) or at < 1:
            raise TournamentError(f'seat: "at" is the physical table\'s number (1, 2, ...), got {at!r}')
        ids = [t["table"] for t in tables]
        if event.get("table") not in ids:
            raise TournamentError(f"seat: no open table {event.get('table')!r}; open tables: {', '.join(ids)}")
        return
    rounds = sorted({t["round"] for t in tables})
    if event.get("round") not in rounds:
        raise TournamentError(f"round: the round to start is {', '.join(rounds)}, not {event.get('round')!r}")
    at = event.get("at")
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise TournamentError('round: "at" is the start time in seconds since 1970 (UTC)')


def call_list(tournament: dict[str, Any] | None, log: list[LogEntry], boards: list[dict[str, Any]],
              now: float, call_before_s: float) -> list[dict[str, Any]]:
    """Each open table with where it plays (`at`), when players are called and its status:
    waiting (round not started), due (called at `call_at`), called, playing."""
    tables = open_tables(tournament)
    seats: dict[str, int] = {}
    starts: dict[str, float] = {}
    for e in log:
        if e.event.get("event") == "seat":
            seats[e.event["table"]] = int(e.event["at"])
        elif e.event.get("event") == "round":
            starts[e.event["round"]] = float(e.event["at"])
    by_number = {b["table"]: b for b in boards}
    used = {seats[t["table"]] for t in tables if t["table"] in seats}
    for t in tables:  # a table already playing these four keeps them
        if t["table"] not in seats:
            playing = [n for n, b in sorted(by_number.items())
                       if n not in used and set(b.get("players") or []) == set(t["players"])]
            if playing:
                seats[t["table"]] = playing[0]
                used.add(playing[0])
    free = [n for n in sorted(by_number) if n not in used]
    out = []
    for t in tables:
        at = seats.get(t["table"])
        if at is None and free:
            at = free.pop(0)
        b = by_number.get(at) if at else None
        start = starts.get(t["round"])
        call_at = None if start is None else start - call_before_s
        if b and set(b.get("players") or []) == set(t["players"]) and not b.get("finished"):
            status = "playing"
        elif start is None:
            status = "waiting"
        else:
            status = "called" if now >= call_at else "due"
        out.append(t | {"at": at, "online": bool(b and b.get("online")), "started": start is not None,
                        "starts_at": start, "call_at": call_at, "status": status})
    return out
