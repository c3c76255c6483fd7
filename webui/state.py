"""The state every page shows: the engine's state of the current game plus what the web adds.

`LiveGame` holds the current game and its engine state, advanced by `engine.game.apply` as the
hub appends entries; `live_state` arranges it for the pages (banner, move list, flags mapped to
journal ids) without replaying. `build_state` is the same page state computed from scratch (pure:
journal entries + camera status in, one JSON-able dict out, replaying the record), for a past
position (`at`) and for callers that hold only entries. The engine decides everything about the
game (see docs/CONTRACTS.md).
"""

from __future__ import annotations

import json
from typing import Any

from engine.events import Event
from engine.game import apply, new_game
from engine.record import typed_events
from engine.replay import replay_state, summary
from engine.state import Flag, GameState
from webui.journal import Move, current_game
from webui.store import Entry

# The banners' words are in webui/words.py (translated per page by webui/localize.py); here each
# banner is its kind and the names it needs. English title/text stay for scripts reading the JSON.
BANNERS = {
    # BYK-1.11: рыба (fish) vs сортир: both end the deal, the last player to lay a tile wins.
    "fish": ("FISH", "Every open end shows a value whose seven tiles are all on the table"),
    "sortir": ("SORTIR", "No one can play, and it is not a fish"),
}


def replay(record: list[dict[str, Any]]) -> dict[str, Any]:
    """engine.replay.replay_events of a whole record (a past position, the tournament feed)."""
    from engine.replay import replay_events

    return replay_events(record)


def _banner(result: dict[str, Any], deals_started: int) -> dict[str, Any] | None:
    deals = result.get("deals") or []
    if result.get("finished"):
        loser = result.get("loser")
        text = f"{loser} loses the game" if loser else "The game is over"
        return {"kind": "game_over", "title": "GAME OVER", "text": text, "loser": loser}
    if not deals:
        return None
    last = deals[-1]
    # Only the deal being played (or just ended) gets a banner, not one from an earlier deal.
    if deals_started and last.get("number", deals_started) != deals_started:
        return None
    eggs = last.get("eggs")
    if eggs:  # BAL-15: equal top sums, the points hang until one of these players loses (BAL-16)
        who, points = (eggs[0], eggs[1]) if isinstance(eggs, list) and len(eggs) == 2 else ([], None)
        names = " and ".join(who) if isinstance(who, list) else str(who)
        text = f"Eggs (BAL-15): {points} points hang between {names}" if names else "Eggs (BAL-15)"
        return {"kind": "eggs", "title": "EGGS", "text": text, "names": list(who) if isinstance(who, list) else [],
                "points": points}
    end = last.get("end")
    if end in BANNERS:
        title, text = BANNERS[end]
        winner = last.get("winner")
        return {"kind": end, "title": title, "text": text + (f" — {winner} laid the last tile" if winner else ""),
                "winner": winner}
    if end == "out" and last.get("winner"):
        return {"kind": "out", "title": "DOMINO!", "text": f"{last['winner']} is out", "winner": last["winner"]}
    return None


def build_state(
    entries: list[Entry], camera: dict[str, Any] | None = None, at: int | None = None
) -> dict[str, Any]:
    """The JSON of /api/state. `at`: show the game as it was after record line `at` (0-based)."""
    game = current_game(entries)
    last_id = entries[-1].id if entries else 0
    base: dict[str, Any] = {
        "last_event_id": last_id,
        "camera": camera or {"state": "none", "message": "no camera"},
        "moves": [m.as_dict() for m in game.moves],
        "at": None,
        "live": True,
    }
    if game.game_event is None:
        return base | {"game": None, "players": [], "flags": [], "deals": [], "totals": {}, "banner": None,
                       "error": None}
    record = game.record
    if at is not None and 0 <= at < len(record) - 1:
        record = record[: at + 1]
        base["at"] = at
        base["live"] = False
    try:
        result = replay(record)
        error = None
    except ValueError as exc:  # RecordError and friends: show it, never a 500 on a spectator page
        result, error = {}, str(exc)
    started = sum(1 for m in game.moves[: len(record)] if m.event.get("event") == "deal")
    return _arrange(base, result, error, game.moves, started)


def _arrange(base: dict[str, Any], result: dict[str, Any], error: str | None, moves: list[Move],
             deals_started: int) -> dict[str, Any]:
    """The page state from the engine's summary of the record (`result`) and the web's `base`."""
    for flag in result.get("flags", []):
        index = flag.get("event")
        if isinstance(index, int) and 0 <= index < len(moves):
            flag["id"] = moves[index].id
    out = dict(result)
    out.update(base)
    out["game"] = moves[0].event
    out["players"] = list(moves[0].event.get("players", []))
    out["error"] = error
    out["banner"] = None if error else _banner(result, deals_started)
    out["waiting"] = waiting_for_recount(result, deals_started)
    for name in out["waiting"]:  # unknown is not zero: a total with an uncounted hand is not known yet
        if name in out.get("totals", {}):
            out["totals"][name] = None
    return out


