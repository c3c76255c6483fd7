"""Schematic deals: a random two-arm deal laid out as a straight line, arms reaching in from the
mover's edge, hands face down during play and face up at the end, as observations and as plain
pictures. The tests' ground truth, and the demo's fallback when no rendered video is at hand.

`deal_steps(...)` returns the steps (t, MotionInfo, Observation | None), the truth of every frame,
the arms, and the true plays and reveals; perturbations (jitter, misread flicker, occlusion,
missing arms, hands out of the picture: `rows=False`) are options. `draw(...)` paints one frame.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.live.calibration import full_frame
from vision.live.motion import SETTLED, MotionInfo, arm_from
from vision.live.observation import LAYOUT, Observation, TileObs

MOVING = MotionInfo(settled=False, arm=False, edge=None, moving=0.02, changed=0.02)

SIZE = (1600, 1200)
U = 20.0  # half span: distance between a tile's half centres
EDGES = ("bottom", "left", "top", "right")
COMPASS = {"bottom": "south", "left": "west", "top": "north", "right": "east"}
ALL = [(a, b) for a in range(7) for b in range(a, 7)]


def calibration(players):
    return full_frame(SIZE, players)


def tile_name(t) -> str:
    return f"{min(t)}-{max(t)}"


@dataclass
class Placed:
    values: tuple[int, int]  # (value on half 0, value on half 1)
    halves: tuple[tuple[float, float], tuple[float, float]]
    parent: int | None
    face: str = "up"

    def obs(self, *, hide_values=False) -> TileObs:
        (x1, y1), (x2, y2) = self.halves
        dx, dy = (x2 - x1) / U, (y2 - y1) / U
        nx, ny = -dy, dx
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        corners = tuple(
            (cx + sa * dx * U + sb * nx * U / 2, cy + sa * dy * U + sb * ny * U / 2)
            for sa, sb in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        )
        values = None if (self.face == "down" or hide_values) else self.values
        return TileObs(values, self.halves, corners, self.face, 0.95, LAYOUT)


@dataclass
class Scenario:
    steps: list[tuple[float, MotionInfo, Observation | None]] = field(default_factory=list)
    truth: list[Observation] = field(default_factory=list)  # what lies there, arm frames too
    arms: list[tuple[str, float] | None] = field(default_factory=list)  # edge, reach 0..1
    plays: list[dict] = field(default_factory=list)
    reveals: list[dict] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)


class Line:
    """A two-arm line growing left and right from the centre; doubles crosswise."""

    def __init__(self) -> None:
        self.tiles: list[Placed] = []
        self.ends: dict[str, tuple[int, float, int]] = {}  # side -> (value, x, tile index)

    def place(self, t: tuple[int, int], side: str | None, face: str = "up") -> tuple[int, str | None]:
        cx, cy = SIZE[0] / 2, SIZE[1] / 2
        a, b = t
        if side is None:
            if a == b:
                p = Placed((a, a), ((cx, cy - U / 2), (cx, cy + U / 2)), None, face)
                self.ends = {"left": (a, cx - U / 2, 0), "right": (a, cx + U / 2, 0)}
            else:
                p = Placed((a, b), ((cx - U / 2, cy), (cx + U / 2, cy)), None, face)
                self.ends = {"left": (a, cx - U, 0), "right": (b, cx + U, 0)}
            self.tiles.append(p)
            return 0, None
        value, x, parent = self.ends[side]
        sign = 1 if side == "right" else -1
        other = b if a == value else a
        if a == b:
            px = x + sign * U / 2
            p = Placed((a, a), ((px, cy - U / 2), (px, cy + U / 2)), parent, face)
            nx = x + sign * U
        else:
            p = Placed((value, other), ((x + sign * U / 2, cy), (x + sign * 3 * U / 2, cy)), parent, face)
            nx = x + sign * 2 * U
        self.tiles.append(p)
        self.ends[side] = (other, nx, len(self.tiles) - 1)
        return len(self.tiles) - 1, tile_name(self.tiles[parent].values)


def random_game(rng: random.Random, players, *, hand=7, pass_p=0.1, multi_p=0.0, closed_p=0.0):
    """A random legal two-arm deal: [(player, tile, side, face)], hands left, passes."""
    tiles = ALL[:]
    rng.shuffle(tiles)
    hands = {p: tiles[i * hand:(i + 1) * hand] for i, p in enumerate(players)}
    line = Line()
    opener = next((p for p in players if (0, 0) in hands[p]), players[0])
    first = (0, 0) if (0, 0) in hands[opener] else hands[opener][0]
    hands[opener].remove(first)
    moves = [(opener, first, None, "up")]
    line.place(first, None)
    turn = (players.index(opener) + 1) % len(players)
    passes = 0
    while all(hands.values()) and passes < len(players):
        p = players[turn]
        fits = [(t, s) for t in hands[p] for s in ("left", "right") if line.ends[s][0] in t]
        if not fits or rng.random() < pass_p:
            moves.append((p, None, None, None))
            passes += 1
        else:
            passes = 0
            n = 1
            while fits and n:
                t, s = rng.choice(fits)
                face = "down" if t[0] == t[1] and rng.random() < closed_p else "up"
                hands[p].remove(t)
                line.place(t, s, face)
                moves.append((p, t, s, face))
                if face == "down":
                    line.ends[s] = (-1, line.ends[s][1], line.ends[s][2])  # closed for good
                n = 1 if rng.random() < multi_p else 0
                fits = [(t, s) for t in hands[p] for s in ("left", "right") if line.ends[s][0] in t]
        turn = (turn + 1) % len(players)
    return moves, hands


def hand_tiles(hands, players, *, face="up") -> list[TileObs]:
    """Each seat's tiles laid in a row along its edge."""
    out = []
    w, h = SIZE
    for k, p in enumerate(players):
        edge = EDGES[k]
        for j, t in enumerate(hands[p]):
            along = 300 + j * 60
            if edge in ("bottom", "top"):
                y = h - 40 if edge == "bottom" else 40
                halves = ((along, y - U / 2), (along, y + U / 2))
            else:
                x = 40 if edge == "left" else w - 40
                halves = ((x - U / 2, along), (x + U / 2, along))
            values = t if face == "up" else None
            out.append(TileObs(values, halves, face=face, owner=COMPASS[edge]))
    return out


