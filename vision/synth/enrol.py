"""Enrolment photos: a whole double-six set laid face up on a table, no two tiles touching.

`dominocam enrol` learns a club's set from such a photo (issue 23, item 4). The tiles lie anywhere,
at any angle, a gap of at least `MIN_GAP` tile widths between any two, all inside the frame; the
set is one style (one make), photographed as `vision.synth.scene.render_scene` photographs a table:
the same camera, surfaces, shadows, light, sensor noise, blur and JPEG. A `Look` of
`vision.synth.looks` restyles the set and pins the photo's conditions as it does for scenes.
"""

from __future__ import annotations

import math

import numpy as np

from vision.synth import clutter
from vision.synth.backgrounds import random_surface
from vision.synth.camera import apply_light, make_camera, random_light
from vision.synth.looks import Look
from vision.synth.polygons import polygons_overlap
from vision.synth.scene import Render, _looked, apply_shadow, draw_tiles, frame_fraction
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, face_polygon

DOUBLE_SIX: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
MIN_GAP = 0.3  # of the tile's width between any two tiles
# The tile's long side as a share of the frame's short side: 28 tiles spread out need room (a
# phone held over a table shows tiles of about this size in a photo of the whole set).
LENGTH_SHARE = (0.075, 0.12)
MARGIN = 0.03  # of the frame's short side kept free at the border
TRIES = 400  # placements tried per tile before the set is laid again at a smaller size


def render_enrolment(rng: np.random.Generator, size: tuple[int, int] = (1280, 960), look: Look | None = None,
                     values: list[tuple[int, int]] | None = None, length: float | None = None) -> Render:
    """Render one enrolment photo. `values` are the tiles laid (default the 28 of `DOUBLE_SIX`;
    tests lay 27, or one tile twice); `length` pins the tile's long side in output pixels (else
    the look's, else drawn from `LENGTH_SHARE`). Every tile is labelled and wholly in the frame."""
    values = list(DOUBLE_SIX if values is None else values)
    max_tilt = look.max_tilt_deg if look is not None else 20.0
    cam = make_camera(rng, size, max_tilt_deg=max_tilt)
    cw, ch = cam.canvas_size
    canvas, surface = random_surface(np.random.default_rng(int(rng.integers(2**31))), ch, cw,
                                     look.surface if look is not None else None)
    style = random_style(rng, None)
    if look is not None:
        style = look.style(style)
    short = min(size)
    if length is None and look is not None and look.length_px is not None:
        length = look.length_px
    if length is None:
        length = short * float(rng.uniform(*LENGTH_SHARE))
    tiles = _lay(rng, values, cam, size, float(length), style)
    light_dir = float(rng.uniform(0, 2 * math.pi))
    light = np.array([math.cos(light_dir), math.sin(light_dir)]) * float(rng.uniform(0.3, 1.5))
    shadow = clutter.ShadowLayer(np.zeros((ch // 4 + 1, cw // 4 + 1), np.uint8), 4, light)
    for t in tiles:
        shadow.add(face_polygon(t), t.style.thickness * t.width)
    width = tiles[0].width if tiles else 10.0
    apply_shadow(canvas, shadow, width, float(rng.uniform(0.25, 0.6)))
    draw_tiles(canvas, tiles, cam, rng)
    img = cam.render(canvas)
    lighting = random_light(rng, size)
    if look is not None:
        lighting = _looked(lighting, look)
    img = apply_light(img, lighting, rng)
    corners = [cam.project(t.corners()) for t in tiles]
    halves = [cam.project(t.halves()) for t in tiles]
    in_frame = [frame_fraction(c, *size) for c in corners]
    q = int(rng.integers(70, 96))
    if look is not None and look.jpeg is not None:
        q = look.jpeg
    n = len(tiles)
    return Render(img, tiles, corners, halves, in_frame, [1.0] * n, [True] * n, {}, f"enrol/{surface}", q,
                  lighting.blur)


def _lay(rng: np.random.Generator, values: list[tuple[int, int]], cam, size: tuple[int, int], length: float,
         style) -> list[PlacedTile]:
    """The tiles at random places and angles, apart from each other and inside the frame (laid
    again 10 % smaller when they do not fit). Half order within a tile is random too."""
    w_out, h_out = size
    margin = MARGIN * min(size)
    ratio = float(rng.uniform(1.93, 2.07))
    for _ in range(8):
        width = length / ratio
        placed: list[PlacedTile] = []
        polys: list[np.ndarray] = []
        for vals in values:
            pair = vals if rng.random() < 0.5 else (vals[1], vals[0])
            for _ in range(TRIES):
                c = cam.origin + rng.uniform(-0.55, 0.55, 2) * np.array([w_out, h_out])
                t = PlacedTile(pair, (float(c[0]), float(c[1])), float(rng.uniform(0, 2 * math.pi)), width, ratio,
                               "up", "enrol", style=style)
                poly = t.corners()
                if any(polygons_overlap(poly, p, -MIN_GAP * width) for p in polys):
                    continue
                img = cam.project(poly)
                if not np.isfinite(img).all() or img.min(axis=0).min() < margin:
                    continue
                if img[:, 0].max() > w_out - margin or img[:, 1].max() > h_out - margin:
                    continue
                placed.append(t)
                polys.append(poly)
                break
            else:
                break
        if len(placed) == len(values):
            return placed
        length *= 0.9
    raise RuntimeError(f"could not lay {len(values)} tiles apart in a {w_out}x{h_out} frame")
