"""One rendered still: pick a scene kind, lay tiles and clutter on a table, photograph it, and
return the image with exact labels (every coordinate goes through the same camera as the pixels)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.synth import boards, clutter, layouts
from vision.synth.backgrounds import random_surface
from vision.synth.camera import Camera, apply_light, make_camera, motion_kernel, random_light
from vision.synth.looks import Look, random_variant
from vision.synth.play import SEATS, engine_deal, random_deal
from vision.synth.polygons import polygons_overlap
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face, draw_side, face_polygon

KINDS = {"chain": 0.4, "board": 0.25, "dense": 0.15, "recount": 0.2}
CLASS_IDS = {"up": 0, "down": 1}


@dataclass
class Render:
    image: np.ndarray  # BGR uint8, before JPEG
    tiles: list[PlacedTile]
    corners: list[np.ndarray]  # per tile, output pixels
    halves: list[np.ndarray]
    in_frame: list[float]
    visible: list[float]
    labelled: list[bool]
    seats: dict
    kind: str
    jpeg_quality: int
    blur: str = "none"

    def yolo_lines(self) -> list[str]:
        w, h = self.image.shape[1], self.image.shape[0]
        lines = []
        for t, c, ok in zip(self.tiles, self.corners, self.labelled, strict=True):
            if not ok:
                continue
            xy = np.clip(c / np.array([w, h]), 0.0, 1.0)
            lines.append(f"{CLASS_IDS[t.face]} " + " ".join(f"{v:.6f}" for v in xy.ravel()))
        return lines

    def truth(self, name: str) -> dict:
        out = []
        for i, t in enumerate(self.tiles):
            hidden = t.face == "down"
            out.append({
                "values": None if hidden or t.values is None else list(t.values),
                "halves": [[round(float(x), 2) for x in p] for p in self.halves[i]],
                "corners": [[round(float(x), 2) for x in p] for p in self.corners[i]],
                "face": t.face,
                "parent": t.parent,
                "joint": t.joint,
                "owner": t.owner,
                # extensions
                "hidden_values": list(t.values) if hidden and t.values is not None else None,
                "seat": t.extra.get("seat"),
                "in_frame": round(self.in_frame[i], 3),
                "visible": round(self.visible[i], 3),
                "labelled": bool(self.labelled[i]),
                "plain_style": bool(t.style.plain),
                "glare": bool(t.extra.get("glare", False)),
                "standing": bool(t.extra.get("standing", False)),
                "length_px": round(float(np.linalg.norm(self.corners[i][1] - self.corners[i][0])), 1),
            })
        w, h = self.image.shape[1], self.image.shape[0]
        return {"image": name, "size": [w, h], "kind": self.kind, "tiles": out, "seats": self.seats,
                "jpeg_quality": self.jpeg_quality, "blur": self.blur}


def tile_length_range(size: tuple[int, int]) -> tuple[float, float]:
    """Tile long side in output pixels: ~20 px up to ~0.23 of the short side (150 px at 640)."""
    short = min(size)
    return 20.0, min(400.0, 0.235 * short)


def _pick(rng, table: dict) -> str:
    names = list(table)
    p = np.array([table[n] for n in names], dtype=np.float64)
    return str(rng.choice(names, p=p / p.sum()))


def _style_picker(rng, n_styles: int, style_kind: str | None = None, restyle=None):
    styles = [random_style(rng, style_kind) for _ in range(n_styles)]
    if restyle is not None:
        styles = [restyle(st) for st in styles]
    if n_styles == 1:
        return lambda i: styles[0]
    picks = {}

    def pick(i):
        if i not in picks:
            picks[i] = styles[int(rng.integers(n_styles))]
        return picks[i]
    return pick


def frame_fraction(poly: np.ndarray, w: int, h: int) -> float:
    """Share of a projected tile inside the frame; 0 for a tile the lens does not image."""
    if not np.isfinite(poly).all():
        return 0.0
    p32 = poly.astype(np.float32)
    area = abs(cv2.contourArea(p32))
    if area <= 1e-6 or not cv2.isContourConvex(p32.reshape(-1, 1, 2)):
        return 0.0
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inter, _ = cv2.intersectConvexConvex(p32, frame)
    return min(1.0, float(inter) / area)


def _hands(rng, deal, center, reach: float, w: float, ratio: float, style, face: str, seats,
           placed: list[PlacedTile]) -> list[PlacedTile]:
    """A row per seat in front of it; a row is pushed back toward its seat until it overlaps
    nothing already on the table (labels must never describe a tile hidden under another)."""
    out: list[PlacedTile] = []
    polys = [t.corners() for t in placed]
    gap = float(rng.uniform(0.0, 0.3)) * w if rng.random() < 0.6 else 0.0
    for seat in seats:
        vals = deal.hands.get(seat, [])
        if not vals:
            continue
        k = SEATS.index(seat)
        # south at the bottom (+y), then clockwise: west (left), north (top), east (right)
        normal = [np.array([0, 1.0]), np.array([-1.0, 0]), np.array([0, -1.0]), np.array([1.0, 0])][k]
        along = np.array([-normal[1], normal[0]])
        row_len = len(vals) * (w + gap)
        start = np.asarray(center) + normal * reach * float(rng.uniform(0.9, 1.1)) - along * row_len / 2
        start = start + along * float(rng.normal(0, w))
        direction = math.atan2(along[1], along[0]) + float(rng.normal(0, 0.05))
        for _ in range(40):
            row = layouts.row_of_tiles(list(vals), start, direction, w, ratio, face, seat, style, rng, gap)
            rp = [t.corners() for t in row]
            if not any(polygons_overlap(a, b, 0.02 * w) for a in rp for b in polys):
                break
            start = start + normal * 0.25 * w * ratio
        else:
            continue
        for t in row:
            t.extra["seat"] = seat
        out += row
        polys += rp
    if face == "down" and rng.random() < 0.3:
        out = [_standing(t) for t in out]
    return out


def _standing(t: PlacedTile) -> PlacedTile:
    """A tile standing on its long edge, as players hold hands during play: from above only the
    edge shows. Never labelled (neither face is visible), kept in the truth as `standing`."""
    s = t.style
    thick = s.thickness * t.width
    edge = replace(s, back=s.side, back_pattern="plain", thickness=t.width / thick, corner=0.1)
    st = PlacedTile(t.values, t.center, t.angle, thick, t.length / thick, "down", t.owner, style=edge)
    st.extra = {**t.extra, "standing": True}
    return st


def _build_tiles(rng, kind: str, canvas: np.ndarray, cam: Camera, w: float, ratio: float,
                 style_kind: str | None = None, restyle=None, gap: float | None = None) -> tuple[list[PlacedTile], dict]:
    """Place the real tiles (and the printed board under them) in canvas coordinates."""
    out_w, out_h = cam.size
    center = cam.origin.copy() + rng.normal(0, 0.05, 2) * np.array([out_w, out_h])
    style_of = _style_picker(rng, 1 if rng.random() < 0.85 else 2, style_kind, restyle)
    seats_info: dict = {}
    if kind == "board":
        grid = boards.game_board(canvas, rng, center, w / float(rng.uniform(0.93, 0.99)))
        roll = rng.random()
        if roll < 0.4:  # a real deal's chain laid on the grid, doubles crosswise
            deal = engine_deal(rng) or random_deal(rng)
            half = (grid.cols * grid.cell / 2, grid.rows * grid.cell / 2)
            tiles = layouts.layout_chain(deal, rng, grid.cell * 0.97, 2 / 0.97 * 0.985, half, style_of, gap=0.03 * grid.cell)
            layouts.transform_tiles(tiles, float(rng.choice([0, math.pi / 2])), (grid.origin[0] + half[0], grid.origin[1] + half[1]), 0.01, rng)
        else:  # a path or a blob of touching tiles cell by cell
            n = int(rng.integers(3, 45))
            tiles = layouts.dense_grid(rng, n, grid.cell, grid.origin, grid.cols, grid.rows, ratio, style_of, path=roll < 0.8)
        return tiles, seats_info
    if kind == "dense":
        tiles = []
        base = float(rng.uniform(0, math.pi))
        style = style_of(0)
        polys = []
        for _ in range(int(rng.integers(1, 5))):
            n = int(rng.integers(2, 9))
            start = center + rng.normal(0, 0.25, 2) * np.array([out_w, out_h])
            vals = [(int(rng.integers(7)), int(rng.integers(7))) for _ in range(n)]
            face = "up" if rng.random() < 0.8 else "down"
            lengthwise = rng.random() < 0.3
            row = layouts.row_of_tiles(vals, start, base + float(rng.choice([0, math.pi / 2])), w, ratio, face, "layout",
                                       style, rng, float(rng.uniform(0, 0.04)) * w, lengthwise=lengthwise)
            if rng.random() < 0.5:  # a second row touching the first: end to end, or side by side
                u = np.array([math.cos(row[0].angle), math.sin(row[0].angle)])
                step = np.array([-u[1], u[0]]) * w if lengthwise else u * row[0].length
                row2 = [PlacedTile((int(rng.integers(7)), int(rng.integers(7))), tuple(np.asarray(t.center) + step),
                                   t.angle, w, ratio, face, "layout", style=style) for t in row]
                # the step can land a second row on the first (rows of mixed angles): never stack tiles
                first = [t.corners() for t in row]
                row = row + [t for t in row2 if not any(polygons_overlap(t.corners(), p, 0.05 * w) for p in first)]
            rp = [t.corners() for t in row]
            if any(polygons_overlap(a, b, 0.05 * w) for a in rp for b in polys):
                continue
            polys += rp
            tiles += row
        return tiles, seats_info
    # chain / recount: a real deal laid out, hands in front of the seats
    deal = engine_deal(rng) if rng.random() < 0.9 else None
    if deal is None:  # the small dealer when the engine is not there (or for extra variety)
        deal = random_deal(rng, n_players=int(rng.choice([2, 3, 4, 4, 4])), spinner=rng.random() < 0.3,
                           closed_doubles=rng.random() < 0.3,
                           max_moves=None if rng.random() < 0.5 else int(rng.integers(1, 29)))
    short = min(out_w, out_h)
    # a smaller free area makes the chain bend more often, as on a crowded table
    fw = float(rng.uniform(0.4, 1.1))
    half = (0.36 * out_w * fw * float(rng.uniform(0.8, 1.2)), 0.33 * out_h * fw * float(rng.uniform(0.8, 1.2)))
    if kind == "recount":
        half = (half[0] * 0.75, half[1] * 0.75)
    tiles = layouts.layout_chain(deal, rng, w, ratio, half, style_of, gap_override=gap)
    layouts.transform_tiles(tiles, float(rng.normal(0, 0.04)), center, 0.015, rng)
    seat_names = [s for s in SEATS if s in deal.hands]
    reach = max(half) + 1.2 * w * ratio
    if kind == "recount":
        tiles += _hands(rng, deal, center, min(reach, 0.46 * short), w, ratio, style_of(0), "up", seat_names, tiles)
    elif rng.random() < 0.6:
        tiles += _hands(rng, deal, center, reach, w, ratio, style_of(0), "down", seat_names, tiles)
    if deal.boneyard and rng.random() < 0.8:
        corner = center + np.array([rng.choice([-1, 1]) * 0.38 * out_w, rng.choice([-1, 1]) * 0.36 * out_h])
        box = (corner[0] - 0.12 * out_w, corner[1] - 0.12 * out_h, corner[0] + 0.12 * out_w, corner[1] + 0.12 * out_h)
        tiles += layouts.scatter(list(deal.boneyard), rng, box, w, ratio, "down", "boneyard", style_of(0),
                                 [t.corners() for t in tiles])
    for s in seat_names:
        seats_info[s] = {"tiles": [i for i, t in enumerate(tiles) if t.owner == s]}
    return tiles, seats_info


def render_scene(rng: np.random.Generator, size: tuple[int, int], kind: str | None = None,
                 length: float | None = None, surface: str | None = None, max_tilt_deg: float = 30.0,
                 style_kind: str | None = None, look: Look | None = None,
                 variant_rng: np.random.Generator | None = None) -> Render:
    """Render one still. `kind`, `length` (tile long side, output px), `surface` and `style_kind`
    (see `styles.random_style`) pin a choice; everything else is drawn from `rng`. A `look`
    (`vision.synth.looks`) pins the set's make and the photograph's conditions without changing
    where the tiles lie; `variant_rng` draws the set's make at random (`looks.random_variant`)."""
    kind = kind or _pick(rng, KINDS)
    if look is not None:
        max_tilt_deg = look.max_tilt_deg
        surface = look.surface or surface
        length = look.length_px or length
    cam = make_camera(rng, size, max_tilt_deg=max_tilt_deg)
    cw, ch = cam.canvas_size
    if look is not None:  # every look's table from a side stream of one draw: the tiles lie alike
        canvas, surface = random_surface(np.random.default_rng(int(rng.integers(2**31))), ch, cw, surface)
    else:
        canvas, surface = random_surface(rng, ch, cw, surface)
    lo, hi = tile_length_range(size)
    drawn = float(np.exp(rng.uniform(math.log(lo), math.log(hi))))
    length = drawn if length is None else length
    ratio = float(rng.uniform(1.93, 2.07))
    w = length / ratio
    restyle = look.style if look is not None else None
    if variant_rng is not None:
        inner = restyle

        def restyle(st, inner=inner):
            return random_variant(inner(st) if inner else st, variant_rng)
    tiles, seats = _build_tiles(rng, kind, canvas, cam, w, ratio, style_kind, restyle,
                                look.gap if look is not None else None)
    tile_polys = [t.corners() for t in tiles]
    out_w, out_h = size
    # printed dominoes on boxes and posters: never labelled
    if rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 3))):
            c = cam.origin + rng.uniform(-0.5, 0.5, 2) * np.array([out_w, out_h])
            boards.domino_box(canvas, rng, c, float(rng.uniform(4, 12)) * w * ratio)
    # shadows: one light for the scene
    light = np.array([math.cos(a := float(rng.uniform(0, 2 * math.pi))), math.sin(a)]) * float(rng.uniform(0.3, 1.5))
    shadow = clutter.ShadowLayer(np.zeros((ch // 4 + 1, cw // 4 + 1), np.uint8), 4, light)
    placed_clutter = []
    for _ in range(int(rng.integers(0, 7))):
        name = str(rng.choice(list(clutter.OBJECTS)))
        size_obj = w * ratio * float(rng.uniform(0.6, 2.0))
        c = cam.origin + rng.uniform(-0.55, 0.55, 2) * np.array([out_w, out_h])
        probe = np.array([c + (-size_obj * 1.6, -size_obj * 1.6), c + (size_obj * 1.6, -size_obj * 1.6),
                          c + (size_obj * 1.6, size_obj * 1.6), c + (-size_obj * 1.6, size_obj * 1.6)])
        if any(polygons_overlap(probe, p) for p in tile_polys):
            continue
        placed_clutter.append((name, c, size_obj, float(rng.uniform(0, math.pi))))
    strength = float(rng.uniform(0.25, 0.6))
    # clutter drawn on a copy first to learn its outline, its shadow added before it is drawn
    clutter_polys = []
    for name, c, s, ang in placed_clutter:
        scratch = np.zeros((1, 1, 3), np.uint8)
        poly, height = clutter.OBJECTS[name](scratch, np.random.default_rng(0), c, s, ang)
        clutter_polys.append((name, c, s, ang, height))
        shadow.add(poly, height * s)
    for t in tiles:
        shadow.add(face_polygon(t), t.style.thickness * t.width)
    apply_shadow(canvas, shadow, w, strength)
    for name, c, s, ang, _ in clutter_polys:
        clutter.OBJECTS[name](canvas, rng, c, s, ang)
    draw_tiles(canvas, tiles, cam, rng)
    # arms reaching in from a seat, covering tiles
    occl = np.zeros((ch // 4 + 1, cw // 4 + 1), np.uint8)
    n_arms = int(rng.choice([0, 0, 0, 1, 1, 2]))
    if n_arms:
        arm_shadow = clutter.ShadowLayer(np.zeros_like(shadow.mask), 4, light)
        arms = []
        for _ in range(n_arms):
            edge = int(rng.integers(4))
            far = 0.75 * max(out_w, out_h)
            start = cam.origin + [np.array([0, far]), np.array([-far, 0]), np.array([0, -far]), np.array([far, 0])][edge]
            target = (np.asarray(tiles[int(rng.integers(len(tiles)))].center) if tiles and rng.random() < 0.7
                      else cam.origin + rng.uniform(-0.3, 0.3, 2) * np.array([out_w, out_h]))
            arms.append((start + rng.normal(0, 0.2, 2) * out_w, target))
        arm_parts = []
        for s0, e0 in arms:
            arm_parts.append(clutter.arm(np.zeros((1, 1, 3), np.uint8), np.random.default_rng(1), s0, e0, w * ratio / 2, arm_shadow))
        apply_shadow(canvas, arm_shadow, w * 3, strength * 0.8)
        for s0, e0 in arms:
            parts = clutter.arm(canvas, rng, s0, e0, w * ratio / 2, None)
            for p in parts:
                cv2.fillPoly(occl, [np.round(p / 4).astype(np.int32)], 255)
    img = cam.render(canvas)
    lighting = random_light(rng, size)
    if look is not None:
        lighting = _looked(lighting, look)
    img = apply_light(img, lighting, rng)
    corners, halves, in_frame, visible, labelled = [], [], [], [], []
    for t in tiles:
        c = cam.project(t.corners())
        corners.append(c)
        halves.append(cam.project(t.halves()))
        f = frame_fraction(c, out_w, out_h)
        in_frame.append(f)
        vis = 1.0
        if n_arms:
            m = np.zeros_like(occl)
            cv2.fillPoly(m, [np.round(t.corners() / 4).astype(np.int32)], 255)
            area = max(1, int(np.count_nonzero(m)))
            vis = 1.0 - np.count_nonzero(m & occl) / area
        visible.append(float(vis))
        side = float(np.linalg.norm(c[1] - c[0]))
        labelled.append(f >= 0.6 and vis >= 0.45 and side >= 6.0 and not t.extra.get("standing"))
    # tiles the lens does not image at all (beyond the fold of a strong barrel) leave the truth
    keep = [i for i in range(len(tiles)) if np.isfinite(corners[i]).all() and np.isfinite(halves[i]).all()]
    if len(keep) < len(tiles):
        new_index = {old: new for new, old in enumerate(keep)}
        for i in keep:
            p = tiles[i].parent
            tiles[i].parent = new_index.get(p) if p is not None else None
            if p is not None and tiles[i].parent is None:
                tiles[i].joint = None
        tiles, corners, halves = [tiles[i] for i in keep], [corners[i] for i in keep], [halves[i] for i in keep]
        in_frame, visible, labelled = [in_frame[i] for i in keep], [visible[i] for i in keep], [labelled[i] for i in keep]
        for info in seats.values():
            info["tiles"] = [new_index[i] for i in info["tiles"] if i in new_index]
    for info in seats.values():
        info["tiles"] = [i for i in info["tiles"] if in_frame[i] > 0]
    q = int(rng.integers(50, 96))
    if look is not None and look.jpeg is not None:
        q = look.jpeg
    return Render(img, tiles, corners, halves, in_frame, visible, labelled, seats, f"{kind}/{surface}", q, lighting.blur)


def _looked(light, look: Look):
    """The scene's light as the look has it: blur, sensor noise, a warm cast."""
    out = replace(light)
    if look.blur is not None:
        out.blur = look.blur
        out.blur_sigma = look.blur_sigma
        if look.blur == "motion" and out.kernel is None:
            out.kernel = motion_kernel(6, 30.0)
    if look.noise is not None:
        out.sigma = look.noise
    if look.warm:
        out.gain = light.gain * np.array([1 - look.warm, 1.0, 1 + 0.6 * look.warm], np.float32)
    return out


def draw_tiles(canvas: np.ndarray, tiles: list[PlacedTile], cam: Camera, rng: np.random.Generator | None,
               shadow: clutter.ShadowLayer | None = None, strength: float = 0.0) -> None:
    """Cast shadows (when `shadow` is given), then every tile's visible side, then the faces.
    The side is where the base shows past the top face: toward the point below the camera.
    `rng` None draws no glare (video frames must not flicker)."""
    if shadow is not None:
        for t in tiles:
            shadow.add(face_polygon(t), t.style.thickness * t.width)
        apply_shadow(canvas, shadow, min((t.width for t in tiles), default=10.0), strength)
    for t in tiles:
        thick = t.style.thickness * t.width
        base_off = (cam.nadir - np.asarray(t.center)) * thick / cam.height
        draw_side(canvas, t, base_off)
    for t in tiles:
        draw_face(canvas, t)
        if rng is not None and t.style.gloss > 0.6 and rng.random() < 0.5:
            _glare(canvas, t, rng)
            t.extra["glare"] = True


def apply_shadow(canvas: np.ndarray, layer: clutter.ShadowLayer, blur_px: float, strength: float) -> None:
    """Darken the canvas under the blurred shadow mask (only inside the mask's bounding box)."""
    sigma = max(0.8, blur_px * 0.25 / layer.factor)
    m = cv2.GaussianBlur(layer.mask, (0, 0), sigma)
    ys, xs = np.nonzero(m > 2)
    if len(xs) == 0:
        return
    f = layer.factor
    sx0, sx1 = max(0, xs.min() - 1), min(m.shape[1], xs.max() + 2)
    sy0, sy1 = max(0, ys.min() - 1), min(m.shape[0], ys.max() + 2)
    part = m[sy0:sy1, sx0:sx1]
    # pixel centres: small (i) sits at full f*i + (f-1)/2; resize keeps that when cropped on cells
    full = cv2.resize(part, (part.shape[1] * f, part.shape[0] * f), interpolation=cv2.INTER_LINEAR)
    x0, y0 = sx0 * f, sy0 * f
    x1, y1 = min(canvas.shape[1], x0 + full.shape[1]), min(canvas.shape[0], y0 + full.shape[0])
    full = full[: y1 - y0, : x1 - x0]
    keep = (255 - (full.astype(np.uint16) * int(strength * 256) >> 8)).astype(np.uint8)
    roi = canvas[y0:y1, x0:x1]
    cv2.multiply(roi, cv2.cvtColor(keep, cv2.COLOR_GRAY2BGR), dst=roi, scale=1 / 255)


def _glare(canvas: np.ndarray, t: PlacedTile, rng) -> None:
    """A soft specular highlight on a glossy face."""
    x, y = t.center
    r = int(t.length * 0.6) + 2
    x0, y0 = int(x) - r, int(y) - r
    if x0 < 0 or y0 < 0 or x0 + 2 * r >= canvas.shape[1] or y0 + 2 * r >= canvas.shape[0]:
        return
    roi = canvas[y0:y0 + 2 * r, x0:x0 + 2 * r]
    overlay = np.zeros(roi.shape[:2], np.uint8)
    local = face_polygon(t) - np.array([x0, y0])
    face_mask = np.zeros_like(overlay)
    cv2.fillPoly(face_mask, [np.round(local).astype(np.int32)], 255)
    off = rng.uniform(-0.3, 0.3, 2) * t.length
    cv2.ellipse(overlay, (r + int(off[0]), r + int(off[1])), (max(1, int(t.width * 0.35)), max(1, int(t.width * 0.15))),
                float(rng.uniform(0, 180)), 0, 360, 255, -1)
    overlay = cv2.GaussianBlur(overlay, (0, 0), max(0.8, t.width * 0.12)) & face_mask
    amount = (overlay.astype(np.float32) / 255.0 * float(rng.uniform(0.3, 0.9)))[..., None]
    roi[:] = np.clip(roi * (1 - amount) + 255 * amount, 0, 255).astype(np.uint8)
