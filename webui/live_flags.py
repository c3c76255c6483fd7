"""The camera's flags (take-backs, misreads, refused events: `pipeline.flags()`) for the pages.

They never enter the game record; the pipeline pushes them (`on_flags`) and the hub sends them
with the state over SSE. The operator sees every one with the pipeline's own message; spectators
see, in plain words, only those that change what happens at the table (a tile taken back or put
back, a tile seen twice).
"""

from __future__ import annotations

from typing import Any

# kind -> plain words for spectators ({player}, {tile}); kinds not here are for the operator only.
PUBLIC = {
    "take-back": "{player} took back {tile}: the referee will decide whether the move stands.",
    "returned": "{tile} is back on the table.",
    "duplicate": "{tile} is seen twice on the table: the referee will check.",
}
SHOWN = 50  # flags kept for the pages


def arrange(flags: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each flag as the pages show it: `rule` (its ID), `message` (for the operator), `public`
    and `text` (plain words for spectators), plus `n`, `kind`, `t`, `tile`, `player`."""
    out = []
    for k, flag in enumerate(flags[-SHOWN:]):
        kind = str(flag.get("kind", "note"))
        words = PUBLIC.get(kind)
        tile = flag.get("tile") or "a tile"
        player = flag.get("player") or "A player"
        out.append({
            "n": flag.get("n", k + 1),
            "kind": kind,
            "rule": flag.get("rule") or kind.upper(),
            "t": flag.get("t"),
            "tile": flag.get("tile"),
            "player": flag.get("player"),
            "message": str(flag.get("message", "")),
            "public": words is not None,
            "text": words.format(player=player, tile=tile) if words else "",
        })
    return out
