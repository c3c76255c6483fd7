"""The state every page shows: the engine's replay of the current game plus what the web adds.

`build_state` is pure: journal entries + camera status in, one JSON-able dict out. The engine
decides everything about the game (engine.replay.replay_events over the effective record, see
docs/CONTRACTS.md); this module only arranges it for the pages (banner, move list, flags mapped to
journal ids).
"""

from __future__ import annotations

from typing import Any

from webui.journal import Game, current_game
from webui.store import Entry

# The banners' words are in webui/words.py (translated per page by webui/localize.py); here each
# banner is its kind and the names it needs. English title/text stay for scripts reading the JSON.
BANNERS = {
    # BYK-1.11: рыба (fish) vs сортир: both end the deal, the last player to lay a tile wins.
    "fish": ("FISH", "Every open end shows a value whose seven tiles are all on the table"),
    "sortir": ("SORTIR", "No one can play, and it is not a fish"),
}


def replay(record: list[dict[str, Any]]) -> dict[str, Any]:
    """engine.replay.replay_events, imported late so the web starts even while the engine loads."""
    from engine.replay import replay_events

    return replay_events(record)


def _banner(result: dict[str, Any], game: Game) -> dict[str, Any] | None:
    deals = result.get("deals") or []
    if result.get("finished"):
        loser = result.get("loser")
        text = f"{loser} loses the game" if loser else "The game is over"
        return {"kind": "game_over", "title": "GAME OVER", "text": text, "loser": loser}
    if not deals:
        return None
    last = deals[-1]
    # Only the deal being played (or just ended) gets a banner, not one from an earlier deal.
    deals_started = sum(1 for m in game.moves if m.event.get("event") == "deal")
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
    ids = [m.id for m in game.moves]
    for flag in result.get("flags", []):
        index = flag.get("event")
        if isinstance(index, int) and 0 <= index < len(ids):
            flag["id"] = ids[index]
    out = dict(result)
    out.update(base)
    out["game"] = game.game_event
    out["players"] = game.players
    out["error"] = error
    out["banner"] = None if error else _banner(result, Game(game.moves[: len(record)]))
    started = sum(1 for m in game.moves[: len(record)] if m.event.get("event") == "deal")
    out["waiting"] = waiting_for_recount(result, started)
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
