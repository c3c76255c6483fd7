"""Baltic Rally «Козёл» bracket (BAL-T), as pure state transitions.

Structure (the seed gives the stages, not the arithmetic; these are the documented defaults):
- qualifying rounds: everyone not yet qualified is drawn into tables of 4; the player with the
  fewest points at each table qualifies (BAL-T, BAL-17). Rounds repeat until 8 have qualified;
  a round forms at most as many tables as qualifiers are still needed. When the pool does not
  fill whole tables, those who sat out the previous round play first, then those with fewer
  qualifying points, then lot; whoever is left out of the round that fills the last places is
  eliminated. 8 entrants skip qualifying, 4 play the final only.
- semi-final: the 8 qualifiers drawn into 2 tables of 4; the 2 lowest of each table advance.
- final: one table of 4; fewest points wins. Places 1-4 from the final, 5-8 from the semi-final.
- no-show (qualifying only, BAL-T): the absent player forfeits (eliminated) and the seat goes to a
  volunteer (a new name, who joins the event) or to an eliminated player.
Ties for advancing are drawn by a seeded lot, kept in `lots`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby

from engine.tournament.errors import TournamentError
from engine.tournament.lot import Lot, draw
from engine.tournament.records import check_table, need_int, need_name_list, need_points

FORMAT = "baltic-rally"
TABLE = 4
SEMI_SIZE = 8
QUALIFYING, SEMI, FINAL, FINISHED = "qualifying", "semi-final", "final", "finished"


@dataclass(frozen=True)
class Table:
    id: str
    stage: str
    players: tuple[str, ...]  # in seat order, clockwise
    points: dict[str, int] | None = None  # game result, None while being played
    advances: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        return self.points is not None

    def to_json(self) -> dict:
        return {
            "table": self.id,
            "stage": self.stage,
            "players": list(self.players),
            "points": dict(self.points) if self.points is not None else None,
            "advances": list(self.advances),
        }


@dataclass(frozen=True)
class Round:
    name: str  # "Q1", "Q2", ..., "S", "F"
    stage: str
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...] = ()  # still in the event, not drawn this round
    eliminated: tuple[str, ...] = ()  # left out of the round that fills the last places

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)

    def to_json(self) -> dict:
        return {
            "round": self.name,
            "stage": self.stage,
            "tables": [t.to_json() for t in self.tables],
            "sitting_out": list(self.sitting_out),
            "eliminated": list(self.eliminated),
        }


@dataclass(frozen=True)
class Baltic:
    players: tuple[str, ...]  # entrants in registration order; volunteers appended
    seed: int
    rounds: tuple[Round, ...]
    qualified: tuple[str, ...] = ()
    finalists: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()  # in the order they went out
    qualifying_points: dict[str, int] | None = None
    places: dict[str, int] | None = None
    lots: tuple[Lot, ...] = ()
    replacements: tuple[dict, ...] = ()

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    @property
    def finished(self) -> bool:
        return self.current.stage == FINAL and self.current.done

    @property
    def stage(self) -> str:
        return FINISHED if self.finished else self.current.stage

    def call_list(self) -> list[dict]:
        """Who plays next and where: every table of the current round still without a result.
        Players are called 10 minutes before their game (BAL-T)."""
        return [
            {"round": self.current.name, "stage": t.stage, "table": t.id, "players": list(t.players)}
            for t in self.current.tables
            if not t.done
        ]

    def to_json(self) -> dict:
        places = self.places or {}
        return {
            "format": FORMAT,
            "players": list(self.players),
            "seed": self.seed,
            "stage": self.stage,
            "rounds": [r.to_json() for r in self.rounds],
            "qualified": list(self.qualified),
            "finalists": list(self.finalists),
            "eliminated": list(self.eliminated),
            "qualifying_points": dict(self.qualifying_points or {}),
            "call_list": self.call_list(),
            "finished": self.finished,
            "places": dict(sorted(places.items(), key=lambda kv: kv[1])),
            "winner": next((p for p, v in places.items() if v == 1), None) if self.finished else None,
            "replacements": list(self.replacements),
            "lots": [lot.to_json() for lot in self.lots],
        }


def _draw_tables(seed: int, name: str, stage: str, seated: Sequence[str], ids: Sequence[str]) -> tuple[tuple[Table, ...], Lot]:
    lot = draw(seed, f"{name}/tables", "BAL-T", seated, len(seated))
    tables = tuple(
        Table(id=tid, stage=stage, players=lot.drawn[i * TABLE:(i + 1) * TABLE]) for i, tid in enumerate(ids)
    )
    return tables, lot


def start(players: Sequence[str], seed: int) -> Baltic:
    players = tuple(players)
    n = len(players)
    if n == TABLE:
        return Baltic(players=players, seed=seed, rounds=(Round("F", FINAL, (Table("F", FINAL, players),)),),
                      finalists=players, qualifying_points={})
    if n == SEMI_SIZE:
        tables, lot = _draw_tables(seed, "S", SEMI, players, ["S-1", "S-2"])
        return Baltic(players=players, seed=seed, rounds=(Round("S", SEMI, tables),),
                      qualified=players, qualifying_points={}, lots=(lot,))
    if n < 11:
        raise TournamentError(
            f"a Baltic bracket takes 4 (final only), 8 (semi-final and final) or at least 11 players "
            f"(qualifying tables of 4 until 8 qualify), got {n}"
        )
    state = Baltic(players=players, seed=seed, rounds=(), qualifying_points={p: 0 for p in players})
    return _next_qualifying(state)


def _next_qualifying(state: Baltic) -> Baltic:
    number = sum(1 for r in state.rounds if r.stage == QUALIFYING) + 1
    name = f"Q{number}"
    out = set(state.qualified) | set(state.eliminated)
    pool = [p for p in state.players if p not in out]
    needed = SEMI_SIZE - len(state.qualified)
    n_tables = min(len(pool) // TABLE, needed)
    if n_tables == 0:
        raise TournamentError(f"only {len(pool)} players left to fill {needed} qualifying places (BAL-T)")
    lots: list[Lot] = []
    seats = n_tables * TABLE
    if seats < len(pool):
        sat_out = set(state.rounds[-1].sitting_out) if state.rounds else set()
        qp = state.qualifying_points or {}

        def priority(p: str) -> tuple[int, int]:
            return (0 if p in sat_out else 1, qp.get(p, 0))

        seated: list[str] = []
        for key, same in groupby(sorted(pool, key=priority), key=priority):
            members = set(same)
            group = [p for p in pool if p in members]
            need = seats - len(seated)
            if need <= 0:
                break
            if len(group) <= need:
                seated += group
            else:
                lot = draw(state.seed, f"{name}/seats/{key[0]}/{key[1]}", "BAL-T", group, need)
                lots.append(lot)
                seated += lot.drawn
        seated = [p for p in pool if p in seated]
    else:
        seated = pool
    left_out = tuple(p for p in pool if p not in seated)
    # The round that fills the last places leaves the others no way to qualify.
    eliminated = left_out if n_tables == needed else ()
    sitting_out = () if eliminated else left_out
    ids = [f"{name}-{i + 1}" for i in range(n_tables)]
    tables, lot = _draw_tables(state.seed, name, QUALIFYING, seated, ids)
    lots.append(lot)
    rnd = Round(name, QUALIFYING, tables, sitting_out=sitting_out, eliminated=eliminated)
    return replace(state, rounds=(*state.rounds, rnd), eliminated=(*state.eliminated, *eliminated),
                   lots=(*state.lots, *lots))


def _lowest(table: Table, k: int, seed: int, rule: str) -> tuple[tuple[str, ...], list[Lot]]:
    """The k players with the fewest points at a finished table; a tie across the cut is drawn."""
    assert table.points is not None
    pts = table.points
    chosen: list[str] = []
    lots: list[Lot] = []
    ranked = sorted(table.players, key=pts.__getitem__)
    for value, same in groupby(ranked, key=pts.__getitem__):
        members = set(same)
        group = [p for p in table.players if p in members]
        need = k - len(chosen)
        if need <= 0:
            break
        if len(group) <= need:
            chosen += group
        else:
            lot = draw(seed, f"{table.id}/advance/{value}", rule, group, need)
            lots.append(lot)
            chosen += lot.drawn
    return tuple(chosen), lots


def _ranked(players: Sequence[str], pts: Mapping[str, int], seed: int, tag: str, rule: str) -> tuple[list[str], list[Lot]]:
    """Fewest points first, ties by lot."""
    order: list[str] = []
    lots: list[Lot] = []
    for value, same in groupby(sorted(players, key=pts.__getitem__), key=pts.__getitem__):
        members = set(same)
        group = [p for p in players if p in members]
        if len(group) > 1:
            lot = draw(seed, f"{tag}/{value}", rule, group, len(group))
            lots.append(lot)
            group = list(lot.drawn)
        order += group
    return order, lots


def _find_open_table(state: Baltic, table_id: object) -> int:
    if not isinstance(table_id, str):
        raise TournamentError(f'"table" must be a table name such as "Q1-1", "S-2" or "F", got {table_id!r}')
    if state.finished:
        raise TournamentError("the bracket is finished (the final has its result); nothing is due")
    for i, t in enumerate(state.current.tables):
        if t.id == table_id:
            if t.done:
                raise TournamentError(f"table {table_id} already has its result")
            return i
    for r in state.rounds[:-1]:
        if any(t.id == table_id for t in r.tables):
            raise TournamentError(f"table {table_id} belongs to round {r.name}, which is over")
    open_ids = ", ".join(t["table"] for t in state.call_list())
    raise TournamentError(f"no table {table_id!r} is being played; open tables: {open_ids}")


def play(state: Baltic, table_id: str, points: Mapping[str, int]) -> Baltic:
    """Record one table's game result (points per player, BAL-6/7); advance the bracket when the
    round is complete. Raises TournamentError for a table not due or a wrong set of players."""
    i = _find_open_table(state, table_id)
    table = state.current.tables[i]
    check_table(points, list(table.players), set(state.players), f"table {table.id}")
    k = 2 if table.stage == SEMI else 1
    lots: list[Lot] = []
    advances: tuple[str, ...] = ()
    if table.stage != FINAL:
        advances, lots = _lowest(replace(table, points=dict(points)), k, state.seed, "BAL-T")
    done = replace(table, points={p: points[p] for p in table.players}, advances=advances)
    tables = list(state.current.tables)
    tables[i] = done
    rnd = replace(state.current, tables=tuple(tables))
    state = replace(state, rounds=(*state.rounds[:-1], rnd), lots=(*state.lots, *lots))
    if table.stage == QUALIFYING:
        qp = dict(state.qualifying_points or {})
        for p in table.players:
            qp[p] = qp.get(p, 0) + points[p]
        state = replace(state, qualifying_points=qp, qualified=(*state.qualified, *advances))
    return _advance(state) if rnd.done else state


def _advance(state: Baltic) -> Baltic:
    rnd = state.current
    if rnd.stage == QUALIFYING:
        if len(state.qualified) < SEMI_SIZE:
            return _next_qualifying(state)
        out = set(state.qualified) | set(state.eliminated)
        rest = tuple(p for p in state.players if p not in out)
        tables, lot = _draw_tables(state.seed, "S", SEMI, state.qualified, ["S-1", "S-2"])
        return replace(state, eliminated=(*state.eliminated, *rest), lots=(*state.lots, lot),
                       rounds=(*state.rounds, Round("S", SEMI, tables)))
    if rnd.stage == SEMI:
        finalists = tuple(p for t in rnd.tables for p in t.advances)
        losers = [p for t in rnd.tables for p in t.players if p not in finalists]
        semi_pts = {p: t.points[p] for t in rnd.tables for p in t.players if t.points}
        order, lots = _ranked(losers, semi_pts, state.seed, "S/places", "BAL-T")
        places = {p: 5 + i for i, p in enumerate(order)}
        return replace(state, finalists=finalists, places=places, eliminated=(*state.eliminated, *order),
                       lots=(*state.lots, *lots), rounds=(*state.rounds, Round("F", FINAL, (Table("F", FINAL, finalists),))))
    final = rnd.tables[0]
    assert final.points is not None
    order, lots = _ranked(final.players, final.points, state.seed, "F/places", "BAL-17")
    places = dict(state.places or {})
    places.update({p: 1 + i for i, p in enumerate(order)})
    return replace(state, places=places, lots=(*state.lots, *lots))


def no_show(state: Baltic, table_id: str, player: str, replacement: str) -> Baltic:
    """BAL-T: a qualifying no-show is replaced by a volunteer or an eliminated player."""
    i = _find_open_table(state, table_id)
    table = state.current.tables[i]
    if table.stage != QUALIFYING:
        raise TournamentError(f"table {table.id} is in the {table.stage}: a no-show may be replaced only in qualifying rounds (BAL-T)")
    if player not in state.players:
        raise TournamentError(f"unknown player {player!r} in the no-show at table {table.id}")
    if player not in table.players:
        raise TournamentError(f"{player} is not at table {table.id} ({', '.join(table.players)})")
    if not isinstance(replacement, str) or not replacement.strip():
        raise TournamentError('"replacement" must name the volunteer or eliminated player who takes the seat')
    seated_now = {p for t in state.current.tables for p in t.players}
    if replacement in state.players and replacement not in state.eliminated:
        where = "is playing this round" if replacement in seated_now else "is still in the event"
        raise TournamentError(
            f"{replacement} {where}; a replacement must be a volunteer or an eliminated player (BAL-T)"
        )
    players = state.players if replacement in state.players else (*state.players, replacement)
    seats = tuple(replacement if p == player else p for p in table.players)
    tables = list(state.current.tables)
    tables[i] = replace(table, players=seats)
    rnd = replace(state.current, tables=tuple(tables))
    qp = dict(state.qualifying_points or {})
    qp.setdefault(replacement, 0)
    eliminated = tuple(p for p in state.eliminated if p != replacement) + (player,)
    note = {"round": rnd.name, "table": table.id, "player": player, "replacement": replacement,
            "volunteer": replacement not in state.players}
    return replace(state, players=players, rounds=(*state.rounds[:-1], rnd), eliminated=eliminated,
                   qualifying_points=qp, replacements=(*state.replacements, note))


def replay(lines: Sequence[tuple[int, dict]]) -> Baltic:
    lineno, decl = lines[0]
    try:
        state = start(need_name_list(decl, "players", min_len=4), need_int(decl, "seed"))
    except TournamentError as exc:
        raise exc.at(lineno=lineno) from None
    for lineno, rec in lines[1:]:
        try:
            if rec["event"] == "result":
                state = play(state, rec.get("table"), need_points(rec))
            elif rec["event"] == "no-show":
                state = no_show(state, rec.get("table"), rec.get("player"), rec.get("replacement"))
            else:
                raise TournamentError(
                    f'a baltic-rally record holds "result" and "no-show" lines after the first, got {rec["event"]!r}'
                )
        except TournamentError as exc:
            raise exc.at(lineno=lineno) from None
    return state
