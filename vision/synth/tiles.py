"""Placed tiles and how to draw them (top face, thickness edge, printed copies)."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.synth.polygons import axes, rect_corners, rounded_rect
from vision.synth.styles import TileStyle

SHIFT = 4  # sub-pixel bits for cv2 drawing
ONE = 1 << SHIFT

# Pip positions per value in a half's own frame, in units of the pip spread:
# x runs along the tile's long axis, y across it. The six is two rows of three along the tile.
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
}
# The other common six: three rows of two across the half (style.six == "across").
SIX_ACROSS: list[tuple[float, float]] = [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]
BRASS: tuple[int, int, int] = (60, 160, 200)  # BGR of a brass centre pin


def pip_layout(value: int, six: str = "along") -> list[tuple[float, float]]:
    """Pip positions of `value` in a half's own frame for a set whose six is drawn `six`."""
    return SIX_ACROSS if value == 6 and six == "across" else PIP_LAYOUT[value]


@dataclass
class PlacedTile:
    """A tile on the table plane, in canvas pixels. `values[0]` is the half at `center - u*L/4`."""

    values: tuple[int, int] | None
    center: tuple[float, float]
    angle: float  # direction from the first half to the second
    width: float
    ratio: float
    face: str = "up"  # up | down
    owner: str = "layout"
    parent: int | None = None
    joint: int | None = None
    style: TileStyle | None = None
    extra: dict = field(default_factory=dict)

    @property
    def length(self) -> float:
        return self.width * self.ratio

    def corners(self) -> np.ndarray:
        return rect_corners(self.center, self.angle, self.length, self.width)

    def halves(self) -> np.ndarray:
        u, _ = axes(self.angle)
        c = np.asarray(self.center, dtype=np.float64)
        q = self.length / 4.0
        return np.array([c - u * q, c + u * q])


def _fix(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts) * ONE).astype(np.int32).reshape(-1, 1, 2)


def _circle(img, c, r: float, color, ) -> None:
    cv2.circle(img, (int(round(c[0] * ONE)), int(round(c[1] * ONE))), max(1, int(round(r * ONE))), color, -1, cv2.LINE_AA, SHIFT)


def fill_poly(img: np.ndarray, pts: np.ndarray, color) -> None:
    cv2.fillPoly(img, [_fix(pts)], color, cv2.LINE_AA, SHIFT)


def face_polygon(t: PlacedTile, grow: float = 0.0) -> np.ndarray:
    s = t.style
    return rounded_rect(t.center, t.angle, t.length + 2 * grow, t.width + 2 * grow, s.corner * t.width + grow)


def _shade(img: np.ndarray, poly: np.ndarray, light: np.ndarray, amount: float) -> None:
    """A soft brightness ramp across a face (brighter toward the light), inside `poly` only."""
    x0, y0 = np.floor(poly.min(axis=0)).astype(int)
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    roi = img[y0:y1, x0:x1]
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly - [x0, y0]).astype(np.int32)], 255)
    yy, xx = np.mgrid[0:y1 - y0, 0:x1 - x0].astype(np.float32)
    ramp = (xx - (x1 - x0) / 2) * -light[0] + (yy - (y1 - y0) / 2) * -light[1]
    ramp = 1.0 + amount * ramp / max(1.0, float(np.abs(ramp).max()))
    shaded = np.clip(roi * ramp[..., None], 0, 255).astype(np.uint8)
    np.copyto(roi, shaded, where=mask[..., None] > 0)


def _scratches(img: np.ndarray, t: PlacedTile) -> None:
    """Faint hairline scratches of a worn set; the same on every frame for the same tile."""
    s = t.style
    u, v = axes(t.angle)
    c = np.asarray(t.center, dtype=np.float64)
    key = int(abs(round(c[0] * 7 + c[1] * 13 + t.angle * 1000))) % (2**31)
    rng = np.random.default_rng(key)
    light_body = sum(s.body) > 380
    col = tuple(int(x * 0.86) for x in s.body) if light_body else tuple(min(255, int(x * 1.25) + 20) for x in s.body)
    for _ in range(int(1 + s.worn * 6)):
        a = c + u * rng.uniform(-0.38, 0.38) * t.length + v * rng.uniform(-0.3, 0.3) * t.width
        d = axes(float(rng.uniform(0, np.pi)))[0] * rng.uniform(0.08, 0.18) * t.width
        cv2.line(img, tuple(_fix(a).ravel()), tuple(_fix(a + d).ravel()), col, 1, cv2.LINE_AA, SHIFT)


def draw_side(img: np.ndarray, t: PlacedTile, offset: np.ndarray) -> None:
    """The visible thickness: the face outline swept by `offset` (image displacement of the base)."""
    poly = face_polygon(t)
    hull = cv2.convexHull(np.vstack([poly, poly + offset]).astype(np.float32)).reshape(-1, 2)
    fill_poly(img, hull, t.style.side)


