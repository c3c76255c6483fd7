"""One table on the event's multi-board (pure: the table's game state in, a small dict out).

The chain is drawn schematically: the first tile, then each arm from the first tile outwards,
every tile written from the value it joins to the value it leaves open.
"""

from __future__ import annotations

from typing import Any


def chain_arms(layout: list[dict[str, Any]]) -> dict[str, Any]:
    """{"root": "a-b" | None, "arms": [[{"tile": "j-o", "face": "up"}, ...], ...]} from the
    engine's layout (tiles with their parent, joint and outward values)."""
    if not layout:
        return {"root": None, "arms": []}
    children: dict[str | None, list[dict[str, Any]]] = {}
    for node in layout:
        children.setdefault(node.get("parent"), []).append(node)
    root = (children.get(None) or [layout[0]])[0]
    arms: list[list[dict[str, Any]]] = []

    def walk(start: dict[str, Any]) -> None:
        arm: list[dict[str, Any]] = []
        arms.append(arm)
        node: dict[str, Any] | None = start
        while node is not None:
            arm.append({"tile": f"{node.get('joint')}-{node.get('outward')}", "face": node.get("face", "up")})
            kids = children.get(node["tile"], [])
            for branch in kids[1:]:
                walk(branch)
            node = kids[0] if kids else None

    for first in children.get(root["tile"], []):
        walk(first)
    return {"root": root["tile"], "root_face": root.get("face", "up"), "arms": arms}


def board(table: int, state: dict[str, Any], *, online: bool, published: dict[str, Any] | None,
          tournament_table: str | None, acked: int, waiting: int) -> dict[str, Any]:
    """The multi-board's view of one table from its game state (webui.state.build_state of the
    entries the hub holds) and what the table last published about itself."""
    published = published or {}
    deals = state.get("deals") or []
    flags = state.get("flags") or []
    return {
        "table": table,
        "online": online,
        "url": published.get("url"),
        "has_thumbnail": bool(published.get("thumbnail")),
        "thumbnail_ts": published.get("thumbnail_ts"),
        "camera": (published.get("camera") or {}).get("state"),
        "last_id": acked,
        "waiting": waiting,
        "tournament_table": tournament_table,
        "variant": (state.get("game") or {}).get("variant"),
        "players": state.get("players") or [],
        "totals": state.get("totals") or {},
        "to_move": state.get("to_move"),
        "deal": deals[-1].get("number") if deals else None,
        "finished": bool(state.get("finished")),
        "banner": state.get("banner"),
        "flags": [{"rule": f.get("rule"), "message": f.get("message")} for f in flags[-3:]],
        "chain": chain_arms(state.get("layout") or []),
        "error": state.get("error"),
    }
