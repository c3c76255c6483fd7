"""Replay a whole record: the JSON that `dominocam replay` prints and the web recomputes."""

from __future__ import annotations

from engine.errors import RecordError
from engine.events import Event, from_dict
from engine.game import apply, new_game
from engine.record import typed_events
from engine.scoring import deal_result, pair_key
from engine.state import Flag, GameState


def replay_events(events: list[Event] | list[dict], *, strict: bool = False, path: str | None = None,
                  checked: bool = False) -> dict:
    """Check and replay `events` (typed or dicts; line 0 is the game event). Raises `RecordError`
    for bad input (with `path` and line) and, with `strict`, `IllegalEventError` at the first broken
    rule. `checked=True` skips the record check for events that `read_record` already checked."""
    state, flags = replay_state(events, strict=strict, path=path, checked=checked)
    return summary(state, flags)


def replay_state(events: list[Event] | list[dict], *, strict: bool = False, path: str | None = None,
                 checked: bool = False) -> tuple[GameState, list[Flag]]:
    """The engine state after `events` and every flag raised on the way (as `replay_events`)."""
    if not checked:
        events = typed_events(events, path)
    else:
        events = [e if isinstance(e, Event) else from_dict(e, i) for i, e in enumerate(events)]
    state = new_game(events[0])
    flags: list[Flag] = []
    for event in events[1:]:
        try:
            state, found = apply(state, event, strict=strict)
        except RecordError as exc:
            raise exc.at(path=path) from None
        flags.extend(found)
    return state, flags


def _public(result: dict) -> dict:
    return {k: v for k, v in result.items() if not k.startswith("_")}


def summary(state: GameState, flags: list[Flag], *, committed: list[dict] | None = None) -> dict:
    """The replay JSON of a state: deals (the current one included), totals, game end, standings.
    `committed`: the committed deals' JSON already made for this game (a list this extends, kept
    by a caller that asks after every event; treat its dicts as read-only)."""
    rules = state.rules
    if committed is None:
        deals = [_public(r) for r in state.results]
    else:
        if len(committed) > len(state.results):
            raise ValueError("committed deals of another game")
        committed.extend(_public(r) for r in state.results[len(committed):])
        deals = list(committed)
    totals = dict(state.totals) if state.totals else (
        {pair_key(p): 0 for p in state.pairs} if state.pairs else {p: 0 for p in state.players})
    eggs = state.eggs
    d = state.deal
    played = len(state.results)
    if d is not None and (d.layout.placed or d.end is not None):
        result, eggs_after = deal_result(state, d)
        deals.append(_public(result))
        if d.end is not None:
            played += 1
            eggs = eggs_after
            for key, value in result["points"].items():
                totals[key] = totals.get(key, 0) + (value or 0)
    order = list(totals)
    if rules.higher_is_better:
        standings = sorted(order, key=lambda k: (-totals[k], order.index(k)))
    else:
        standings = sorted(order, key=lambda k: (totals[k], order.index(k)))
    finished = False
    loser = None
    if rules.deals is not None and played >= rules.deals:
        finished = True
    if rules.target is not None and not rules.higher_is_better and max(totals.values()) >= rules.target:
        finished = True  # BYK-2.5, BAL-6, SEV-3: reaching the target loses
    if finished:
        worst = standings[-1]
        if len(standings) > 1 and totals[standings[-2]] == totals[worst]:
            worst = None if rules.higher_is_better else worst
        loser = worst
    return {
        "variant": rules.name,
        "players": list(state.players),
        "pairs": [pair_key(p) for p in state.pairs] if state.pairs else None,
        "options": rules.options(),
        "flags": [f.to_dict() for f in sorted(flags, key=lambda f: f.event)],
        "deals": deals,
        "totals": totals,
        "eggs": [{"players": sorted(who), "points": value} for who, value in eggs],
        "finished": finished,
        "loser": loser,
        "standings": standings,
        "layout": [p.to_dict() for p in (d.layout.placed if d is not None else ())],
        "open_ends": [[str(t), v] for t, v in (d.layout.open_ends() if d is not None else [])],
        "to_move": state.to_move,
    }
