"""Table calibration: where the table is in the frame and which edge each player sits at.

Automatic from one frame (`auto_calibrate`), or given by the operator (`operator_calibration`:
four corners and which edge is which seat). Edges are named in image terms, `bottom`, `left`,
`top`, `right`; seen from above with the image's y axis pointing down, that order is clockwise, the
order of play, so `players[0]` sits at the bottom by default.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

Point = tuple[float, float]

EDGES = ("bottom", "left", "top", "right")  # clockwise seen from above
COMPASS = {"bottom": "south", "left": "west", "top": "north", "right": "east"}
EDGE_OF_COMPASS = {v: k for k, v in COMPASS.items()}

# Seats used with fewer than four players: opposite each other first.
_SEATS_FOR = {1: ("bottom",), 2: ("bottom", "top"), 3: ("bottom", "left", "top"), 4: EDGES}


class CalibrationError(ValueError):
    """A calibration that cannot be used; the message says what to fix."""


def default_seats(players: list[str] | tuple[str, ...]) -> dict[str, str]:
    """edge -> player, clockwise from the bottom edge (`players` are in clockwise seat order)."""
    if not 1 <= len(players) <= 4:
        raise CalibrationError(f"a table seats 1 to 4 players, got {len(players)}: {players}")
    return dict(zip(_SEATS_FOR[len(players)], players, strict=True))


@dataclass(frozen=True)
class TableCalibration:
    """The table quad in image pixels (top-left, top-right, bottom-right, bottom-left) and seats.

    `seats` maps an edge name to the player sitting there; edges without a player are free.
    """

    corners: tuple[Point, Point, Point, Point]
    seats: dict[str, str] = field(default_factory=dict)
    size: tuple[int, int] | None = None  # (w, h) of the frame the corners refer to
    source: str = "auto"  # "auto" or "operator"

    def __post_init__(self) -> None:
        if len(self.corners) != 4:
            raise CalibrationError(f"a table needs 4 corners, got {len(self.corners)}")
        bad = set(self.seats) - set(EDGES)
        if bad:
            raise CalibrationError(f"unknown table edge(s) {sorted(bad)}: use {list(EDGES)}")
        quad = np.asarray(self.corners, dtype=np.float32)
        if abs(cv2.contourArea(quad)) < 1.0:
            raise CalibrationError(f"the table corners {self.corners} enclose no area")
        square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
        object.__setattr__(self, "_to_unit", cv2.getPerspectiveTransform(quad, square))

    # --- geometry -------------------------------------------------------------------------
    def to_unit(self, p: Point) -> Point:
        """Image point -> table coordinates: (0, 0) top-left corner, (1, 1) bottom-right."""
        src = np.array([[p]], dtype=np.float32)
        u, v = cv2.perspectiveTransform(src, self._to_unit)[0, 0]  # type: ignore[attr-defined]
        return (float(u), float(v))

    def contains(self, p: Point, margin: float = 0.0) -> bool:
        u, v = self.to_unit(p)
        return -margin <= u <= 1 + margin and -margin <= v <= 1 + margin

    def seat_of_edge(self, edge: str | None) -> str | None:
        return None if edge is None else self.seats.get(edge)

    def edge_distances(self, p: Point) -> dict[str, float]:
        """How far an image point lies from each table edge, in table widths and depths."""
        u, v = self.to_unit(p)
        return {"top": v, "bottom": 1 - v, "left": u, "right": 1 - u}

    def edge_of_point(self, p: Point) -> str:
        """The table edge an image point lies before: the nearest edge with a player (two players
        sit across the table; a hand laid out towards an empty side is still theirs: held-out
        live deal h17, a recount tile nearer the empty left edge was nobody's), else the nearest."""
        dist = self.edge_distances(p)
        return min(dist, key=lambda e: (e not in self.seats, dist[e]))

    def seat_of_point(self, p: Point) -> str | None:
        """The player in front of whom an image point lies (`edge_of_point`); None with no seats."""
        return self.seats.get(self.edge_of_point(p))

    def scaled(self, sx: float, sy: float) -> TableCalibration:
        """The same calibration for a frame resized by (sx, sy)."""
        corners = tuple((x * sx, y * sy) for x, y in self.corners)
        size = None if self.size is None else (round(self.size[0] * sx), round(self.size[1] * sy))
        return TableCalibration(corners, dict(self.seats), size, self.source)  # type: ignore[arg-type]

    def with_seats(self, seats: dict[str, str]) -> TableCalibration:
        return TableCalibration(self.corners, dict(seats), self.size, self.source)

    # --- JSON for the operator page ------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "corners": [list(c) for c in self.corners],
            "seats": dict(self.seats),
            "size": None if self.size is None else list(self.size),
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, d: dict) -> TableCalibration:
        try:
            corners = tuple((float(x), float(y)) for x, y in d["corners"])
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(
                f"calibration needs 'corners': four [x, y] pairs, got {d.get('corners')!r}"
            ) from exc
        size = d.get("size")
        return cls(
            corners,  # type: ignore[arg-type]
            dict(d.get("seats") or {}),
            None if size is None else (int(size[0]), int(size[1])),
            d.get("source", "operator"),
        )