def waiting_for_recount(result: dict[str, Any], deals_started: int | None = None) -> list[str]:
    """Players of the last deal, ended, whose hand is not counted yet (their points are null).
    Empty once every hand is known, or once the next deal has started (the referee moved on)."""
    deals = result.get("deals") or []
    if not deals:
        return []
    last = deals[-1]
    if last.get("end") in (None, "unfinished"):
        return []
    if deals_started is not None and last.get("number", deals_started) < deals_started:
        return []
    points = last.get("points") or {}
    return [name for name, value in points.items() if value is None]


def _dumps(value: Any) -> str:
    """JSON as the pages get it (compact, UTF-8 kept)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


MOVES_PLACEHOLDER = "\0moves\0"  # live_state(moves=False): Hub.state_json splices the moves in
DEALS_PLACEHOLDER = "\0deals\0"  # and the deals (`LiveGame.deals_json`)


class LiveGame:
    """The current game folded from the journal and its engine state, kept as entries arrive.

    An engine event of the current game is one `engine.game.apply` on the held state (`step`, then
    `extend` once the entry is stored); a `game` event starts afresh. An undo or a correction
    changes an earlier line of the record, so then (as at start) the journal is folded again and
    the record replayed in full (`refold`). Not thread-safe: the hub calls it under its write lock.
    """

    def __init__(self, entries: list[Entry]):
        self.refold(entries)

    def refold(self, entries: list[Entry]) -> None:
        """Fold the journal and replay the current game's record (start, resume, undo, correction)."""
        game = current_game(entries)
        self.last_id = entries[-1].id if entries else 0
        self.moves: list[Move] = list(game.moves)
        self.move_dicts: list[dict[str, Any]] = [m.as_dict() for m in self.moves]
        self.move_json: list[str] = [_dumps(m) for m in self.move_dicts]  # each move's JSON, once
        self.record: list[dict[str, Any]] = game.record
        self.events: list[Event] = []
        self.state: GameState | None = None
        self.flags: list[Flag] = []
        self.committed: list[dict[str, Any]] = []  # the committed deals' JSON (engine.replay.summary)
        self.committed_json: list[str] = []  # ... as text, once each
        self.error: str | None = None
        self.deals = sum(1 for m in self.moves if m.event.get("event") == "deal")
        if not self.moves:
            return
        try:
            self.events = typed_events(self.record)
            self.state, self.flags = replay_state(self.events, checked=True)
        except ValueError as exc:  # RecordError and friends: shown on the pages, never a 500
            self.state, self.error = None, str(exc)

    @property
    def started(self) -> bool:
        return bool(self.moves)

    def step(self, typed: Event) -> tuple[Event, GameState, list[Flag]]:
        """The event, the state after it and its flags, were `typed` appended (pure). Raises
        `ValueError` (`RecordError`) where the engine refuses it; needs a held state unless
        `typed` starts a game."""
        if typed.kind == "game":
            return typed, new_game(typed), []
        if self.state is None:
            raise ValueError("no engine state to advance")
        state, found = apply(self.state, typed)
        return typed, state, found

    def extend(self, entry: Entry, step: tuple[Event, GameState, list[Flag]]) -> None:
        """Take the stored `entry` whose `step` was checked: one move more, or a new game."""
        typed, state, found = step
        self.last_id = entry.id
        if typed.kind == "game":
            self.moves, self.move_dicts, self.move_json, self.record, self.events, self.flags = [], [], [], [], [], []
            self.deals = 0
            self.committed, self.committed_json = [], []
            self.error = None
        move = Move(id=entry.id, index=len(self.moves), event=dict(entry.event), source=entry.source, ts=entry.ts)
        self.moves.append(move)
        self.move_dicts.append(move.as_dict())
        self.move_json.append(_dumps(self.move_dicts[-1]))
        self.record.append(move.event)
        self.events.append(typed)
        self.state = state
        self.flags.extend(found)
        self.deals += typed.kind == "deal"


def deals_json(game: LiveGame, deals: list[dict[str, Any]]) -> str:
    """The JSON of `live_state(game)["deals"]`: the committed deals written once each."""
    done = game.committed_json
    while len(done) < len(game.committed):
        done.append(_dumps(game.committed[len(done)]))
    n = len(game.committed)
    if len(deals) < n or (n and deals[n - 1] is not game.committed[n - 1]):
        return _dumps(deals)  # not the held game's deals
    return "[" + ",".join(done + [_dumps(d) for d in deals[n:]]) + "]"


def live_state(game: LiveGame, camera: dict[str, Any] | None = None, *, moves: bool = True) -> dict[str, Any]:
    """`build_state(entries, camera)` from the held game: no fold, no replay. `moves=False`: the
    "moves" key holds a placeholder (`Hub.state_json` splices in `game.move_json`)."""
    base: dict[str, Any] = {
        "last_event_id": game.last_id,
        "camera": camera or {"state": "none", "message": "no camera"},
        "moves": list(game.move_dicts) if moves else MOVES_PLACEHOLDER,
        "at": None,
        "live": True,
    }
    if not game.started:
        return base | {"game": None, "players": [], "flags": [], "deals": [], "totals": {}, "banner": None,
                       "error": None}
    result = {} if game.state is None else summary(game.state, game.flags, committed=game.committed)
    return _arrange(base, result, game.error, game.moves, game.deals)
