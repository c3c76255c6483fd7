"""The players' face-down hands as the camera counts them, settled frame by settled frame: whose
row lost a tile when a tile was laid that no arm was seen to lay (a sleeve the colour of the
table, a forearm out of the picture). A player who lays a tile holds one fewer; counted over
several frames on each side (since the move before, and once the tile lies), one misdetected
back cannot decide it."""

from __future__ import annotations

from collections import Counter
from statistics import median

from vision.live.calibration import TableCalibration
from vision.live.observation import BONEYARD, LAYOUT, Observation

KEEP_S = 12.0  # how far back the counts are kept
FRAMES = 5  # settled frames counted on each side of a tile's arrival, at most


class RowWatch:
    """Face-down tiles in front of each seated player on the settled frames of play."""

    def __init__(self) -> None:
        self._counts: list[tuple[float, Counter]] = []

    def reset(self) -> None:
        self._counts.clear()

    def update(self, t: float, obs: Observation, calibration: TableCalibration) -> None:
        counts: Counter = Counter()
        for tile in obs.tiles:
            if tile.owner in (LAYOUT, BONEYARD) or tile.face != "down":
                continue
            player = calibration.seat_of_point(tile.centre)
            if player is not None:
                counts[player] += 1
        self._counts = [(ts, c) for ts, c in self._counts if ts >= t - KEEP_S] + [(t, counts)]

    def shrank(self, first_t: float, since_t: float, players: list[str]) -> str | None:
        """The one player whose row holds fewer tiles from `first_t` on (a tile's first settled
        frame) than just after `since_t` (when the move before it appeared: the player took the
        tile from the row in between, perhaps on frames settled while the arm went unseen);
        None when no row, or more than one, did."""
        before = [c for ts, c in self._counts if since_t <= ts < first_t][:FRAMES]
        after = [c for ts, c in self._counts if ts >= first_t][:FRAMES]
        if len(before) < 2 or len(after) < 2:
            return None
        fewer = [p for p in players if median(c[p] for c in after) <= median(c[p] for c in before) - 1]
        return fewer[0] if len(fewer) == 1 else None
