"""Where tiles lie: a bending chain from a deal, hands in front of seats, boneyard piles, and
dense grids of touching tiles (as on a printed game board).

Everything is computed in the table plane (canvas pixels). The chain is built in its own frame
with axis-aligned directions, then rotated and moved into place.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.synth.play import Deal
from vision.synth.polygons import inside_rect, polygons_overlap, rect_corners
from vision.synth.styles import TileStyle
from vision.synth.tiles import PlacedTile


def _rot(d: np.ndarray, sense: int) -> np.ndarray:
    return np.array([-sense * d[1], sense * d[0]])


@dataclass
class _End:
    tile: int  # index into the placed list
    value: int
    point: np.ndarray  # centre of the free edge
    direction: np.ndarray
    used: bool = False
    turn_sense: int = 0  # pending second bend of a U-turn


def _angle(d: np.ndarray) -> float:
    return math.atan2(d[1], d[0])


def layout_chain(deal: Deal, rng: np.random.Generator, width: float, ratio: float,
                 half_size: tuple[float, float], style_of, gap: float | None = None,
                 gap_override: float | None = None) -> list[PlacedTile]:
    """Lay the deal's moves out as people do: lengthwise tiles, doubles crosswise, a right-angle
    bend (often a U-turn) where the free area ends, never crossing itself.

    Coordinates are in the chain's own frame centred on (0, 0); the free area is |x| <= half_size[0],
    |y| <= half_size[1]. A move whose tile cannot be placed is dropped with everything that hangs
    on it. Returns tiles whose `extra["move"]` is the move index.
    """
    w, length = width, width * ratio
    gap = float(rng.uniform(0.0, 0.06)) * w if gap is None else gap
    if gap_override is not None:  # after the draw, so the rest of the chain lies as without it
        gap = gap_override * w
    ax, ay = half_size
    placed: list[PlacedTile] = []
    polys: list[np.ndarray] = []
    ends: list[_End] = []
    move_to_placed: dict[int, int] = {}
    tol = 0.02 * w

    def fits(poly: np.ndarray) -> bool:
        if not inside_rect(poly, -ax, -ay, ax, ay):
            return False
        return not any(polygons_overlap(poly, p, tol) for p in polys)

    for mi, mv in enumerate(deal.moves):
        a, b = mv.tile
        double = a == b
        style = style_of(mi)
        if mv.parent is None:
            if double:
                t = PlacedTile((a, b), (0.0, 0.0), math.pi / 2, w, ratio, mv.face, "layout", style=style)
                placed.append(t)
                polys.append(t.corners())
                ends += [_End(0, a, np.array([w / 2, 0.0]), np.array([1.0, 0.0])),
                         _End(0, a, np.array([-w / 2, 0.0]), np.array([-1.0, 0.0]))]
                # the short ends take tiles only where the rules make this double a cross
                ends += [_End(0, a, np.array([0.0, length / 2]), np.array([0.0, 1.0])),
                         _End(0, a, np.array([0.0, -length / 2]), np.array([0.0, -1.0]))]
            else:
                t = PlacedTile((a, b), (0.0, 0.0), 0.0, w, ratio, mv.face, "layout", style=style)
                placed.append(t)
                polys.append(t.corners())
                ends += [_End(0, a, np.array([-length / 2, 0.0]), np.array([-1.0, 0.0])),
                         _End(0, b, np.array([length / 2, 0.0]), np.array([1.0, 0.0]))]
            move_to_placed[mi] = 0
            continue
        pi = move_to_placed.get(mv.parent)
        if pi is None:
            continue
        end = next((e for e in ends if e.tile == pi and e.value == mv.joint and not e.used), None)
        if end is None:
            continue
        other = b if a == mv.joint else a
        e_pt, d = end.point, end.direction
        candidates = []
        straight_along = w if double else length
        straight_center = e_pt + d * (straight_along / 2 + gap)
        straight_angle = _angle(d) + (math.pi / 2 if double else 0.0)
        straight = (straight_center, straight_angle, e_pt + d * (straight_along + gap), d, 0)
        senses = [1, -1]
        rng.shuffle(senses)
        if rng.random() < 0.8 and len(placed) > 1:
            # bend away from the tiles already down, so arms spread out instead of meeting
            mass = np.mean([np.asarray(p.center) for p in placed], axis=0)
            senses.sort(key=lambda sg: -float(np.dot(_rot(d, sg), e_pt - mass)))
        if end.turn_sense:
            senses = [end.turn_sense, -end.turn_sense]
        bends = []
        for s in senses:
            d2 = _rot(d, s)
            first_half = e_pt + d * (w / 2 + gap)
            center = first_half + d2 * (length / 4)
            bends.append((center, _angle(d2), center + d2 * (length / 2), d2, s))
        # look ahead: a straight tile that leaves no room to bend after it is a dead end
        room = rect_corners(straight_center + d * (w + gap) / 2, _angle(d), straight_along + w + gap,
                            length if double else w)
        straight_ok = inside_rect(room, -ax, -ay, ax, ay)
        if end.turn_sense and not double:
            candidates = bends[:1] + [straight] + bends[1:]
        elif straight_ok:
            candidates = [straight] + bends
        else:
            candidates = bends + [straight]
        chosen = None
        for center, ang, new_pt, new_d, sense in candidates:
            poly = rect_corners(center, ang, length, w)
            if fits(poly):
                chosen = (center, ang, new_pt, new_d, sense, poly)
                break
        if chosen is None:
            continue
        center, ang, new_pt, new_d, sense, poly = chosen
        end.used = True
        # the half showing the joint value comes first (toward the parent)
        vals = (a, b) if double and sense == 0 else (mv.joint, other)
        t = PlacedTile(vals, (float(center[0]), float(center[1])), ang, w, ratio, mv.face, "layout",
                       parent=pi, joint=mv.joint, style=style)
        t.extra["move"] = mi
        t.extra["seat"] = mv.seat
        idx = len(placed)
        placed.append(t)
        polys.append(poly)
        move_to_placed[mi] = idx
        if mv.face == "up":
            # after one bend, often bend again the same way (a U-turn), as players do at the edge
            pending = sense if (sense and rng.random() < 0.7) else 0
            ends.append(_End(idx, other, new_pt, new_d, turn_sense=pending))
            if double and sense == 0:  # a crosswise double may become a cross (BAL-9, SEV, SPI)
                perp = _rot(new_d, 1)
                for sgn in (1, -1):
                    ends.append(_End(idx, other, center + perp * sgn * (length / 2), perp * sgn))
    placed[0].extra.setdefault("move", 0)
    placed[0].extra.setdefault("seat", deal.moves[0].seat)
    return placed


def transform_tiles(tiles: list[PlacedTile], angle: float, offset, jitter: float, rng: np.random.Generator) -> None:
    """Rotate the chain frame by `angle`, move it to `offset`, add hand-placement jitter (dropped
    for a tile where it would push into a neighbour: real tiles do not interpenetrate)."""
    ca, sa = math.cos(angle), math.sin(angle)
    done: list[np.ndarray] = []
    for t in tiles:
        x, y = t.center
        base = (offset[0] + ca * x - sa * y, offset[1] + sa * x + ca * y)
        base_angle = t.angle + angle
        jx, jy = rng.normal(0, jitter * t.width, 2)
        t.center = (base[0] + jx, base[1] + jy)
        t.angle = base_angle + float(rng.normal(0, jitter * 0.5))
        poly = t.corners()
        if any(polygons_overlap(poly, p, 0.01 * t.width) for p in done):
            t.center, t.angle = base, base_angle
            poly = t.corners()
        done.append(poly)


def row_of_tiles(values: list[tuple[int, int] | None], start, direction: float, width: float, ratio: float,
                 face: str, owner: str, style: TileStyle, rng: np.random.Generator, gap: float,
                 lengthwise: bool = False) -> list[PlacedTile]:
    """Tiles side by side (long sides touching, long axes across the row) or end to end."""
    out = []
    u = np.array([math.cos(direction), math.sin(direction)])
    step = (width * ratio if lengthwise else width) + gap
    pos = np.asarray(start, dtype=np.float64)
    tile_angle = direction if lengthwise else direction + math.pi / 2
    for vals in values:
        flip = rng.random() < 0.5
        v = None if vals is None else ((vals[1], vals[0]) if flip else vals)
        c = pos + u * step / 2
        out.append(PlacedTile(v, (float(c[0]), float(c[1])), tile_angle, width, ratio, face, owner, style=style))
        pos = pos + u * step
    return out


def scatter(values: list[tuple[int, int]], rng: np.random.Generator, box: tuple[float, float, float, float],
            width: float, ratio: float, face: str, owner: str, style: TileStyle,
            avoid: list[np.ndarray], tries: int = 40,
            keep: Callable[[np.ndarray], bool] | None = None, whole: bool = False) -> list[PlacedTile]:
    """A pile (boneyard): random angles, no overlaps (`keep`: where a tile's corners may lie;
    `whole`: [] as soon as one tile finds no room)."""
    x0, y0, x1, y1 = box
    out = []
    polys = list(avoid)
    for vals in values:
        for _ in range(tries):
            c = (float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)))
            t = PlacedTile(vals, c, float(rng.uniform(0, math.pi)), width, ratio, face, owner, style=style)
            poly = t.corners()
            if (keep is None or keep(poly)) and not any(polygons_overlap(poly, p, -0.05 * width) for p in polys):
                out.append(t)
                polys.append(poly)
                break
        else:
            if whole:
                return []
    return out


def dense_grid(rng: np.random.Generator, n: int, cell: float, origin, cols: int, rows: int,
               ratio: float, style_of, occupied: set | None = None, path: bool = False) -> list[PlacedTile]:
    """Tiles on a board grid (one half per cell), grown as a connected cluster so that tiles touch
    their neighbours side by side and end to end, like play on a printed board."""
    occ = set() if occupied is None else occupied
    out: list[PlacedTile] = []
    frontier = [(cols // 2 + int(rng.integers(-2, 3)), rows // 2 + int(rng.integers(-2, 3)))]
    attempts = 0
    while len(out) < n and attempts < n * 30:
        attempts += 1
        if not frontier:
            break
        # mostly grow from the newest tile (a path, as play on a board goes), sometimes anywhere
        pick = len(frontier) - 1 - int(rng.integers(min(len(frontier), 6))) if path and rng.random() < 0.8 else int(rng.integers(len(frontier)))
        cx, cy = frontier[pick]
        horizontal = rng.random() < 0.6
        dx, dy = (1, 0) if horizontal else (0, 1)
        cells = [(cx, cy), (cx + dx, cy + dy)]
        if any(c in occ or not (0 <= c[0] < cols and 0 <= c[1] < rows) for c in cells):
            continue
        occ.update(cells)
        vals = (int(rng.integers(7)), int(rng.integers(7)))
        mx = origin[0] + (cx + 0.5 + dx * 0.5) * cell
        my = origin[1] + (cy + 0.5 + dy * 0.5) * cell
        ang = 0.0 if horizontal else math.pi / 2
        if rng.random() < 0.5:
            ang += math.pi
        w = cell * float(rng.uniform(0.93, 0.99))
        ratio_t = 2 * cell / w * float(rng.uniform(0.96, 0.995))
        # a little skew, no more than the slack in the cell allows (tiles never interpenetrate)
        ang += float(rng.uniform(-1, 1)) * (cell - w) / (w * ratio_t)
        out.append(PlacedTile(vals, (mx, my), ang, w, ratio_t, "up", "layout", style=style_of(len(out))))
        nbs = [(c[0] + ddx, c[1] + ddy) for c in cells for ddx, ddy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        if path:  # continue from the ends of this tile first
            nbs = [nb for nb in nbs if nb not in occ]
            rng.shuffle(nbs)
        frontier += [nb for nb in nbs if nb not in occ]
    return out
