"""The boneyard (the face-down pile of undealt tiles) over the settled frames: when tiles leave it.

A tile leaving the pile is a draw (the engine's `draw` event). The camera cannot name it (it stays
face down), only see that a place in the pile is empty and say where, so the tracker can give it
to the arm that reached there. `Boneyard.update(t, obs)` learns the pile from the tiles the reader
puts in the boneyard (`owner == "boneyard"`, or vision/live/pile.py's heap) once they have lain still
for `stable_s`, one place per tile however many boxes a detector puts on it, then follows each of
those places: a place empty on every settled frame for twice `stable_s` (two frames at least), and
under no arm that may have stopped over it, lost its tile (a still hand over the pile fades into
the motion gate's background: seen as nothing, it still hides what is under it). Tiles half out
of the picture are left out of the places (as the camera shakes they come and go), but `zone`
remembers where any boneyard tile was seen, so an arm that reaches there can still be told apart
from one that lays a tile.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.live.observation import BONEYARD, Observation, Point, TileObs


def still_there(obs: Observation) -> list[TileObs]:
    """The boxes that keep a place of the pile: a back lying on it is its tile whoever the
    reader gives it to (the test deal s44 framed: a pile tile by the chain's crosswise double was
    read as a closed tile of the layout, and its place written as a draw nobody made), and so is
    a box read as no face at all (fresh33 h744, engraved: a pile tile boxed face up, unread, for
    three seconds was written as a draw nobody made)."""
    return [tile for tile in obs.tiles if tile.owner == BONEYARD or tile.face == "down" or tile.values is None]


@dataclass(frozen=True)
class Drawn:
    """A tile gone from the boneyard: where it lay, and between which settled frames it went."""

    before_t: float  # the last settled frame that still showed it
    first_t: float  # the first settled frame without it
    place: Point


@dataclass
class _Place:
    centre: Point
    span: float  # the tile's length
    seen_t: float
    empty_since: float | None = None
    empty_frames: list[float] = field(default_factory=list)
    # the tile's outline when last seen, and the boxes of any kind near it then
    quad: np.ndarray | None = None
    neighbours: list[Point] = field(default_factory=list)

    def at(self, p: Point) -> bool:
        """Whether a box (or a faint back) centred at `p` lies on this place: its tile."""
        return math.dist(p, self.centre) <= HOLDS * self.span


HOLDS = 0.4  # of a tile's length: a box (or a faint back) centred this near a place is its tile
COVER = 0.05  # of a tile's area: a tile newly put down over this much of a place's tile hides it
LEARN_CONF = 0.5  # a place is learnt from a confident box; a weaker one between two tiles is no tile
PAST_BORDER = 2.0  # tile lengths from the pile: a hand at the picture's border may reach a tile past it
BORDER = 0.25  # of a tile's length: a point this near the picture's border lies at it


class Boneyard:
    def __init__(self, stable_s: float = 0.5) -> None:
        self.stable_s = stable_s
        self.reset()

    def reset(self) -> None:
        """Forget the pile (a new deal: it is learnt again from the next frames)."""
        self.places: list[_Place] | None = None  # None: not learnt yet
        self._learning: list[tuple[float, list[TileObs]]] = []
        self.zone: list[Point] = []  # where boneyard tiles were seen this deal (cut ones too)
        self.tile_len = 0.0
        self.size: tuple[int, int] | None = None  # the picture's, from the observations

    @property
    def count(self) -> int | None:
        return None if self.places is None else len(self.places)

    @property
    def drop_since(self) -> float | None:
        """When the earliest place now empty was first seen empty (a draw not yet certain)."""
        times = [p.empty_since for p in self.places or [] if p.empty_since is not None]
        return min(times) if times else None

    def near(self, p: Point) -> bool:
        """Whether a point (an arm's tip) lies on the boneyard, within a tile's length. The pile
        goes on past the picture's border beside it: a tip at that border within two tile lengths
        of the pile reached a tile never boxed, mostly out of view (fresh deal h242: a draw of a
        tile cut by the right border, its hand 1.3 tile lengths from the nearest box)."""
        if not self.zone:
            return False
        gap = min(math.dist(p, z) for z in self.zone)
        return gap <= self.tile_len or (gap <= PAST_BORDER * self.tile_len and self._at_border(p))

    def holds(self, p: Point) -> bool:
        """Whether a place of the pile that still holds its tile lies where `p` is (its tile's centre)."""
        return any(place.empty_since is None and place.at(p) for place in self.places or [])

    def _at_border(self, p: Point) -> bool:
        if self.size is None:
            return False
        w, h = self.size
        margin = BORDER * self.tile_len
        return min(p[0], p[1], w - 1 - p[0], h - 1 - p[1]) <= margin

    def update(self, t: float, obs: Observation, hidden: Callable[[Point], bool] | None = None) -> list[Drawn]:
        """Feed each settled frame of play; returns the tiles drawn once that is certain.
        `hidden(place)`: whether an arm may lie over a place, which then proves nothing."""
        every = [tile for tile in obs.tiles if tile.owner == BONEYARD]
        self.size = obs.size or self.size
        self._learn_zone(every)
        if self.places is None:
            self._learn(t, [tile for tile in every if _inside(tile, obs.size) and tile.confidence >= LEARN_CONF])
            return []
        backs = still_there(obs)
        gone: list[_Place] = []
        for place in self.places:
            here = [tile for tile in backs if place.at(tile.centre)]
            if here:
                tile = min(here, key=lambda tile: math.dist(tile.centre, place.centre))
                place.centre, place.quad = tile.centre, _quad(tile)
                place.seen_t, place.empty_since, place.empty_frames = t, None, []
                place.neighbours = [x.centre for x in obs.tiles if math.dist(x.centre, place.centre) <= place.span]
                continue
            if (hidden is not None and hidden(place.centre)) or _covered(place, obs.tiles) or any(
                    place.at(p) for p in obs.faint):
                # Under an arm, under a tile put down over it, or a back the detector half lost
                # (fresh deal h101: black backs, one scored 0.3, then under 0.25 while it lay
                # there): no proof it is gone.
                place.empty_since, place.empty_frames = None, []
                continue
            place.empty_since = t if place.empty_since is None else place.empty_since
            place.empty_frames.append(t)
            if t - place.empty_since >= 2 * self.stable_s and len(place.empty_frames) >= 2:
                gone.append(place)
        self.places = [p for p in self.places if p not in gone]
        # Two places that followed their tiles onto one tile are one tile gone, one draw (held-out
        # h08: a second draw was matched to the same tile and a later one went unmatched).
        once: list[_Place] = []
        for p in gone:
            if not any(_one_tile(p.centre, q.centre, p.span) for q in once):
                once.append(p)
        return [Drawn(p.seen_t, p.empty_since or t, p.centre) for p in once]

    def restore(self, centre: Point, t: float) -> None:
        """A place given up as drawn whose tile is seen again (the detector had lost it)."""
        if self.places is not None and not any(_one_tile(centre, p.centre, self.tile_len) for p in self.places):
            self.places.append(_Place(centre, self.tile_len, t))

    def _learn(self, t: float, bones: list[TileObs]) -> None:
        """The pile: the same number of tiles on the settled frames of the last stable_s."""
        self._learning = [(ts, b) for ts, b in self._learning if ts >= t - 4 * self.stable_s]
        self._learning.append((t, bones))
        if not bones or len(self._learning) < 2 or t - self._learning[0][0] < self.stable_s:
            return
        recent = [b for ts, b in self._learning if ts >= t - self.stable_s] or [bones]
        if all(len(b) == len(bones) for b in recent):
            self.places = []
            for tile in bones:  # one place per tile, however many boxes the reader put on it
                if not any(_one_tile(tile.centre, p.centre, p.span) for p in self.places):
                    self.places.append(_Place(tile.centre, 2 * tile.half_span, t))

    def _learn_zone(self, tiles: list[TileObs]) -> None:
        for tile in tiles:
            span = 2 * tile.half_span
            self.tile_len = max(self.tile_len, span)
            if all(math.dist(tile.centre, z) > 0.5 * span for z in self.zone):
                self.zone.append(tile.centre)


def _covered(place: _Place, tiles: tuple[TileObs, ...]) -> bool:
    """Whether a tile not there when the place's tile was last seen now lies over COVER of it: the
    detector boxes one of two overlapping tiles (fresh deal h245: a drawn tile put down at the end
    of its row over the corner of a pile tile, which was then taken for a draw). One put down
    beside it hides nothing (rendered deal s44: a drawn tile put in its row by the pile)."""
    if place.quad is None:
        return False
    area = abs(cv2.contourArea(place.quad))
    for tile in tiles:
        if (math.dist(tile.centre, place.centre) > place.span
                or any(math.dist(tile.centre, n) <= HOLDS * place.span for n in place.neighbours)):
            continue
        overlap, _ = cv2.intersectConvexConvex(place.quad, _quad(tile))
        if overlap >= COVER * area:
            return True
    return False


def _quad(tile: TileObs) -> np.ndarray:
    """A tile's outline from its half centres: twice their distance long, that distance wide."""
    (x1, y1), (x2, y2) = tile.halves
    ax, ay = x2 - x1, y2 - y1  # half the length along the tile
    nx, ny = -ay / 2, ax / 2  # half the width across it
    cx, cy = tile.centre
    return np.array([(cx + sx * ax + sy * nx, cy + sx * ay + sy * ny)
                     for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))], dtype=np.float32)


def _one_tile(a: Point, b: Point, span: float) -> bool:
    """Whether two boxes or places (centres) of the pile are one tile: within a quarter of its length."""
    return math.dist(a, b) <= 0.25 * span


def _inside(tile: TileObs, size: tuple[int, int] | None) -> bool:
    """Wholly in the picture, its outline a tenth of a tile length in from the border, so that it
    stays seen as the camera shakes; a tile partly out comes and goes, and a box cut by the border
    touches it. Fresh16 h350: a pile tile lying along the border, wholly in view, its centre just
    under half a tile length from it, was no place when the centre was asked, and its draw unseen."""
    if size is None:
        return True
    w, h = size
    m, q = 0.2 * tile.half_span, _quad(tile)
    return bool((q[:, 0] >= m).all() and (q[:, 0] <= w - m).all() and (q[:, 1] >= m).all() and (q[:, 1] <= h - m).all())
