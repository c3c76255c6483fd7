"""Whole-deal videos: the engine plays a random legal deal, and every move is filmed as it happens
at a table: an arm reaches in from the player's seat, lays the tile, and withdraws.

Per video folder (CONTRACTS.md "Rendered data"): `frames/NNNNNN.jpg`, `NAME.mp4` (mp4v),
`record.jsonl` (the true game record, engine JSON Lines), `moves.json` (for every event, the frame
at which it becomes visible and the seat it came from) and `truth/NNNNNN.json` (per frame, the
still-image truth format: every tile on the table, parents as indices into that frame's list,
plus how much of each tile is visible).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from engine.game import apply, new_game
from engine.record import dumps_event
from engine.rules import VARIANTS, ruleset
from engine.simulate import random_game
from engine.tiles import Tile
from vision.synth import clutter, layouts
from vision.synth.backgrounds import random_surface
from vision.synth.camera import Camera, apply_light, encode_jpeg, make_camera, random_light
from vision.synth.play import SEATS, Deal, deal_from_events, seat_names
from vision.synth.polygons import polygons_overlap
from vision.synth.scene import apply_shadow, draw_tiles, frame_fraction
from vision.synth.styles import _jitter, random_style
from vision.synth.tiles import PlacedTile

log = logging.getLogger(__name__)

# unit vector from the table centre toward each seat (south at the bottom of the picture)
SEAT_DIR = {"south": np.array([0.0, 1.0]), "west": np.array([-1.0, 0.0]),
            "north": np.array([0.0, -1.0]), "east": np.array([1.0, 0.0])}


@dataclass
class Frame:
    present: list[int]  # indices into the video's tile objects
    arm: tuple[np.ndarray, np.ndarray, str, int] | None = None  # start, fingertips, seat, shape seed
    shake: tuple[float, float, float] = (0.0, 0.0, 0.0)  # dx, dy (px), rotation (rad)
    flicker: float = 1.0


@dataclass
class Timeline:
    frames: list[Frame] = field(default_factory=list)
    moves: list[dict] = field(default_factory=list)
    spectators: list[dict] = field(default_factory=list)  # hands that passed over, laying nothing


def _game_events(rng: np.random.Generator, variant: str | None) -> list[dict]:
    variant = variant or str(rng.choice(list(VARIANTS)))
    allowed = [p for p in ruleset(variant).players if p <= 4] or list(ruleset(variant).players)[:1]
    players = int(rng.choice(allowed))
    events = random_game(variant, seed=int(rng.integers(2**31)), players=players, deals=1)
    return events


def _most_held(hands: dict[str, list[str]], events: list[dict]) -> int:
    """The most tiles any player holds at once during the deal."""
    held = {p: len(h) for p, h in hands.items()}
    most = max(held.values(), default=0)
    for e in events:
        if e["event"] in ("draw", "play") and e.get("player") in held:
            held[e["player"]] += 1 if e["event"] == "draw" else -1
            most = max(most, held[e["player"]])
    return most


def _full_deal(events: list[dict]) -> Deal:
    return deal_from_events(events, apply, new_game)


def _fit_layout(deal: Deal, rng: np.random.Generator, size: tuple[int, int], style) -> tuple[list[PlacedTile], float, float]:
    """The final layout at the largest tile size where every move finds a place."""
    w_out, h_out = size
    ratio = float(rng.uniform(1.95, 2.05))
    half = (0.32 * w_out, 0.26 * h_out)
    length = 0.085 * min(w_out, h_out) * 1.25
    seed = int(rng.integers(2**31))
    for _ in range(30):
        for attempt in range(8):  # another way of bending may fit where this one did not
            tiles = layouts.layout_chain(deal, np.random.default_rng([seed, attempt]), length / ratio, ratio, half,
                                         lambda i: style)
            if len(tiles) == len(deal.moves):
                return tiles, length / ratio, ratio
        length *= 0.93
    raise RuntimeError("could not lay this deal out on the table; try another seed")


class _Scene:
    """Everything that stays put during a video, and the tile objects that come and go."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int], events: list[dict],
                 look=None, turn_deg: float = 0.0, framed: bool = False):
        self.size = size
        self.events = events
        # framed: every hand and pile tile in the picture all deal, the pile clear of the rows
        # (see render_video); else the table as the turned camera happens to cut it
        self.framed = framed
        players = events[0]["players"]
        self.seat_of = dict(zip(players, seat_names(len(players)), strict=True))
        yaw = float(rng.normal(0, 0.03)) + math.radians(turn_deg)  # the camera turned on its mount
        self.cam: Camera = make_camera(rng, size, max_tilt_deg=12.0, yaw=yaw, distortion=float(rng.uniform(-0.05, 0.05)))
        cw, ch = self.cam.canvas_size
        self.base, self.surface = random_surface(rng, ch, cw, str(rng.choice(["felt", "wood", "wood", "cloth", "plain"])))
        self.style = random_style(rng, str(rng.choice(["white", "white", "ivory", "cream", "black", "valuecolor"])))
        if look is not None:  # the set's make (vision/synth/looks.py), after the draw: same stream
            self.style = look.style(self.style)
        deal = _full_deal(events)
        layout, self.w, self.ratio = _fit_layout(deal, rng, size, self.style)
        self.center = self.cam.origin.copy()
        layouts.transform_tiles(layout, 0.0, self.center, 0.01, rng)
        self.tiles: list[PlacedTile] = []
        self.layout_index: dict[tuple[int, int], int] = {}
        for t in layout:
            self.layout_index[tuple(sorted(t.values))] = len(self.tiles)
            self.tiles.append(t)
        self.parent_obj = {i: t.parent for i, t in enumerate(layout) if t.parent is not None}
        self.slots: dict[str, list[int]] = {}  # seat -> tile objects in its row, in the order laid there
        self.slot_of: dict[int, int] = {}  # hand tile object -> its slot in its row
        self.row_fit: dict[str, tuple[float, float, float]] = {}  # seat -> its row's reach, pitch, shift
        self._view: np.ndarray | None = None  # see in_view
        self.hand_index: dict[tuple[tuple[int, int], str], int] = {}
        deal_event = next(e for e in events if e["event"] == "deal")
        self.light_dir = np.array([math.cos(a := float(rng.uniform(0, 2 * math.pi))), math.sin(a)]) * float(rng.uniform(0.3, 1.2))
        self.shadow_strength = float(rng.uniform(0.25, 0.5))
        self.skin = {s: _jitter(rng, clutter.SKIN[int(rng.integers(len(clutter.SKIN)))], 10) for s in SEATS}
        self._rows(deal_event, rng)
        self._boneyard(deal_event, rng)
        self.light = random_light(rng, size, strength=0.6)
        self.light.blur = "none"
        self._clutter(rng)

    def _row_slot(self, seat: str, k: int, n: int,
                  geometry: tuple[float, float, float] | None = None) -> tuple[np.ndarray, float]:
        """Slot `k` of `n` in a seat's row: its centre and angle (`geometry`: the row's reach,
        pitch and shift, else the row's own, see `_fit_row`)."""
        d = SEAT_DIR[seat]
        along = np.array([-d[1], d[0]])
        reach, pitch, shift = geometry or self.row_fit.get(seat) or self._row_geometry(seat)
        c = self.center + d * reach + along * ((k - (n - 1) / 2) * pitch + shift)
        return c, math.atan2(d[1], d[0])

    def _slot_outline(self, seat: str, k: int, n: int,
                      geometry: tuple[float, float, float] | None = None) -> np.ndarray:
        """The corners of a tile lying in slot `k` of `n` of a seat's row."""
        c, ang = self._row_slot(seat, k, n, geometry)
        return PlacedTile((0, 0), (float(c[0]), float(c[1])), ang, self.w, self.ratio, "down", seat,
                          style=self.style).corners()

    def _row_geometry(self, seat: str, reach_scale: float = 1.0, pitch_scale: float = 1.0,
                      shift: float = 0.0) -> tuple[float, float, float]:
        """A seat's row: its distance from the centre, the step between slots, its shift along."""
        w_out, h_out = self.size
        reach = (0.44 * h_out if seat in ("south", "north") else 0.44 * w_out) - 0.5 * self.w * self.ratio
        return reach * reach_scale, self.w * 1.12 * pitch_scale, shift

    def in_view(self, poly: np.ndarray) -> bool:
        """Whether a table-plane polygon's corners lie inside the picture (4 px in)."""
        if self._view is None:
            # the canvas, 4 px a cell, marked where the camera sees it
            w_out, h_out = self.size
            cw, ch = self.cam.canvas_size
            gx, gy = np.meshgrid(np.arange(0, cw, 4.0), np.arange(0, ch, 4.0))
            p = self.cam.project(np.stack([gx.ravel(), gy.ravel()], axis=1))
            seen = (p[:, 0] >= 4) & (p[:, 0] <= w_out - 4) & (p[:, 1] >= 4) & (p[:, 1] <= h_out - 4)
            self._view = seen.reshape(gx.shape)
        cells = np.floor(np.asarray(poly) / 4.0).astype(int)
        rows, cols = self._view.shape
        return all(0 <= y < rows and 0 <= x < cols and self._view[y, x] and self._view[min(y + 1, rows - 1), min(x + 1, cols - 1)]
                   for x, y in cells)

    def _fit_row(self, seat: str, n: int, layout: list[PlacedTile]) -> None:
        """Every slot of a seat's row in the picture and clear of the layout: the row as drawn
        when it fits; else shifted along, its tiles closer, or nearer the centre (a camera turned
        on its mount cuts the table's corners: fresh16 h359, a hand's tiles off the picture all
        deal, never seen)."""
        chain = [t.corners() for t in layout]

        def fits(geometry) -> bool:
            return all(self.in_view(poly) and not any(polygons_overlap(poly, q) for q in chain)
                       for poly in (self._slot_outline(seat, k, n, geometry) for k in range(n)))

        pitch = self.w * 1.12
        for reach_scale in (1.0, 0.97, 0.94, 0.91, 0.88):
            for pitch_scale in (1.0, 0.96, 0.92):
                for step in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8, -8):
                    geometry = self._row_geometry(seat, reach_scale, pitch_scale, 0.5 * step * pitch)
                    if fits(geometry):
                        self.row_fit[seat] = geometry
                        return
        self.row_fit[seat] = self._row_geometry(seat)
        log.warning("the %s row does not fit the picture: some of its tiles lie outside", seat)

    def _empty_slots(self) -> list[np.ndarray]:
        """The outlines of the rows' slots no tile holds yet."""
        return [self._slot_outline(seat, k, self.n_slots)
                for seat, objs in self.slots.items() for k in range(len(objs), self.n_slots)]

    def _rows(self, deal_event: dict, rng) -> None:
        hands = deal_event.get("hands") or {}
        # room for the tiles a player may draw later; a hand that draws more than that puts the
        # rest where its played tiles lay (fresh16 h359: ten draws ran off the picture)
        n_slots = max([len(h) for h in hands.values()] + [7]) + 3
        if self.framed:
            n_slots = max(n_slots, _most_held(hands, self.events))
        for player, tiles in hands.items():
            seat = self.seat_of[player]
            if self.framed:
                self._fit_row(seat, n_slots, [self.tiles[i] for i in self.layout_index.values()])
            self.slots[seat] = []
            for k, text in enumerate(tiles):
                t = Tile.parse(text)
                self._add_hand_tile(seat, (t.a, t.b), k, n_slots)
        self.n_slots = n_slots

    def _add_hand_tile(self, seat: str, values: tuple[int, int], k: int, n: int) -> int:
        c, ang = self._row_slot(seat, k, n)
        t = PlacedTile(values, (float(c[0]), float(c[1])), ang, self.w, self.ratio, "down", seat, style=self.style)
        t.extra["seat"] = seat
        idx = len(self.tiles)
        self.tiles.append(t)
        self.slots[seat].append(idx)
        self.hand_index[(values, seat)] = idx
        self.slot_of[idx] = k
        return idx

    def draw_slot(self, seat: str, present: set[int]) -> int:
        """The row slot of a tile `seat` draws now: the next one, or once the row's slots are
        used, the free one (its tile played) nearest the row's end."""
        laid = len(self.slots[seat])
        if laid < self.n_slots or not self.framed:
            return laid
        taken = {self.slot_of[i] for i in self.slots[seat] if i in present}
        free = [k for k in range(self.n_slots) if k not in taken]
        return max(free) if free else laid

    def _boneyard(self, deal_event: dict, rng) -> None:
        self.bone_index: dict[tuple[int, int], int] = {}
        bones = [Tile.parse(x) for x in deal_event.get("boneyard") or []]
        if not bones:
            return
        w_out, h_out = self.size
        # the rows' empty slots too: a drawn tile goes there, and a player keeps his row apart
        # from the pile (fresh17 h366: Boris's drawn 0-0 put in his row against the pile was
        # taken for a pile tile, and playing it for a draw)
        avoid = [t.corners() for t in self.tiles] + (self._empty_slots() if self.framed else [])
        # a free corner of the table, then of the picture (a turned camera cuts the table's
        # corners); the pile spreads wider until every tile finds room, each in the picture
        # (fresh16 h350: a draw from a pile tile the frame cut off, no arm seen)
        image = np.array([0.5 * w_out, 0.5 * h_out])
        corners = ((1, -1), (-1, -1), (1, 1), (-1, 1))
        sides = ((1, 0), (-1, 0), (0, -1), (0, 1))  # in the picture, free where nobody sits there
        spreads = [(False, g, corners) for g in (1.0, 1.3, 1.6, 2.0)]
        if self.framed:
            spreads += [(True, g, corners + sides) for g in (1.0, 1.3, 1.6, 2.0, 2.5)]
        for of_picture, grow, offsets in spreads:
            for sx, sy in offsets:
                offset = np.array([sx * 0.36 * w_out, sy * 0.33 * h_out])
                corner = self.cam.unproject([image + offset])[0] if of_picture else self.center + offset
                hw, hh = 0.1 * w_out * grow, 0.11 * h_out * grow
                box = (corner[0] - hw, corner[1] - hh, corner[0] + hw, corner[1] + hh)
                pile = layouts.scatter([(b.a, b.b) for b in bones], np.random.default_rng(int(rng.integers(2**31))), box,
                                       self.w, self.ratio, "down", "boneyard", self.style, avoid, tries=200,
                                       keep=self.in_view if self.framed else None, whole=True)
                if len(pile) == len(bones):
                    for t in pile:
                        self.bone_index[t.values] = len(self.tiles)
                        self.tiles.append(t)
                    return
        raise RuntimeError(f"{len(bones)} boneyard tiles found no room on the table")

    def _clutter(self, rng) -> None:
        cw, ch = self.cam.canvas_size
        shadow = clutter.ShadowLayer(np.zeros((ch // 4 + 1, cw // 4 + 1), np.uint8), 4, self.light_dir)
        polys = [t.corners() for t in self.tiles]
        items = []
        w_out, h_out = self.size
        for _ in range(int(rng.integers(0, 4))):
            name = str(rng.choice(["coin", "cup", "pen", "score_sheet", "card"]))
            s = self.w * self.ratio * float(rng.uniform(0.6, 1.2))
            c = self.center + np.array([rng.choice([-1, 1]) * rng.uniform(0.38, 0.5) * w_out, rng.uniform(-0.45, 0.45) * h_out])
            probe = np.array([c + (-s * 1.6, -s * 1.6), c + (s * 1.6, -s * 1.6), c + (s * 1.6, s * 1.6), c + (-s * 1.6, s * 1.6)])
            if any(polygons_overlap(probe, p) for p in polys):
                continue
            poly, height = clutter.OBJECTS[name](np.zeros((1, 1, 3), np.uint8), np.random.default_rng(0), c, s, 0.3)
            shadow.add(poly, height * s)
            items.append((name, c, s))
        apply_shadow(self.base, shadow, self.w, self.shadow_strength)
        for name, c, s in items:
            clutter.OBJECTS[name](self.base, rng, c, s, 0.3)

    def slots_all(self) -> list[int]:
        return [i for v in self.slots.values() for i in v]

    def arm_start(self, seat: str, target: np.ndarray) -> np.ndarray:
        d = SEAT_DIR[seat]
        w_out, h_out = self.size
        far = 0.8 * (h_out if seat in ("south", "north") else w_out)
        lateral = np.array([-d[1], d[0]])
        off = float(np.dot(target - self.center, lateral))
        return self.center + d * far + lateral * off * 0.6

    def render(self, frame: Frame, rng: np.random.Generator) -> tuple[np.ndarray, list[dict]]:
        canvas = self.base.copy()
        cw, ch = self.cam.canvas_size
        tiles = [self.tiles[i] for i in frame.present]
        shadow = clutter.ShadowLayer(np.zeros((ch // 4 + 1, cw // 4 + 1), np.uint8), 4, self.light_dir)
        draw_tiles(canvas, tiles, self.cam, None, shadow, self.shadow_strength)
        occl = None
        if frame.arm is not None:
            start, tip, seat, shape_seed = frame.arm
            arm_shadow = clutter.ShadowLayer(np.zeros_like(shadow.mask), 4, self.light_dir)
            clutter.arm(np.zeros((1, 1, 3), np.uint8), np.random.default_rng(shape_seed), start, tip, self.w, arm_shadow,
                        skin=self.skin[seat])
            apply_shadow(canvas, arm_shadow, self.w * 3, self.shadow_strength * 0.8)
            parts = clutter.arm(canvas, np.random.default_rng(shape_seed), start, tip, self.w, None, skin=self.skin[seat])
            occl = np.zeros((ch // 4 + 1, cw // 4 + 1), np.uint8)
            for p in parts:
                cv2.fillPoly(occl, [np.round(p / 4).astype(np.int32)], 255)
        dx, dy, rot = frame.shake
        w_out, h_out = self.size
        s = np.array([[math.cos(rot), -math.sin(rot), 0], [math.sin(rot), math.cos(rot), 0], [0, 0, 1]])
        c = np.array([[1, 0, w_out / 2 + dx], [0, 1, h_out / 2 + dy], [0, 0, 1]]) @ s @ np.array([[1, 0, -w_out / 2], [0, 1, -h_out / 2], [0, 0, 1]])
        cam = replace(self.cam, h_plane=c @ self.cam.h_plane)
        img = apply_light(cam.render(canvas), self.light, rng, frame.flicker)
        truth = []
        projected = {i: cam.project(t.corners()) for i, t in zip(frame.present, tiles, strict=True)}
        shown = [i for i in frame.present if np.isfinite(projected[i]).all()]  # imaged by the lens
        pos = {obj: k for k, obj in enumerate(shown)}
        for i in shown:
            t = self.tiles[i]
            corners = projected[i]
            vis = 1.0
            if occl is not None:
                m = np.zeros_like(occl)
                cv2.fillPoly(m, [np.round(t.corners() / 4).astype(np.int32)], 255)
                vis = 1.0 - np.count_nonzero(m & occl) / max(1, int(np.count_nonzero(m)))
            parent = self.parent_obj.get(i)
            truth.append({"values": list(t.values) if t.face == "up" else None,
                          "halves": [[round(float(x), 1) for x in p] for p in cam.project(t.halves())],
                          "corners": [[round(float(x), 1) for x in p] for p in corners],
                          "face": t.face, "parent": pos.get(parent) if parent is not None else None,
                          "joint": t.joint, "owner": t.owner,
                          # extensions
                          "id": i, "hidden_values": list(t.values) if t.face == "down" else None,
                          "seat": t.extra.get("seat"), "visible": round(float(vis), 3),
                          "in_frame": round(frame_fraction(corners, w_out, h_out), 3)})
        return img, truth


def _ease(a: float) -> float:
    return a * a * (3 - 2 * a)


def _plan(scene: _Scene, rng: np.random.Generator, fps: int, spectator_at: int | None = None) -> Timeline:
    """Frames for the whole deal: idle, then per event an arm's reach, hold and withdrawal.
    `spectator_at`: before that play (counted from 0), a hand from the seat across from its player
    passes over the layout and goes, laying nothing, then the table is still a moment."""
    tl = Timeline()
    present = set(scene.slots_all()) | set(scene.bone_index.values())
    reach = max(3, round(0.5 * fps))
    hold = max(2, round(0.3 * fps))
    idle = max(2, round(0.3 * fps))
    t_frame = [0]

    def shake_and_flicker():
        k = t_frame[0]
        t_frame[0] += 1
        bump = 3.0 if rng.random() < 0.03 else 1.0
        return ((float(rng.normal(0, 0.6 * bump)), float(rng.normal(0, 0.6 * bump)), float(rng.normal(0, 0.0015 * bump))),
                float(1 + 0.03 * math.sin(k * 0.7) + rng.normal(0, 0.01) - (0.15 if rng.random() < 0.02 else 0.0)))

    def add(arm=None, n=1):
        for _ in range(n):
            shake, flick = shake_and_flicker()
            tl.frames.append(Frame(sorted(present), arm, shake, flick))

    def reach_in_and_out(seat, target, shape_seed, on_arrive, at_arrive_record):
        start = scene.arm_start(seat, target)
        for k in range(1, reach + 1):
            add((start, start + (target - start) * _ease(k / reach), seat, shape_seed))
        on_arrive()
        at_arrive_record["placed_frame"] = len(tl.frames)
        add((start, target, seat, shape_seed), hold)
        for k in range(reach - 1, -1, -1):
            add((start, start + (target - start) * _ease(k / reach), seat, shape_seed) if k > 0 else None)

    add(None, max(3, round(1.0 * fps)))
    hand_slots = {s: list(v) for s, v in scene.slots.items()}
    plays = 0
    opposite = {"south": "north", "north": "south", "west": "east", "east": "west"}
    for idx, e in enumerate(scene.events):
        kind = e["event"]
        if kind not in ("play", "draw", "pass", "reveal"):
            continue
        seat = scene.seat_of.get(e.get("player"), "south")
        if kind == "play" and plays == spectator_at:
            over = scene.center + (np.asarray(SEAT_DIR[seat]) * 0.1 * scene.w * scene.ratio)
            spec: dict = {"kind": "spectator", "seat": opposite[seat], "start_frame": len(tl.frames)}
            reach_in_and_out(opposite[seat], over, int(rng.integers(2**31)), lambda: None, spec)
            add(None, idle)
            tl.spectators.append(spec)
        plays += kind == "play"
        rec = {"event": idx, "kind": kind, "player": e.get("player"), "seat": seat, "start_frame": len(tl.frames)}
        if kind == "play":
            t = Tile.parse(e["tile"])
            obj = scene.layout_index[(t.a, t.b)]
            rec["tile"] = str(t)
            rec["object"] = obj
            hand_obj = scene.hand_index.get(((t.a, t.b), seat))
            tile = scene.tiles[obj]
            d = SEAT_DIR[seat]
            target = np.asarray(tile.center) + d * 0.15 * tile.length
            if hand_obj is not None:
                present.discard(hand_obj)

            def arrive(obj=obj):
                present.add(obj)
            reach_in_and_out(seat, target, int(rng.integers(2**31)), arrive, rec)
        elif kind == "draw":
            t = Tile.parse(e["tile"])
            rec["tile"] = str(t)
            bone = scene.bone_index.get((t.a, t.b))
            target = np.asarray(scene.tiles[bone].center) if bone is not None else scene.center
            drawn = scene._add_hand_tile(seat, (t.a, t.b), scene.draw_slot(seat, present), scene.n_slots)
            hand_slots[seat].append(drawn)
            rec["object"] = drawn

            def take(bone=bone):
                if bone is not None:
                    present.discard(bone)
            reach_in_and_out(seat, target, int(rng.integers(2**31)), take, rec)
            present.add(drawn)
            rec["shown_frame"] = len(tl.frames)  # the drawn tile lies in the row from here on
        elif kind == "pass":
            rec["placed_frame"] = len(tl.frames)
            add(None, idle)
        elif kind == "reveal":
            # the hand is turned face up in its row for the count
            for obj in hand_slots.get(seat, []):
                if obj in present:
                    scene.tiles[obj].face = "up"
            rec["placed_frame"] = len(tl.frames)
            add(None, idle)
        tl.moves.append(rec)
    add(None, max(3, round(1.5 * fps)))
    return tl


def render_video(folder: Path, rng: np.random.Generator, size: tuple[int, int] = (960, 720), fps: int = 10,
                 variant: str | None = None, progress: bool = True, max_frames: int | None = None,
                 look=None, turn_deg: float = 0.0, spectator_at: int | None = None, framed: bool = False) -> dict:
    """Render one deal into `folder`; returns the moves.json content. `max_frames` stops early
    (for quick checks; the record and moves still describe the whole deal). `look`: a
    vision.synth.looks.Look whose set style the tiles take (and its JPEG quality); `turn_deg`:
    the camera turned on its mount; `spectator_at`: a hand that lays nothing before that play;
    `framed`: the table framed for the camera, every hand and pile tile in the picture all deal and
    the pile clear of the rows' slots (the held-out deals of issue 24; without it a turned camera
    may cut the pile and the rows' ends off, as an unframed club camera would).
    Without them, the same video as before for the same stream."""
    events = _game_events(rng, variant)
    scene = _Scene(rng, size, events, look, turn_deg, framed)
    tl = _plan(scene, rng, fps, spectator_at)
    quality = look.jpeg if look is not None and look.jpeg is not None else 88
    frames_dir = folder / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    (folder / "record.jsonl").write_text("".join(dumps_event(e) + "\n" for e in events))
    writer = cv2.VideoWriter(str(folder / f"{folder.name}.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise RuntimeError("OpenCV cannot write MP4 (mp4v) here; install opencv-python-headless with FFmpeg")
    # faces flip at reveal: remember each frame's faces, since the objects are shared
    face_plan = _faces_per_frame(scene, tl)
    visible_at: dict[int, int] = {}
    truth_dir = folder / "truth"
    truth_dir.mkdir(exist_ok=True)
    frames = tl.frames if max_frames is None else tl.frames[:max_frames]
    for k, frame in enumerate(tqdm(frames, desc=folder.name, unit="frame", disable=not progress)):
        for obj, face in face_plan[k].items():
            scene.tiles[obj].face = face
        img, truth = scene.render(frame, rng)
        data = encode_jpeg(img, quality)
        (frames_dir / f"{k:06d}.jpg").write_bytes(data)
        writer.write(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))
        doc = {"image": f"frames/{k:06d}.jpg", "size": list(size), "frame": k, "tiles": truth}
        (truth_dir / f"{k:06d}.json").write_text(json.dumps(doc, separators=(",", ":")))
        for t in truth:
            if t["visible"] >= 0.95 and t["id"] not in visible_at:
                visible_at[t["id"]] = k
    writer.release()
    moves = []
    for rec in tl.moves:
        rec = dict(rec)
        obj = rec.pop("object", None)
        if rec["kind"] == "play":
            # the frame where the laid tile is first seen whole (the hand has moved off it)
            rec["frame"] = visible_at.get(obj, rec["placed_frame"])
        else:
            rec["frame"] = rec.pop("shown_frame", rec["placed_frame"])
        moves.append(rec)
    out = {"fps": fps, "size": list(size), "frames": len(tl.frames), "variant": events[0]["variant"],
           "players": events[0]["players"], "seats": scene.seat_of, "moves": moves,
           "look": look.name if look is not None else None, "turn_deg": turn_deg,
           "spectators": tl.spectators}
    (folder / "moves.json").write_text(json.dumps(out, indent=1))
    return out


def _faces_per_frame(scene: _Scene, tl: Timeline) -> list[dict[int, str]]:
    """Hand tiles are face down until their owner's reveal; record the face per frame."""
    final = {i: t.face for i, t in enumerate(scene.tiles)}
    reveal_at: dict[int, int] = {}
    for rec in tl.moves:
        if rec["kind"] == "reveal":
            for obj in scene.slots.get(rec["seat"], []):
                if final[obj] == "up" and scene.tiles[obj].owner != "layout":
                    reveal_at[obj] = rec["placed_frame"]
    plans = []
    for k in range(len(tl.frames)):
        plans.append({obj: ("up" if k >= f else "down") for obj, f in reveal_at.items()})
    return plans


def video_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng([int(seed), int(index), 0xF11E])


def write_videos(out: Path, n: int, seed: int, size: tuple[int, int] = (960, 720), fps: int = 10) -> list[dict]:
    if not 1 <= fps <= 60:
        raise ValueError(f"fps must be 1..60 (10-30 is sensible), got {fps}")
    results = []
    for i in range(n):
        name = f"deal_s{seed}_{i:03d}"
        for attempt in range(5):  # a deal that does not fit the table is replaced by another one
            try:
                results.append(render_video(out / "videos" / name, video_rng(seed, i + 1000 * attempt), size, fps))
                break
            except RuntimeError as exc:
                log.warning("video %s, attempt %d: %s; trying another deal", name, attempt + 1, exc)
        else:
            raise RuntimeError(f"video {name}: no deal fitted the table in 5 attempts; try another --seed")
        log.info("video %s: %d frames, %d events", name, results[-1]["frames"], len(results[-1]["moves"]))
    return results
