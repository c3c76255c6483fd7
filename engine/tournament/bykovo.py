"""Bykovo micro-tournament «игра вприсядку» (BYK-2.1 … 2.8), as pure state transitions.

`start()` fixes the seating order and the first deal's four; `play()` takes one finished deal's
points and places and returns the next state (who plays next, totals, eliminations, final places).
Nothing here does I/O; lots come from the declared seed and are kept in `state.lots`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby

from engine.tournament.errors import TournamentError
from engine.tournament.lot import Lot, draw
from engine.tournament.ranking import (
    competition_places,
    is_competition_ranking,
    order_by_total_and_dynamics,
)
from engine.tournament.records import need_int, need_name_list

FORMAT = "bykovo-micro"
SEATS = 4  # BYK-1.1
LIMITS = {4: 100, 5: 75, 6: 60, 7: 50}  # BYK-2.5, by the number at the start
MAX_LEFT = 3  # BYK-2.7: the event ends with 3 or fewer still in
OFFICIAL = 3  # BYK-2.8


@dataclass(frozen=True)
class Deal:
    """One finished deal as the replay prints it."""

    number: int
    seated: tuple[str, ...]
    sitting_out: tuple[str, ...]
    points: dict[str, int]
    places: dict[str, int]
    totals: dict[str, int]
    eliminated: tuple[str, ...]

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "seated": list(self.seated),
            "sitting_out": list(self.sitting_out),
            "points": dict(self.points),
            "places": dict(self.places),
            "totals": dict(self.totals),
            "eliminated": list(self.eliminated),
        }


@dataclass(frozen=True)
class Bykovo:
    """The whole event after some deals. Never mutated: `play` returns a new one."""

    players: tuple[str, ...]  # BYK-2.2: fixed seating order
    seed: int
    limit: int
    deals: tuple[Deal, ...]
    history: tuple[dict[str, int], ...]  # totals before deal 1, then after each deal
    places: dict[str, int]  # final places, filled as players drop out (1 = best)
    lots: tuple[Lot, ...]
    next_seated: tuple[str, ...]  # empty once finished
    finished: bool

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.history[-1])

    @property
    def active(self) -> tuple[str, ...]:
        """Players still in the event, in seating order."""
        return tuple(p for p in self.players if p not in self.places)

    @property
    def next_sitting_out(self) -> tuple[str, ...]:
        return tuple(p for p in self.active if p not in self.next_seated)

    @property
    def official(self) -> list[str]:
        """BYK-2.8: the top three places, once the event is over."""
        if not self.finished:
            return []
        return sorted((p for p, v in self.places.items() if v <= OFFICIAL), key=self.places.__getitem__)

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "players": list(self.players),
            "seed": self.seed,
            "limit": self.limit,
            "deals": [d.to_json() for d in self.deals],
            "totals": self.totals,
            "next_seated": list(self.next_seated),
            "next_sitting_out": list(self.next_sitting_out) if not self.finished else [],
            "finished": self.finished,
            "places": dict(sorted(self.places.items(), key=lambda kv: kv[1])),
            "official": self.official,
            "lots": [lot.to_json() for lot in self.lots],
        }


def _in_seating_order(players: Sequence[str], subset: set[str] | Sequence[str]) -> tuple[str, ...]:
    chosen = set(subset)
    return tuple(p for p in players if p in chosen)


def start(players: Sequence[str], seed: int, first: Sequence[str] | None = None) -> Bykovo:
    """Open the event: BYK-2.1 4..7 players, BYK-2.2 fixed order, BYK-2.3 the first four."""
    players = tuple(players)
    if len(set(players)) != len(players):
        raise TournamentError("a player is named twice in the seating order (BYK-2.2)")
    if not SEATS <= len(players) <= 7:
        raise TournamentError(f"a micro-tournament takes 4 to 7 players (BYK-2.1), got {len(players)}")
    lots: list[Lot] = []
    if first is not None:
        first = list(first)
        unknown = [p for p in first if p not in players]
        if unknown:
            raise TournamentError(f'unknown player {unknown[0]!r} in "first"')
        if len(set(first)) != SEATS:
            raise TournamentError(f'"first" must name 4 different players (BYK-1.1), got {len(set(first))}')
        seated = _in_seating_order(players, first)
    elif len(players) == SEATS:
        seated = players
    else:
        # BYK-2.3: no rating, so the first four are drawn by lot.
        lot = draw(seed, "deal1/first", "BYK-2.3", players, SEATS)
        lots.append(lot)
        seated = _in_seating_order(players, lot.drawn)
    zero = {p: 0 for p in players}
    return Bykovo(
        players=players,
        seed=seed,
        limit=LIMITS[len(players)],
        deals=(),
        history=(zero,),
        places={},
        lots=tuple(lots),
        next_seated=seated,
        finished=False,
    )


def _check_result(state: Bykovo, points: Mapping[str, int], places: Mapping[str, int] | None) -> dict[str, int]:
    number = len(state.deals) + 1
    seated = list(state.next_seated)
    what = f"deal {number}"
    for name in list(points) + list(places or {}):
        if name not in state.players:
            raise TournamentError(f"unknown player {name!r} in the result of {what}")
        if name not in seated:
            why = "is eliminated" if name in state.places else "sits out"
            raise TournamentError(
                f"{name} {why}: {what} is played by {', '.join(seated)} (BYK-2.4)"
            )
    for key, given in (("points", points), ("places", places)):
        if given is not None:
            missing = [p for p in seated if p not in given]
            if missing:
                raise TournamentError(f'"{key}" of {what} lacks {", ".join(missing)} (seated: {", ".join(seated)})')
    for name, pts in points.items():
        if isinstance(pts, bool) or not isinstance(pts, int) or pts < 0:
            raise TournamentError(f"points of {name} must be a whole number >= 0, got {pts!r}")
    if places is None:
        return competition_places(points)
    for name, place in places.items():
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= SEATS:
            raise TournamentError(f"place of {name} must be 1 to 4, got {place!r}")
    if not is_competition_ranking(places):
        raise TournamentError(
            f"places of {what} must rank 1..4 with ties sharing a place (1, 2, 2, 4), got {dict(places)}"
        )
    return dict(places)


def play(state: Bykovo, points: Mapping[str, int], places: Mapping[str, int] | None = None) -> Bykovo:
    """Record the deal that was due; return the state with the next deal's four.

    `points` are added to the totals (BYK-2.5: pips left in hand, the winner usually 0); `places`
    are the deal's places (BYK-1.12), derived from points when omitted.
    Raises TournamentError when the event is over or the result names the wrong table.
    """
    if state.finished:
        raise TournamentError("the micro-tournament is already finished (BYK-2.7); no deal is due")
    number = len(state.deals) + 1
    places = _check_result(state, points, places)
    seated = state.next_seated
    before = state.active
    totals = dict(state.history[-1])
    for p in seated:
        totals[p] += points[p]
    history = (*state.history, totals)
    lots = list(state.lots)
    final = dict(state.places)

    # BYK-2.5: reaching the limit eliminates; BYK-2.6: simultaneous ones ordered among themselves
    # and placed below everyone still in.
    out = [p for p in seated if totals[p] >= state.limit]
    order, drawn = order_by_total_and_dynamics(out, history, seed=state.seed, tag=f"deal{number}/out", rule="BYK-2.6")
    lots += drawn
    for i, p in enumerate(order):
        final[p] = len(before) - len(order) + 1 + i
    left = [p for p in before if p not in out]

    deal = Deal(
        number=number,
        seated=seated,
        sitting_out=tuple(p for p in before if p not in seated),
        points={p: points[p] for p in seated},
        places={p: places[p] for p in seated},
        totals=totals,
        eliminated=_in_seating_order(state.players, out),
    )
    if len(left) <= MAX_LEFT:
        # BYK-2.7: the rest are placed by total, then dynamics, then lot.
        order, drawn = order_by_total_and_dynamics(left, history, seed=state.seed, tag=f"deal{number}/end", rule="BYK-2.7")
        lots += drawn
        final.update({p: i + 1 for i, p in enumerate(order)})
        return replace(state, deals=(*state.deals, deal), history=history, places=final,
                       lots=tuple(lots), next_seated=(), finished=True)

    next_seated, drawn = _next_four(state.players, deal, left, totals, seed=state.seed)
    lots += drawn
    return replace(state, deals=(*state.deals, deal), history=history, places=final,
                   lots=tuple(lots), next_seated=next_seated, finished=False)


def _next_four(
    players: Sequence[str], deal: Deal, left: Sequence[str], totals: Mapping[str, int], *, seed: int
) -> tuple[tuple[str, ...], list[Lot]]:
    """BYK-2.4: everyone who sat out comes back; the free seats go to the worst places of the deal
    just played, ties to the higher total, then lot."""
    returning = [p for p in deal.sitting_out if p in left]
    free = SEATS - len(returning)
    pool = [p for p in deal.seated if p in left]

    def worse_first(p: str) -> tuple[int, int]:
        return (-deal.places[p], -totals[p])

    chosen: list[str] = []
    lots: list[Lot] = []
    for key, same in groupby(sorted(pool, key=worse_first), key=worse_first):
        group = list(same)
        need = free - len(chosen)
        if need <= 0:
            break
        if len(group) <= need:
            chosen += group
        else:
            group = list(_in_seating_order(players, group))
            lot = draw(seed, f"deal{deal.number + 1}/seat/place{-key[0]}", "BYK-2.4", group, need)
            lots.append(lot)
            chosen += lot.drawn
    return _in_seating_order(players, returning + chosen), lots


def replay(lines: Sequence[tuple[int, dict]]) -> Bykovo:
    """Replay a parsed record (declaration first). Errors carry the line number."""
    lineno, decl = lines[0]
    try:
        players = need_name_list(decl, "players")
        seed = need_int(decl, "seed")
        first = decl.get("first")
        if first is not None:
            first = need_name_list(decl, "first")
        state = start(players, seed, first)
    except TournamentError as exc:
        raise exc.at(lineno=lineno) from None
    for lineno, rec in lines[1:]:
        try:
            if rec["event"] != "result":
                raise TournamentError(
                    f'a bykovo-micro record holds only "result" lines after the first, got {rec["event"]!r}'
                )
            points = rec.get("points")
            if not isinstance(points, dict):
                raise TournamentError('a result needs "points": {player: points} for the four seated')
            places = rec.get("places")
            if places is not None and not isinstance(places, dict):
                raise TournamentError('"places" must be an object {player: place}')
            state = play(state, points, places)
        except TournamentError as exc:
            raise exc.at(lineno=lineno) from None
    return state
