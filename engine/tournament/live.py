"""From a deal played live at a table to the tournament's next record line.

The engine's replay (`engine.replay.replay_events`) reports each deal with its `places` and
`points`; a Bykovo micro-tournament takes exactly those (BYK-1.12, BYK-2.5).
"""

from __future__ import annotations

from engine.tournament.errors import TournamentError


def bykovo_result(deal: dict) -> dict:
    """The `result` line for one finished deal of the engine's replay JSON (`deals[i]`).

    Raises TournamentError while the deal is still running or its hands are not counted yet
    (camera mode: the points are known only once the hands are laid face up).
    """
    number = deal.get("number", "?")
    if deal.get("end") in (None, "unfinished"):
        raise TournamentError(f"deal {number} is still being played; wait for its end")
    points, places = deal.get("points") or {}, deal.get("places") or {}
    missing = sorted(p for p in places if points.get(p) is None or places.get(p) is None)
    if not points or missing:
        raise TournamentError(
            f"deal {number}: the hands of {', '.join(missing) or 'every player'} are not counted yet; "
            "reveal them (or enter the points by hand)"
        )
    return {"event": "result", "points": dict(points), "places": dict(places)}
