"""Per-frame observations: what the reader saw on one frame, as plain data.

The live pipeline's core (tracker, recount) works on these, never on pixels, so it can be tested
from the renderer's truth or from hand-made sequences. Two builders: `from_reading` takes the
reader's `FrameReading` as it is (its dataclasses, no JSON in between), `from_truth` takes one
truth JSON of the renderer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.tiles import Tile

if TYPE_CHECKING:  # the truth paths need no reader
    from vision.read.reader import FrameReading

Point = tuple[float, float]

LAYOUT = "layout"
BONEYARD = "boneyard"


@dataclass(frozen=True)
class TileObs:
    """One tile on one frame. `values[k]` is read on the half centred at `halves[k]`."""

    values: tuple[int, int] | None  # None: face down or unreadable
    halves: tuple[Point, Point]
    corners: tuple[Point, Point, Point, Point] = ((0, 0), (0, 0), (0, 0), (0, 0))
    face: str = "up"
    confidence: float = 1.0
    owner: str = LAYOUT  # "layout", "boneyard", or a compass seat from the reader

    @property
    def centre(self) -> Point:
        (x1, y1), (x2, y2) = self.halves
        return ((x1 + x2) / 2, (y1 + y2) / 2)

    @property
    def half_span(self) -> float:
        """Distance between the two half centres: about half the tile's long side."""
        (x1, y1), (x2, y2) = self.halves
        return math.hypot(x2 - x1, y2 - y1)

    @property
    def tile(self) -> Tile | None:
        """The tile read (None when unread); `values` keeps which half showed which value."""
        if self.values is None:
            return None
        a, b = self.values
        return Tile(a, b) if a <= b else Tile(b, a)

    @property
    def name(self) -> str | None:
        """The tile as the engine writes it (`a-b`, a <= b), None when unread."""
        tile = self.tile
        return None if tile is None else str(tile)


@dataclass(frozen=True)
class Observation:
    """Everything read from one frame. `edges` join indices of `tiles` whose halves touch."""

    tiles: tuple[TileObs, ...] = ()
    edges: tuple[tuple[int, int], ...] = ()
    size: tuple[int, int] | None = None  # (w, h) of the frame the coordinates refer to
    extra: dict = field(default_factory=dict, compare=False)
    # Centres of backs the detector scored under its threshold: never tiles, only a witness that
    # a tile it saw surely before still lies there (vision/live/boneyard.py).
    faint: tuple[Point, ...] = ()

    def layout_indices(self) -> list[int]:
        return [i for i, t in enumerate(self.tiles) if t.owner == LAYOUT]

    def neighbours(self, index: int) -> list[int]:
        out = []
        for i, j in self.edges:
            if i == index:
                out.append(j)
            elif j == index:
                out.append(i)
        return out


def _pt(p) -> Point:
    return (float(p[0]), float(p[1]))


def _tile_from_dict(d: dict, owner: str) -> TileObs:
    values = d.get("values")
    corners = d.get("corners") or [[0, 0]] * 4
    return TileObs(
        values=None if values is None else (int(values[0]), int(values[1])),
        halves=(_pt(d["halves"][0]), _pt(d["halves"][1])),
        corners=tuple(_pt(c) for c in corners[:4]),  # type: ignore[arg-type]
        face=d.get("face", "up"),
        confidence=float(d.get("confidence", 1.0)),
        owner=owner,
    )


def from_reading(reading: FrameReading) -> Observation:
    """What the reader made of one frame (`vision.read.reader.read_frame`) -> Observation.

    Tiles the layout gave to a seat's hand belong to that seat; the rest are taken as layout
    tiles. A closed double's values are inferred by the layout, never read: its tile stays unread
    (the tracker names it from the end it closes), as in `dominocam read --json`.
    """
    owners: dict[int, str] = {}
    for seat, indices in reading.layout.hands.items():
        for i in indices:
            owners[int(i)] = seat
    tiles = []
    for i, t in enumerate(reading.tiles):
        values = None if t.face == "down" and i in reading.layout.inferred else t.values
        tiles.append(TileObs(
            values=None if values is None else (int(values[0]), int(values[1])),
            halves=(_pt(t.halves[0]), _pt(t.halves[1])),
            corners=tuple(_pt(c) for c in t.quad[:4]),  # type: ignore[arg-type]
            face=t.face,
            confidence=float(t.confidence),
            owner=owners.get(i, LAYOUT),
        ))
    edges = tuple((int(i), int(j)) for i, j in reading.layout.edges)
    size = (int(reading.size[0]), int(reading.size[1]))
    return Observation(tiles=tuple(tiles), edges=edges, size=size)


def from_truth(truth: dict) -> Observation:
    """One renderer truth JSON -> the Observation a perfect reader would give.

    The truth's `parent` links become edges; `owner` is kept (layout, boneyard or a seat). Tiles
    of a video frame less than half visible (under an arm, out of the frame) are left out.
    """
    raw = truth.get("tiles", [])
    # A tile mostly under an arm or out of the picture is not seen (video truth says how much).
    keep = [i for i, d in enumerate(raw)
            if d.get("visible", 1.0) >= 0.5 and d.get("in_frame", 1.0) >= 0.5]
    index = {old: new for new, old in enumerate(keep)}
    tiles = []
    edges = []
    for i in keep:
        d = raw[i]
        owner = d.get("owner") or LAYOUT
        if d.get("face") == "down":  # a camera never sees a face-down tile's values
            d = {**d, "values": None}
        tiles.append(_tile_from_dict(d, owner))
        parent = d.get("parent")
        if parent is not None and int(parent) in index:
            edges.append((index[int(parent)], index[i]))
    size = tuple(truth["size"]) if truth.get("size") else None
    return Observation(tiles=tuple(tiles), edges=tuple(edges), size=size)  # type: ignore[arg-type]


def joined(a: TileObs, b: TileObs, factor: float = 1.25) -> bool:
    """Whether two tiles touch as a joint: a half of each within `factor` half spans, showing the
    same value (a face-down tile joins the nearest half)."""
    reach = factor * max(a.half_span, b.half_span, 1.0)
    return any(math.hypot(ha[0] - hb[0], ha[1] - hb[1]) <= reach
               and (a.values is None or b.values is None or a.values[ka] == b.values[kb])
               for ka, ha in enumerate(a.halves) for kb, hb in enumerate(b.halves))


def touching_edges(tiles: tuple[TileObs, ...] | list[TileObs], factor: float = 1.25) -> list[tuple[int, int]]:
    """Joins between layout tiles as a perfect reader would see them (`joined`).

    For truth that carries no parent links (the renderer's per-frame video truth).
    """
    layout = [i for i, t in enumerate(tiles) if t.owner == LAYOUT]
    return [(i, j) for n, i in enumerate(layout) for j in layout[n + 1:] if joined(tiles[i], tiles[j], factor)]


def from_video_truth(frame_truth: dict, size: tuple[int, int] | None = None) -> Observation:
    """One line of a rendered video's `truth.jsonl` -> Observation, joins from geometry.

    Tiles hidden by the arm (`visible` < 0.5) or out of the frame are left out, as a camera would.
    """
    tiles = []
    for d in frame_truth.get("tiles", []):
        if d.get("visible", 1.0) < 0.5 or d.get("in_frame", 1.0) < 0.5:
            continue
        tiles.append(_tile_from_dict(d, d.get("owner") or LAYOUT))
    return Observation(tuple(tiles), tuple(touching_edges(tiles)), size)
