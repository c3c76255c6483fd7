"""Sport pairs protocol (SPT): the result sheet (протокол) of each table, as pure transitions.

Each table seats 4 players clockwise; partners sit opposite (seats 1+3 and 2+4). Every table plays
the same declared number of deals. Deal 1 is opened by the holder of 1-1; each later deal by the
player to the left of the previous opener, so the lead alternates between the pairs.
Per deal (SPT-8): the pair of the player who went out is credited with the pips left to the other
pair; a blocked line («бой») credits the difference to the pair with fewer pips; a wrongful pass
(SPT-11) loses the deal 0:10. Pips are entered as counted (a lone 0-0 counts 10, SPT-8).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.tournament.errors import TournamentError
from engine.tournament.records import check_table, need_int, need_points
from engine.tournament.timer import DEFAULT_MOVE_SECONDS, move_timer

FORMAT = "sport-pairs"
PENALTY = 10  # SPT-11: 0:10


@dataclass(frozen=True)
class SheetLine:
    """One deal on a table's result sheet."""

    deal: int
    opener: str | None
    lead_pair: str | None
    outcome: str  # "out", "blocked", "penalty"
    winner_pair: str | None  # None when a blocked deal is level
    points: dict[str, int]  # pair -> points credited in this deal
    pips: dict[str, int] | None
    penalty: str | None  # the player whose wrongful pass cost the deal
    rule: str

    def to_json(self) -> dict:
        return {
            "deal": self.deal,
            "opener": self.opener,
            "lead_pair": self.lead_pair,
            "outcome": self.outcome,
            "winner_pair": self.winner_pair,
            "points": dict(self.points),
            "pips": dict(self.pips) if self.pips is not None else None,
            "penalty": self.penalty,
            "rule": self.rule,
        }


@dataclass(frozen=True)
class SportTable:
    id: str
    seats: tuple[str, str, str, str]  # clockwise
    sheet: tuple[SheetLine, ...] = ()
    turn: tuple[str, float] | None = None  # (player, started_at) of the move being thought over

    @property
    def pairs(self) -> tuple[str, str]:
        a, b, c, d = self.seats
        return (f"{a}/{c}", f"{b}/{d}")

    def pair_of(self, player: str) -> str:
        i = self.seats.index(player)
        return self.pairs[i % 2]

    def totals(self) -> dict[str, int]:
        return {pair: sum(line.points[pair] for line in self.sheet) for pair in self.pairs}

    def next_opener(self) -> str | None:
        """Deal 1: unknown until dealt (the 1-1 holder). Later: left of the previous opener."""
        if not self.sheet or self.sheet[-1].opener is None:
            return None
        return self.seats[(self.seats.index(self.sheet[-1].opener) + 1) % 4]


@dataclass(frozen=True)
class Sport:
    deals: int
    move_seconds: float
    tables: tuple[SportTable, ...]

    @property
    def finished(self) -> bool:
        return all(len(t.sheet) == self.deals for t in self.tables)

    def table(self, table_id: object) -> SportTable:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise TournamentError(
            f"no table {table_id!r} in this event; tables: {', '.join(t.id for t in self.tables)}"
        )

    def standings(self) -> list[dict]:
        """All pairs, most points first (points are what the pair was credited, SPT-8)."""
        rows = [
            {"pair": pair, "table": t.id, "points": pts, "deals": len(t.sheet)}
            for t in self.tables
            for pair, pts in t.totals().items()
        ]
        return sorted(rows, key=lambda r: (-r["points"], r["table"], r["pair"]))

    def to_json(self, now: float | None = None) -> dict:
        """The replay JSON; with `now` each table's move timer is included (SPT-9)."""
        tables = []
        for t in self.tables:
            opener = t.next_opener()
            row = {
                "table": t.id,
                "seats": list(t.seats),
                "pairs": list(t.pairs),
                "sheet": [line.to_json() for line in t.sheet],
                "totals": t.totals(),
                "deals_played": len(t.sheet),
                "finished": len(t.sheet) == self.deals,
                "next": None if len(t.sheet) == self.deals else {
                    "deal": len(t.sheet) + 1,
                    "opener": opener,
                    "lead_pair": t.pair_of(opener) if opener else None,
                },
                "turn": {"player": t.turn[0], "started_at": t.turn[1]} if t.turn else None,
            }
            if now is not None and t.turn:
                row["timer"] = move_timer(t.turn[1], now, self.move_seconds).to_json()
            tables.append(row)
        return {
            "format": FORMAT,
            "deals_per_table": self.deals,
            "move_seconds": self.move_seconds,
            "tables": tables,
            "standings": self.standings(),
            "finished": self.finished,
        }