def deal_steps(
    seed: int,
    players=("Anna", "Boris", "Vera", "Gleb"),
    *,
    fps: float = 10.0,
    arm_s: float = 0.8,
    hold_s: float = 1.5,
    jitter: float = 0.0,
    flicker: float = 0.0,
    occlude: float = 0.0,
    no_arm: float = 0.0,
    edges: bool = True,
    pass_p: float = 0.1,
    multi_p: float = 0.0,
    closed_p: float = 0.0,
    rows: bool = True,
) -> Scenario:
    rng = random.Random(seed)
    players = list(players)
    moves, hands_left = random_game(rng, players, pass_p=pass_p, multi_p=multi_p, closed_p=closed_p)
    line = Line()
    sc = Scenario()
    t = 0.0
    dt = 1.0 / fps
    shown: list[Placed] = []
    in_hand = {p: 7 for p in players}

    def frame_obs(extra_hands=None) -> Observation:
        tiles, edge_list = [], []
        for p in shown:
            o = p.obs()
            if flicker and o.values is not None and rng.random() < flicker:
                o = TileObs((o.values[0], rng.randrange(7)), o.halves, o.corners, o.face,
                            0.5, o.owner)
            if jitter:
                o = TileObs(o.values,
                            tuple((x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter))
                                  for x, y in o.halves),
                            o.corners, o.face, o.confidence, o.owner)
            tiles.append(o)
        if edges:
            index = {id(p): i for i, p in enumerate(shown)}
            for i, p in enumerate(shown):
                if p.parent is not None:
                    edge_list.append((index[id(line.tiles[p.parent])], i))
        if occlude and rng.random() < occlude and tiles:
            drop = set(rng.sample(range(len(tiles)), max(1, len(tiles) // 3)))
            keep = [i for i in range(len(tiles)) if i not in drop]
            remap = {old: new for new, old in enumerate(keep)}
            tiles = [tiles[i] for i in keep]
            edge_list = [(remap[a], remap[b]) for a, b in edge_list if a in remap and b in remap]
        if extra_hands is not None:
            hands_now = extra_hands
        elif rows:
            hands_now = hand_tiles({p: [(0, 0)] * in_hand[p] for p in players}, players, face="down")
        else:
            hands_now = []  # the hands out of the picture
        return Observation(tuple(tiles) + tuple(hands_now), tuple(edge_list), SIZE)

    def hold(seconds, extra_hands=None):
        nonlocal t
        for _ in range(round(seconds * fps)):
            obs = frame_obs(extra_hands)
            sc.steps.append((t, SETTLED, obs))
            sc.truth.append(obs)
            sc.arms.append(None)
            t += dt

    def arm(edge, seconds, extra_hands=None):
        nonlocal t
        n = round(seconds * fps)
        for k in range(n):
            sc.steps.append((t, arm_from(edge), None))
            sc.truth.append(frame_obs(extra_hands))
            sc.arms.append((edge, 1.0 - abs(2.0 * (k + 0.5) / n - 1.0)))  # in, then out
            t += dt

    def unseen(seconds):
        # A hand the gate does not tell as an arm (a sleeve the colour of the cloth): the
        # table still moves, but no blob reaches an edge.
        nonlocal t
        for _ in range(round(seconds * fps)):
            sc.steps.append((t, MOVING, None))
            sc.truth.append(frame_obs())
            sc.arms.append(None)
            t += dt

    hold(1.0)
    for player, tile, side, face in moves:
        if tile is None:
            hold(0.3)
            continue
        edge = EDGES[players.index(player)]
        if rng.random() >= no_arm:
            arm(edge, arm_s)
        else:
            unseen(0.2)
        idx, to = line.place(tile, side, face)
        shown.append(line.tiles[idx])
        in_hand[player] -= 1
        event = {"event": "play", "player": player, "tile": tile_name(tile)}
        if to is not None:
            event["to"] = to
        if face == "down":
            event["face"] = "down"
        sc.plays.append(event)
        hold(hold_s)
    # Recount: arms from every seat lay the hands face up.
    laid = hand_tiles(hands_left, players)
    for k, _ in enumerate(players):
        arm(EDGES[k], 0.3, laid)
    hold(3.0, laid)
    sc.hands = {p: sorted(tile_name(x) for x in hands_left[p]) for p in players}
    sc.reveals = [{"event": "reveal", "player": p, "tiles": sc.hands[p]} for p in players]
    return sc


# --- pictures ---------------------------------------------------------------------------------

FELT = (40, 105, 30)
IVORY = (215, 235, 240)
BACK = (30, 40, 70)
SKIN = (120, 160, 215)


def draw(obs: Observation, arm: tuple[str, float] | None, rng: np.random.Generator,
         size=SIZE, scale: float = 0.5) -> np.ndarray:
    w, h = round(size[0] * scale), round(size[1] * scale)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = FELT
    for tile in obs.tiles:
        quad = np.int32(np.asarray(tile.corners) * scale)
        if np.ptp(quad) == 0:  # no corners: a box around the halves
            (x1, y1), (x2, y2) = tile.halves
            cx, cy = (x1 + x2) / 2 * scale, (y1 + y2) / 2 * scale
            quad = np.int32([[cx - 10, cy - 6], [cx + 10, cy - 6], [cx + 10, cy + 6],
                             [cx - 10, cy + 6]])
        cv2.fillConvexPoly(img, quad, IVORY if tile.face == "up" else BACK)
        if tile.face == "up" and tile.values is not None:
            _pips(img, tile, scale)
    if arm is not None:
        edge, reach = arm
        depth = max(0.05, reach) * 0.5
        half = 0.05
        if edge == "bottom":
            poly = [(0.45 - half, 1.01), (0.45 + half, 1.01), (0.47, 1 - depth), (0.43, 1 - depth)]
        elif edge == "top":
            poly = [(0.55 - half, -0.01), (0.55 + half, -0.01), (0.57, depth), (0.53, depth)]
        elif edge == "left":
            poly = [(-0.01, 0.55 - half), (-0.01, 0.55 + half), (depth, 0.57), (depth, 0.53)]
        else:
            poly = [(1.01, 0.45 - half), (1.01, 0.45 + half), (1 - depth, 0.47), (1 - depth, 0.43)]
        pts = np.int32([(x * w, y * h) for x, y in poly])
        cv2.fillConvexPoly(img, pts, SKIN)
    gain = 1.0 + rng.uniform(-0.03, 0.03)  # light flicker
    noisy = cv2.add(cv2.convertScaleAbs(img, alpha=gain), _noise(img.shape, rng), dtype=cv2.CV_8U)
    return cv2.subtract(noisy, _NOISE_BIAS)


_NOISE: dict[tuple, list[np.ndarray]] = {}
_NOISE_BIAS = 8


def _noise(shape, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise (sigma 3 around +8, removed after adding): a few fixed patterns, cycled."""
    if shape not in _NOISE:
        gen = np.random.default_rng(99)
        _NOISE[shape] = [np.clip(gen.normal(_NOISE_BIAS, 3, shape), 0, 255).astype(np.uint8)
                         for _ in range(6)]
    return _NOISE[shape][int(rng.integers(6))]


# Pip positions on a half, in units of the half's side, from its centre (standard layouts).
_LAYOUT = {
    0: [], 1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _pips(img: np.ndarray, tile, scale: float) -> None:
    (x1, y1), (x2, y2) = tile.halves
    ux, uy = (x2 - x1) * scale, (y2 - y1) * scale  # from half 0 to half 1: one half's side
    step = 0.28
    r = max(1, round(0.09 * np.hypot(ux, uy)))
    mid = ((x1 + x2) / 2 * scale, (y1 + y2) / 2 * scale)
    nx, ny = -uy, ux
    cv2.line(img, (round(mid[0] + nx * 0.4), round(mid[1] + ny * 0.4)),
             (round(mid[0] - nx * 0.4), round(mid[1] - ny * 0.4)), (60, 60, 60), 1, cv2.LINE_AA)
    for (hx, hy), v in zip(((x1 * scale, y1 * scale), (x2 * scale, y2 * scale)), tile.values,
                           strict=True):
        for a, b in _LAYOUT[v]:
            px = hx + step * (a * ux + b * nx)
            py = hy + step * (a * uy + b * ny)
            cv2.circle(img, (round(px), round(py)), r, (20, 20, 20), -1, cv2.LINE_AA)
