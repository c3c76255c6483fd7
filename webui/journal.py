"""Fold the append-only journal into the engine's game record (pure functions, no I/O).

The journal holds engine events (`game`, `deal`, `play`, `pass`, `draw`, `reveal`, exactly the
record format of docs/CONTRACTS.md) and two operator events that never edit anything:

- `{"event": "undo", "target": ID}` cancels journal entry ID. The target may be any entry except a
  `game` (start a new game instead). Undoing an undo restores its target. "Undo last" is resolved
  when it is written: the operator's request names no target, the server stores the id of the last
  effective engine event, so the journal always says exactly what was undone.
- `{"event": "correct", "target": ID, <fields>}` replaces fields of the engine event ID (a misread
  tile, the wrong seat, the wrong attachment). Only `player`, `tile`, `to`, `face`, `tiles` may be
  corrected; a field given as null is removed (e.g. `"to": null`). Later corrections win.

The current game is the last effective `game` event and the effective engine events after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webui.i18n import gettext as _
from webui.store import Entry

ENGINE_EVENTS = frozenset({"game", "deal", "play", "pass", "draw", "reveal"})
META_EVENTS = frozenset({"undo", "correct"})
CORRECTABLE = {
    "play": ("player", "tile", "to", "face"),
    "pass": ("player",),
    "draw": ("player", "tile"),
    "reveal": ("player", "tiles"),
}


class JournalError(ValueError):
    """An operator event that cannot apply (unknown target, wrong field). The message says why.
    `engine=True`: the message is the engine's English refusal (the web translates it)."""

    def __init__(self, message: str, *, engine: bool = False):
        super().__init__(message)
        self.engine = engine


@dataclass(frozen=True)
class Move:
    """One event of the current game's record, with the journal entry it came from."""

    id: int
    index: int  # 0-based line in the record (the `event` number in engine flags)
    event: dict[str, Any]
    source: str
    ts: float
    corrected_by: tuple[int, ...] = ()
    original: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "n": self.index, "event": self.event, "source": self.source, "ts": self.ts}
        if self.corrected_by:
            out["corrected_by"] = list(self.corrected_by)
            out["original"] = self.original
        return out


@dataclass(frozen=True)
class Game:
    moves: list[Move] = field(default_factory=list)

    @property
    def record(self) -> list[dict[str, Any]]:
        return [m.event for m in self.moves]

    @property
    def game_event(self) -> dict[str, Any] | None:
        return self.moves[0].event if self.moves else None

    @property
    def players(self) -> list[str]:
        return list(self.game_event.get("players", [])) if self.game_event else []


def cancelled_ids(entries: list[Entry]) -> set[int]:
    """Ids of entries cancelled by an effective undo (walk backwards: a later undo decides first)."""
    cancelled: set[int] = set()
    for entry in reversed(entries):
        if entry.id in cancelled:
            continue
        if entry.event.get("event") == "undo":
            cancelled.add(int(entry.event["target"]))
    return cancelled


def current_game(entries: list[Entry]) -> Game:
    """The current game: its effective engine events, with corrections applied."""
    cancelled = cancelled_ids(entries)
    live = [e for e in entries if e.id not in cancelled]
    start = None
    for i, e in enumerate(live):
        if e.event.get("event") == "game":
            start = i
    if start is None:
        return Game()
    corrections: dict[int, list[Entry]] = {}
    for e in live[start:]:
        if e.event.get("event") == "correct":
            corrections.setdefault(int(e.event["target"]), []).append(e)
    moves: list[Move] = []
    for e in live[start:]:
        kind = e.event.get("event")
        if kind not in ENGINE_EVENTS:
            continue
        event = dict(e.event)
        fixes = corrections.get(e.id, [])
        for fix in fixes:
            for key in CORRECTABLE.get(kind, ()):
                if key in fix.event:
                    if fix.event[key] is None:
                        event.pop(key, None)
                    else:
                        event[key] = fix.event[key]
        moves.append(
            Move(
                id=e.id,
                index=len(moves),
                event=event,
                source=e.source,
                ts=e.ts,
                corrected_by=tuple(f.id for f in fixes),
                original=dict(e.event) if fixes else None,
            )
        )
    return Game(moves)


def check_meta(event: dict[str, Any], entries: list[Entry]) -> None:
    """Raise JournalError unless an undo/correct event can apply to these entries."""
    kind = event.get("event")
    by_id = {e.id: e for e in entries}
    try:
        target = by_id[int(event["target"])]
    except (KeyError, TypeError, ValueError):
        raise JournalError(_("There is no move #%(target)s: pick the move from the list.",
                                 target=event.get("target"))) from None
    target_kind = target.event.get("event")
    if kind == "undo":
        if target_kind == "game":
            raise JournalError(_("A game cannot be undone: start a new game with the New game form instead."))
        return
    if kind == "correct":
        if target.id in cancelled_ids(entries):
            raise JournalError(_("Move #%(id)s was undone: there is nothing to correct.", id=target.id))
        allowed = CORRECTABLE.get(target_kind)
        if not allowed:
            raise JournalError(_("Only plays, passes, draws and shown hands can be corrected."))
        fields = [k for k in event if k not in ("event", "target")]
        if not fields:
            raise JournalError(_("Change at least one field (player, tile, attached to, face), then send the correction."))
        bad = [k for k in fields if k not in allowed]
        if bad:
            raise JournalError(_("A %(kind)s has no field %(bad)s: change only %(allowed)s.",
                                     kind=target_kind, bad=", ".join(bad), allowed=", ".join(allowed)))
        return
    raise JournalError(_("Not an operator event: %(kind)s.", kind=repr(kind)))


def last_undoable(entries: list[Entry]) -> int | None:
    """The id of the last effective engine event after the current game's start, if any."""
    game = current_game(entries)
    for move in reversed(game.moves):
        if move.event.get("event") != "game":
            return move.id
    return None