def operator_calibration(
    corners: list[Point], seats: dict[str, str], size: tuple[int, int] | None = None
) -> TableCalibration:
    """The operator's override: corners in any order, `seats` as edge (or compass) -> player."""
    if len(corners) != 4:
        raise CalibrationError(f"give the table's 4 corners, got {len(corners)}")
    mapped = {EDGE_OF_COMPASS.get(k, k): v for k, v in seats.items()}
    if len(set(mapped.values())) != len(mapped):
        raise CalibrationError(f"a player sits at two edges: {seats}")
    return TableCalibration(order_corners(corners), mapped, size, "operator")


def order_corners(points) -> tuple[Point, Point, Point, Point]:
    """Four points -> (top-left, top-right, bottom-right, bottom-left)."""
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    s = pts.sum(axis=1)
    d = pts[:, 1] - pts[:, 0]
    tl, br = pts[np.argmin(s)], pts[np.argmax(s)]
    tr, bl = pts[np.argmin(d)], pts[np.argmax(d)]
    return tuple((float(x), float(y)) for x, y in (tl, tr, br, bl))  # type: ignore[return-value]


def full_frame(size: tuple[int, int], players, source: str = "auto") -> TableCalibration:
    w, h = size
    corners = ((0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0))
    return TableCalibration(corners, default_seats(players), (w, h), source)


SHADE_SHARE = 0.015  # a channel's share of the pixel's sum this near the cloth's: its hue
SHADE_DIMMEST = 0.25  # of the cloth's brightness: the darkest shade still taken for it


def _median_spread(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per channel, the median of `values` (N x C) and their median distance from it."""
    centre = np.median(values, axis=0)
    return centre, np.median(np.abs(values - centre), axis=0)


def auto_calibrate(frame: np.ndarray, players, *, work_width: int = 320) -> TableCalibration:
    """Find the table in a BGR frame: the largest region of the table's colour.

    The table colour is the median of a ring between 15 % and 30 % in from the frame's border
    (inside the table on a usual shot, outside the central layout). When no clear quad of at least
    30 % of the frame stands out, the whole frame is the table: the usual case with a camera
    framed on the table. Seats follow `default_seats(players)`; the operator overrides both.
    """
    h, w = frame.shape[:2]
    scale = work_width / w
    small = cv2.resize(frame, (work_width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    ring = np.zeros((sh, sw), dtype=bool)
    ring[int(sh * 0.15) : int(sh * 0.85), int(sw * 0.15) : int(sw * 0.85)] = True
    ring[int(sh * 0.30) : int(sh * 0.70), int(sw * 0.30) : int(sw * 0.70)] = False
    colour, spread = _median_spread(lab[ring])
    dist = np.abs(lab - colour) / (3.0 * spread + 6.0)
    mask = dist.max(axis=2) < 1.0
    # A shadow across the table (a lamp's, a player's) or the lens darkening the corners keeps the
    # cloth's hue, only dimmer: the share of each channel in the pixel's sum stays (fresh46 h1074:
    # the shaded third of the table, Anna's row in it, left out; Gleb's arm over it was then told
    # as coming from the bottom edge).
    bgr = small.astype(np.float32)
    total = bgr.sum(axis=2) + 1.0
    share = bgr / total[..., None]
    ring_total = float(np.median(total[ring]))
    hue, hue_spread = _median_spread(share[ring])
    shade = ((np.abs(share - hue) < 3.0 * hue_spread + SHADE_SHARE).all(axis=2)
             & (total >= SHADE_DIMMEST * ring_total) & (total <= ring_total))
    mask = (mask | shade).astype(np.uint8) * 255
    # Close over tiles, pips and clutter lying on the table.
    k = max(3, sw // 20) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if contours:
        big = max(contours, key=cv2.contourArea)
        area = cv2.contourArea(big)
        if 0.30 * sw * sh <= area <= 0.92 * sw * sh:
            quad = cv2.boxPoints(cv2.minAreaRect(big)) / scale
            quad[:, 0] = np.clip(quad[:, 0], 0, w - 1)
            quad[:, 1] = np.clip(quad[:, 1], 0, h - 1)
            return TableCalibration(order_corners(quad), default_seats(players), (w, h), "auto")
    return full_frame((w, h), players)
