"""Tiles to confirm: seen laid, doubted by the rules (prior.doubt), held for the operator. They are
read on where they lie (never new candidates there) until the operator confirms one, says it is
no tile (its place is then ignored this deal), or it reads clearly as a tile that fits."""

from __future__ import annotations

import logging
from collections import Counter

from vision.live.naming import dist
from vision.live.observation import TileObs
from vision.live.places import Held
from vision.live.prior import ToConfirm

log = logging.getLogger(__name__)

Place = tuple[tuple[float, float], float]  # centre, reach


class ConfirmQueue:
    def __init__(self) -> None:
        self.held: dict[int, Held] = {}  # by the item's id
        self._ignored: list[Place] = []  # "not a tile" (the operator): place, reach
        self._items = 0

    def items(self) -> list[ToConfirm]:
        """Oldest first."""
        return [h.item for h in sorted(self.held.values(), key=lambda h: h.item.id)]

    def tiles(self) -> set[str]:
        return {h.item.tile for h in self.held.values()}

    def next_id(self) -> int:
        self._items += 1
        return self._items

    def dismiss(self, item_id: int) -> None:
        """Not a tile: its place is ignored until `clear`. Raises KeyError for an unknown id."""
        held = self.held.pop(item_id)
        self._ignored.append((held.centre, held.reach))
        log.info("not a tile (the operator): %s at %s", held.item.tile, held.centre)

    def clear(self, *, places: bool) -> None:
        """Forget the tiles held (and, with `places`, the places ignored: a new deal)."""
        self.held.clear()
        if places:
            self._ignored.clear()

    def at_held(self, t: float, tile: TileObs, name: str | None, fresh: bool) -> bool:
        """A tile lying where a tile to confirm lies: read on there (`fresh`: a new reading, one
        vote), no new candidate."""
        for h in self.held.values():
            if dist(h.centre, tile.centre) <= max(h.reach, 0.6 * tile.half_span):
                h.last_t, h.tile, h.miss_t, h.miss_frames = t, tile, None, 0
                if fresh:
                    h.reads.append((t, name))
                return True
        return False

    def at_ignored(self, tile: TileObs) -> bool:
        return any(dist(p, tile.centre) <= r for p, r in self._ignored)

    def read_clearly(self, t: float, *, stable_s: float, gap_s: float, agree: float) -> list[tuple[int, str]]:
        """One settled frame: tiles gone for `gap_s` (a phantom, a tile picked up) are dropped;
        (id, name) of those read as one name on at least `agree` of the latest `stable_s` of
        readings (three or more), in order."""
        out = []
        for key, h in list(self.held.items()):
            if h.last_t < t:
                h.miss_t = t if h.miss_t is None else h.miss_t
                h.miss_frames += 1
                if t - h.miss_t > gap_s and h.miss_frames >= 3:
                    log.info("the tile to confirm %s is gone", h.item.tile)
                    del self.held[key]
                continue
            h.reads = [r for r in h.reads if r[0] > t - stable_s]
            recent = [n for _, n in h.reads if n is not None]
            if len(recent) < 3:
                continue
            best, k = Counter(recent).most_common(1)[0]
            if k >= agree * len(recent):
                out.append((key, best))
        return out
