"""The pipeline's game record and its one engine state, advanced by `engine.game.apply` as the
camera's events are written, and the questions move inference asks the rules.

The whole record is replayed only at `resume` (the referee's record, corrections and undos
applied); every other question tries one or two events on the held state, which `apply` leaves
as it was (it is pure).
"""

from __future__ import annotations

import logging

from engine.events import DealEvent, PassEvent, PlayEvent, RevealEvent, from_dict
from engine.game import apply
from engine.replay import replay_state
from engine.state import GameState, Termination
from engine.tiles import Tile

log = logging.getLogger(__name__)


class GameRecord:
    """The record as the pipeline wrote it (`events`, dicts as handed to the journal) and the
    engine state after it (None once the engine refuses the record: move inference goes on
    without the rules, as with a record that does not replay, until the next `resume`)."""

    def __init__(self, record: list[dict]):
        self.resume(record)

    def resume(self, record: list[dict]) -> None:
        """Take `record` (line 0 the game event) and replay it: the one full replay."""
        self.events: list[dict] = [dict(e) for e in record]
        self._last_act: dict | None = None  # the last non-draw event after the last deal event
        self._dealt = False  # a deal event was written
        for event in self.events:
            self._note(event)
        try:
            self.state: GameState | None = replay_state(self.events)[0]
        except Exception as exc:  # a record the engine refuses: move inference goes on
            log.debug("engine replay failed: %s", exc)
            self.state = None

    def append(self, event: dict) -> None:
        """One event written: one `apply`."""
        self.events.append(dict(event))
        self._note(event)
        if self.state is not None:
            try:
                self.state = apply(self.state, from_dict(event))[0]
            except Exception as exc:  # refused: the record no longer replays
                log.debug("engine refused %s: %s", event, exc)
                self.state = None

    def _note(self, event: dict) -> None:
        kind = event.get("event")
        if kind == "deal":
            self._last_act = None
            self._dealt = True
        elif kind == "game":
            self._last_act = None
            self._dealt = False
        elif kind != "draw":
            self._last_act = event

    @property
    def game(self) -> dict:
        return self.events[0]

    # --- what move inference asks ------------------------------------------------------------
    def to_move(self) -> str | None:
        return None if self.state is None else self.state.to_move

    def layout_tiles(self) -> set[Tile] | None:
        """The tiles on the engine's table (None: the engine refuses the record)."""
        if self.state is None:
            return None
        return {p.tile for p in self.state.layout.placed}

    def open_ends(self) -> list[tuple[Tile, int]] | None:
        if self.state is None:
            return None
        d = self.state.deal
        return [] if d is None else d.layout.open_ends()

    def opens_with_double(self) -> bool:
        """Whether the current deal opens with a named double (SPI-2, SEV-1, BAL-4, TRAD's first
        deal: 1-1, 6-6, 0-0), or when it was not dealt the lowest double dealt: in camera mode,
        where the engine cannot know the hands and lets any tile open, a double opens all but
        the deals with no double dealt."""
        s = self.state
        if s is None or s.rules.opening in ("any", "lowest", "highest"):
            return False
        if s.results and s.rules.later_opening != "same":
            return False  # a later deal: its opener plays any tile
        try:
            return Tile.parse(s.rules.opening).is_double
        except ValueError:
            return False

    def deal_over(self) -> bool:
        """Whether the engine's last deal has ended (a deal just opened, with nothing on the
        table yet, is not the engine's last deal: the one before is)."""
        s = self.state
        if s is None:
            return False
        d = s.deal
        if d is not None and (d.layout.placed or d.end is not None):
            return d.end is not None and d.end is not Termination.UNFINISHED
        if not s.results:
            return False
        return s.results[-1].get("end") not in (None, "unfinished")

    def may_open(self, tile: str, player: str, *, need_deal: bool) -> bool:
        """Whether the engine lets `player` open the current deal with `tile` (BYK-1.5 with 0-0,
        BLB-1 ...), on a deal of its own when `need_deal` or none was dealt; True where it
        cannot tell."""
        s = self.state
        if s is None:
            return True
        try:
            if s.deal is None or need_deal:
                s = apply(s, DealEvent())[0]
            index = s.index
            found = apply(s, PlayEvent(player=player, tile=Tile.parse(tile)))[1]
        except Exception:  # the engine refuses it for another reason: no prior
            return True
        return not any(f.event == index and f.concept == "opening" for f in found)

    def missed_before(self, event: dict) -> bool:
        """Whether the engine takes this draw only after a miss by the drawer (one_after_miss)."""
        s = self.state
        if s is None:
            return False
        try:
            if s.rules.draw != "one_after_miss":
                return False
            index = s.index
            found = apply(s, from_dict(event))[1]
        except Exception:  # the engine refuses it for another reason: record as seen
            return False
        return any(f.event == index and f.concept == "draw" for f in found)

    def circle_of_passes(self, event: dict, players: list[str]) -> list[dict]:
        """Passes to record before a second tile by the same player that cannot belong to the
        same turn (a second tile where the variant allows one, BYK-1.6; a plain tile after a
        double in BAL-13): everyone else passed in between, unseen by the camera."""
        last = self._last_act
        if not self._dealt or last is None or last.get("event") != "play" or last.get("player") != event["player"]:
            return []
        s = self.state
        if s is None:
            return []
        try:
            seat = players.index(event["player"]) if event["player"] in players else -1
            n = len(players)
            # Some turns are judged when they end (BLB-3: several tiles only to go out): end it
            # with the next player's pass, with and without this tile (what the record before
            # raised is the same both ways, so only the flags of these events are compared).
            close = PassEvent(player=players[(seat + 1) % n])
            after, with_it = apply(s, from_dict(event))
            without = apply(s, close)[1]
        except Exception:  # the engine refuses it for another reason: record as seen
            return []
        # Where the deal ended with this tile (fresh deal h182: a fish), the next player's hand
        # shown closes the turn instead.
        ended = after.deal is not None and after.deal.end is not None
        try:
            with_it = with_it + apply(after, RevealEvent(player=close.player, tiles=()) if ended else close)[1]
        except Exception:  # the engine refuses it: record as seen
            return []
        if sum(f.concept == "multi" for f in with_it) <= sum(f.concept == "multi" for f in without):
            return []
        return [{"event": "pass", "player": players[(seat + k) % n]} for k in range(1, n)]

    def seat_swap(self, unsure: set[str]) -> tuple[int, str] | None:
        """After the last hand of a deal is shown: where the hands say one player holds a tile
        more than the record leaves them and another one fewer (every other hand as the record
        says), one move written for the first was the second's (an arm hardly seen, turn order
        where a pass left no trace: fresh deals h135, h139). Returns (the index of that move in
        `events`, the player it was) where exactly one of the first player's plays of the deal
        whose seat no arm or row witnessed (`unsure`, tiles), given to the second,
        leaves every hand as shown and raises fewer flags than any other such move; else None.
        Never a witnessed move: any of the first player's plays given to the second leaves the
        hands as shown, and the flags alone chose the wrong one in one in five rendered deals."""
        starts = [i for i, e in enumerate(self.events) if e.get("event") == "deal"]
        s = self.state
        if not starts or s is None or s.deal is None or any(r is None for r in s.deal.revealed):
            return None
        d, names = s.deal, list(s.players)
        off = {names[k]: len(d.revealed[k]) - d.counts[k] for k in range(len(names))}
        more = [p for p, n in off.items() if n == 1]
        fewer = [p for p, n in off.items() if n == -1]
        if len(more) != 1 or len(fewer) != 1 or sum(n != 0 for n in off.values()) != 2:
            return None
        start = starts[-1]
        fits: list[tuple[int, int]] = []  # (flags raised in the deal, index)
        for i in range(start + 1, len(self.events)):
            e = self.events[i]
            if e.get("event") != "play" or e.get("player") != more[0] or e.get("tile") not in unsure:
                continue
            trial = [dict(x) for x in self.events]
            trial[i]["player"] = fewer[0]
            try:
                state, flags = replay_state(trial)
            except Exception:
                continue
            t = state.deal
            if t is None or any(r is None or len(r) != c for r, c in zip(t.revealed, t.counts, strict=True)):
                continue
            fits.append((sum(f.event > start for f in flags), i))
        if not fits:
            return None
        least = min(n for n, _ in fits)
        best = [i for n, i in fits if n == least]
        return (best[0], fewer[0]) if len(best) == 1 else None
