"""Printed game boards and boxes: grids, star symbols, logos and printed pictures of dominoes.

The printed dominoes are drawn flat (no thickness, no shadow, a printed outline) and are never
labelled: the detector must learn that a picture of a tile is not a tile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.backgrounds import FONTS, random_text
from vision.synth.styles import _jitter, random_style
from vision.synth.tiles import PlacedTile, draw_face, fill_poly


@dataclass
class BoardGrid:
    origin: tuple[float, float]
    cell: float
    cols: int
    rows: int


def _star(img, c, r, color, edge) -> None:
    pts = []
    for k in range(8):
        rad = r if k % 2 == 0 else r * 0.32
        a = k * math.pi / 4 - math.pi / 2
        pts.append((c[0] + rad * math.cos(a), c[1] + rad * math.sin(a)))
    fill_poly(img, np.array(pts), color)
    cv2.polylines(img, [np.round(np.array(pts)).astype(np.int32)], True, edge, 1, cv2.LINE_AA)


def printed_domino(img, rng, center, angle, width, style=None, values=None) -> None:
    style = style or random_style(rng, kind=str(rng.choice(["white", "ivory", "white", "black"])))
    values = values or (int(rng.integers(7)), int(rng.integers(7)))
    t = PlacedTile(values, center, angle, width, float(rng.uniform(1.9, 2.05)), "up", style=style)
    draw_face(img, t, printed=True)


def game_board(img: np.ndarray, rng: np.random.Generator, center, cell: float, angle_jitter: float = 0.0) -> BoardGrid:
    """A square board: a border track of printed dominoes around a grid of `cols` x `rows` cells."""
    n = int(rng.choice([15, 15, 13, 11, 9]))
    border = cell * float(rng.uniform(2.2, 3.0))
    inner = n * cell
    x0, y0 = center[0] - inner / 2, center[1] - inner / 2
    track_col = _jitter(rng, [(40, 60, 110), (30, 45, 80), (60, 90, 140), (40, 40, 40), (90, 60, 30)][int(rng.integers(5))], 12)
    grid_col = _jitter(rng, [(150, 140, 20), (120, 150, 30), (140, 90, 30), (170, 200, 210), (60, 120, 60)][int(rng.integers(5))], 15)
    bx0, by0 = int(x0 - border), int(y0 - border)
    bx1, by1 = int(x0 + inner + border), int(y0 + inner + border)
    cv2.rectangle(img, (bx0 + 3, by0 + 3), (bx1 + 3, by1 + 3), (20, 20, 20), -1)  # board edge shadow
    cv2.rectangle(img, (bx0, by0), (bx1, by1), track_col, -1)
    cv2.rectangle(img, (bx0, by0), (bx1, by1), tuple(min(255, int(c * 1.6) + 30) for c in track_col), max(1, int(cell * 0.08)))
    # mottled print on the track
    h, w = img.shape[:2]
    ys, ye, xs, xe = max(0, by0), min(h, by1), max(0, bx0), min(w, bx1)
    if ye > ys and xe > xs:
        region = img[ys:ye, xs:xe].astype(np.float32)
        small = rng.standard_normal(((ye - ys) // 8 + 2, (xe - xs) // 8 + 2)).astype(np.float32) * 8
        region += cv2.resize(small, (xe - xs, ye - ys))[..., None]
        img[ys:ye, xs:xe] = np.clip(region, 0, 255).astype(np.uint8)
    gx0, gy0, gx1, gy1 = int(x0), int(y0), int(x0 + inner), int(y0 + inner)
    cv2.rectangle(img, (gx0, gy0), (gx1, gy1), grid_col, -1)
    line_col = tuple(int(c * 0.45) for c in grid_col)
    thick = max(1, int(round(cell * 0.03)))
    for k in range(n + 1):
        x = int(round(x0 + k * cell))
        y = int(round(y0 + k * cell))
        cv2.line(img, (x, gy0), (x, gy1), line_col, thick, cv2.LINE_AA)
        cv2.line(img, (gx0, y), (gx1, y), line_col, thick, cv2.LINE_AA)
    star_cols = [(60, 190, 220), (170, 80, 40), (70, 40, 110), (60, 140, 50)]
    for _ in range(int(rng.integers(n, 3 * n))):
        cx, cy = int(rng.integers(n)), int(rng.integers(n))
        col = star_cols[int(rng.integers(4))]
        c = (x0 + (cx + 0.5) * cell, y0 + (cy + 0.5) * cell)
        _star(img, c, cell * 0.48, _jitter(rng, col, 10), (30, 30, 30))
        if cell > 14:
            cv2.putText(img, str(int(rng.integers(1, 4))), (int(c[0] - cell * 0.1), int(c[1] + cell * 0.1)),
                        cv2.FONT_HERSHEY_SIMPLEX, cell / 70, (230, 230, 230), 1, cv2.LINE_AA)
    if rng.random() < 0.8:  # logo in the middle
        text = str(rng.choice(["Double", "Domino", "DOMINOES", "Dominoes", "Mexican Train", "Double Six"]))
        scale = cell / 16
        font = FONTS[int(rng.integers(len(FONTS)))]
        (tw, th), _ = cv2.getTextSize(text, font, scale, max(1, int(cell / 10)))
        org = (int(center[0] - tw / 2), int(center[1] + th / 2))
        cv2.putText(img, text, org, font, scale, (20, 20, 20), max(2, int(cell / 5)), cv2.LINE_AA)
        cv2.putText(img, text, org, font, scale, _jitter(rng, (60, 190, 230), 20), max(1, int(cell / 10)), cv2.LINE_AA)
    # printed dominoes around the track, in a zigzag like the real board's score track
    pw = cell * float(rng.uniform(0.75, 0.95))
    style = random_style(rng, kind=str(rng.choice(["white", "ivory", "white"])))
    for side in range(4):
        k = 0.0
        while k < inner + border:
            along = -border / 2 + k + pw
            vertical = rng.random() < 0.4
            off = border * (0.5 + float(rng.uniform(-0.12, 0.12)))
            if side == 0:
                c, ang = (x0 + along, y0 - off), 0.0
            elif side == 1:
                c, ang = (x0 + inner + off, y0 + along), math.pi / 2
            elif side == 2:
                c, ang = (x0 + inner - along, y0 + inner + off), 0.0
            else:
                c, ang = (x0 - off, y0 + inner - along), math.pi / 2
            if vertical:
                ang += math.pi / 2
            printed_domino(img, rng, c, ang, pw, style=style)
            k += (pw if vertical else 2 * pw) + pw * float(rng.uniform(0.05, 0.6))
    return BoardGrid((x0, y0), cell, n, n)


def domino_box(img: np.ndarray, rng: np.random.Generator, center, size: float) -> np.ndarray:
    """A box lid or poster with printed dominoes and a title; returns its outline polygon."""
    ang = float(rng.uniform(0, math.pi))
    w, h = size, size * float(rng.uniform(0.5, 0.9))
    u = np.array([math.cos(ang), math.sin(ang)])
    v = np.array([-u[1], u[0]])
    c = np.asarray(center, dtype=np.float64)
    poly = np.array([c - u * w / 2 - v * h / 2, c + u * w / 2 - v * h / 2, c + u * w / 2 + v * h / 2, c - u * w / 2 + v * h / 2])
    fill_poly(img, poly, _jitter(rng, [(30, 30, 140), (120, 40, 20), (20, 90, 20), (20, 20, 20), (40, 160, 220)][int(rng.integers(5))], 20))
    tw = h * float(rng.uniform(0.12, 0.25))
    for _ in range(int(rng.integers(2, 7))):
        p = c + u * float(rng.uniform(-0.35, 0.35)) * w + v * float(rng.uniform(-0.3, 0.3)) * h
        printed_domino(img, rng, tuple(p), float(rng.uniform(0, math.pi)), tw)
    if rng.random() < 0.8:
        cv2.putText(img, random_text(rng, 1).upper(), tuple(int(x) for x in (c - u * w * 0.4 + v * h * 0.4)),
                    cv2.FONT_HERSHEY_DUPLEX, max(0.4, h / 150), (230, 230, 230), max(1, int(h / 80)), cv2.LINE_AA)
    return poly