def draw_face(img: np.ndarray, t: PlacedTile, printed: bool = False) -> None:
    """Top face: body, rim shading, divider, pin and pips (or the back pattern)."""
    s = t.style
    w, length = t.width, t.length
    u, v = axes(t.angle)
    c = np.asarray(t.center, dtype=np.float64)
    if printed:
        # print styles vary: a dark outline, a printed drop shadow, or neither (key = position)
        look = int(abs(c[0] * 3 + c[1] * 5)) % 3
        if look == 1:
            fill_poly(img, face_polygon(t) + np.array([0.06, 0.08]) * w, tuple(int(x * 0.35) for x in s.body))
        if look != 2:
            fill_poly(img, face_polygon(t, grow=max(0.6, 0.03 * w)), tuple(int(x * 0.45) for x in s.body))
        fill_poly(img, face_polygon(t), s.body)
    else:
        rim = tuple(int(x * (1 - s.bevel)) for x in s.body)
        fill_poly(img, face_polygon(t), rim)
        inset = min(0.06 * w, 3.0)
        fill_poly(img, rounded_rect(c, t.angle, length - 2 * inset, w - 2 * inset, max(0.0, s.corner * w - inset)), s.body)
        if s.shade > 0 and w >= 8:
            _shade(img, face_polygon(t), s.light, s.shade)
        if s.worn > 0 and w >= 16:
            _scratches(img, t)
    if t.face == "down":
        body = s.back
        fill_poly(img, face_polygon(t, grow=-0.02 * w), body)
        mark = tuple(int(x * 0.75) if sum(body) > 300 else min(255, int(x * 1.4) + 25) for x in body)
        if s.back_pattern == "ring" and w > 10:
            cv2.circle(img, tuple(int(round(x * ONE)) for x in c), int(0.3 * w * ONE), mark, max(1, int(0.05 * w)), cv2.LINE_AA, SHIFT)
        elif s.back_pattern == "line" and w > 10:
            cv2.line(img, tuple(_fix(c - u * length * 0.3).ravel()), tuple(_fix(c + u * length * 0.3).ravel()), mark, max(1, int(0.05 * w)), cv2.LINE_AA, SHIFT)
        elif s.back_pattern == "border" and w > 10:
            pts = rounded_rect(c, t.angle, length * 0.8, w * 0.7, 0.1 * w)
            cv2.polylines(img, [_fix(pts)], True, mark, max(1, int(0.04 * w)), cv2.LINE_AA, SHIFT)
        return
    _divider(img, t, printed)
    spread = s.pip_spread * w
    radius = max(0.7, s.pip_radius * w)
    for k, hc in enumerate(t.halves()):
        value = t.values[k]
        # the pattern of the first half is rotated 180 degrees, as on real tiles read from the centre
        sign = -1.0 if k == 0 else 1.0
        for px, py in pip_layout(value, s.six):
            p = hc + u * (sign * px * spread) + v * (sign * py * spread)
            _circle(img, p, radius, s.pip_colors[value])
            if s.pip_kind == "engraved" and radius >= 1.5:
                # an engraved pip: a dark ring round a floor nearer the body's colour
                floor = tuple(int(pc + (bc - pc) * 0.45) for pc, bc in zip(s.pip_colors[value], s.body, strict=True))
                _circle(img, p, radius * 0.6, floor)
            elif not printed and s.concave > 0 and radius >= 3.0:
                # a drilled pip: the rim away from the light catches a little of it
                lit = tuple(int(pc + (bc - pc) * s.concave) for pc, bc in zip(s.pip_colors[value], s.body, strict=True))
                _circle(img, p + s.light * radius * 0.45, radius * 0.5, lit)


def _divider(img: np.ndarray, t: PlacedTile, printed: bool) -> None:
    """The divider as the set has it: a line, a groove, a brass pin with or without a line, a faint
    line or nothing at all."""
    s = t.style
    w = t.width
    u, v = axes(t.angle)
    c = np.asarray(t.center, dtype=np.float64)
    kind = s.divider_kind
    half_len = w * s.divider_len / 2.0
    dthick = max(1.0, w * s.divider_thick)

    def bar(offset: float, thick: float, colour) -> None:
        m = c + u * offset
        fill_poly(img, np.array([m - v * half_len - u * thick / 2, m + v * half_len - u * thick / 2,
                                 m + v * half_len + u * thick / 2, m - v * half_len + u * thick / 2]), colour)

    if kind in ("line", "pin_line"):
        bar(0.0, dthick, s.divider)
    elif kind == "faint":
        bar(0.0, max(1.0, 0.6 * dthick), tuple(int(b + (d - b) * 0.3) for b, d in zip(s.body, s.divider, strict=True)))
    elif kind == "groove":
        # a cut in the body: its shadowed wall, then the lit one beside it
        light_body = sum(s.body) > 380
        dark = tuple(int(x * (0.72 if light_body else 0.55)) for x in s.body)
        lit = tuple(min(255, int(x * 1.08) + 12) for x in s.body)
        bar(-dthick * 0.25, dthick * 0.6, dark)
        bar(dthick * 0.35, dthick * 0.45, lit)
    pin = s.pin if kind == "line" else (s.pin or BRASS) if kind in ("pin", "pin_line") else None
    if pin is not None and not printed:
        _circle(img, c, 0.07 * w, pin)
        if kind in ("pin", "pin_line") and w >= 12:  # a brass dome catches the light
            _circle(img, c - np.array([0.02, 0.02]) * w, 0.03 * w, tuple(min(255, x + 60) for x in pin))