def start(tables: Mapping[str, Sequence[str]], deals: int, move_seconds: float = DEFAULT_MOVE_SECONDS) -> Sport:
    if not isinstance(tables, Mapping) or not tables:
        raise TournamentError('"tables" must map a table name to its 4 players, clockwise')
    seen: set[str] = set()
    built = []
    for tid, seats in tables.items():
        if not isinstance(seats, list) or len(seats) != 4 or not all(isinstance(p, str) and p for p in seats):
            raise TournamentError(f"table {tid} must list 4 player names clockwise (partners opposite)")
        dup = [p for p in seats if p in seen or seats.count(p) > 1]
        if dup:
            raise TournamentError(f"{dup[0]} is seated twice")
        seen.update(seats)
        built.append(SportTable(id=str(tid), seats=tuple(seats)))
    if isinstance(move_seconds, bool) or not isinstance(move_seconds, int | float) or move_seconds <= 0:
        raise TournamentError(f'"move_seconds" must be a positive number, got {move_seconds!r}')
    return Sport(deals=deals, move_seconds=float(move_seconds), tables=tuple(built))


def _replace_table(state: Sport, table: SportTable) -> Sport:
    return replace(state, tables=tuple(table if t.id == table.id else t for t in state.tables))


def play(state: Sport, table_id: str, rec: Mapping) -> Sport:
    """Add one deal to a table's sheet. `rec` holds `went_out` + `pips`, `blocked` + `pips`, or
    `penalty` (the player who passed wrongly); `opener` is optional and checked."""
    table = state.table(table_id)
    number = len(table.sheet) + 1
    if number > state.deals:
        raise TournamentError(f"table {table.id} has already played all {state.deals} deals")
    known = {p for t in state.tables for p in t.seats}
    opener = rec.get("opener")
    expected = table.next_opener()
    if opener is not None:
        if opener not in table.seats:
            raise TournamentError(f"opener {opener!r} is not at table {table.id} ({', '.join(table.seats)})")
        if expected is not None and opener != expected:
            raise TournamentError(
                f"deal {number} at table {table.id} is led by {expected} ({table.pair_of(expected)}), "
                f"not {opener}: the lead passes to the left and alternates between the pairs"
            )
    else:
        opener = expected
    first, second = table.pairs
    pips = None
    if rec.get("penalty") is not None:
        culprit = rec["penalty"]
        if culprit not in table.seats:
            raise TournamentError(f"penalty names {culprit!r}, who is not at table {table.id}")
        loser = table.pair_of(culprit)
        winner = second if loser == first else first
        points = {winner: PENALTY, loser: 0}
        outcome, rule = "penalty", "SPT-11"
    else:
        pips = need_points(rec, "pips")
        check_table(pips, list(table.seats), known, f"the pips of table {table.id}")
        sums = {pair: 0 for pair in table.pairs}
        for p in table.seats:
            sums[table.pair_of(p)] += pips[p]
        if rec.get("blocked"):
            outcome, rule = "blocked", "SPT-8"
            if sums[first] == sums[second]:
                winner, points = None, {first: 0, second: 0}
            else:
                winner = first if sums[first] < sums[second] else second
                loser = second if winner == first else first
                points = {winner: sums[loser] - sums[winner], loser: 0}
        else:
            out = rec.get("went_out")
            if out not in table.seats:
                raise TournamentError(
                    f'a result needs "went_out" (a player of table {table.id}), "blocked": true, or "penalty"'
                )
            outcome, rule = "out", "SPT-8"
            winner = table.pair_of(out)
            loser = second if winner == first else first
            points = {winner: sums[loser], loser: 0}
    line = SheetLine(
        deal=number,
        opener=opener,
        lead_pair=table.pair_of(opener) if opener else None,
        outcome=outcome,
        winner_pair=winner,
        points={pair: points[pair] for pair in table.pairs},
        pips={p: pips[p] for p in table.seats} if pips else None,
        penalty=rec.get("penalty"),
        rule=rule,
    )
    return _replace_table(state, replace(table, sheet=(*table.sheet, line), turn=None))


def turn(state: Sport, table_id: str, player: str, at: float) -> Sport:
    """A player starts thinking over a move at `at` (seconds); the timer runs from there."""
    table = state.table(table_id)
    if player not in table.seats:
        raise TournamentError(f"{player!r} is not at table {table.id} ({', '.join(table.seats)})")
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise TournamentError(f'"at" must be a time in seconds, got {at!r}')
    if len(table.sheet) == state.deals:
        raise TournamentError(f"table {table.id} has finished its {state.deals} deals")
    return _replace_table(state, replace(table, turn=(player, float(at))))


def replay(lines: Sequence[tuple[int, dict]]) -> Sport:
    lineno, decl = lines[0]
    try:
        state = start(decl.get("tables"), need_int(decl, "deals", minimum=1),
                      decl.get("move_seconds", DEFAULT_MOVE_SECONDS))
    except TournamentError as exc:
        raise exc.at(lineno=lineno) from None
    for lineno, rec in lines[1:]:
        try:
            if rec["event"] == "result":
                state = play(state, rec.get("table"), rec)
            elif rec["event"] == "turn":
                state = turn(state, rec.get("table"), rec.get("player"), rec.get("at"))
            else:
                raise TournamentError(
                    f'a sport-pairs record holds "result" and "turn" lines after the first, got {rec["event"]!r}'
                )
        except TournamentError as exc:
            raise exc.at(lineno=lineno) from None
    return state
