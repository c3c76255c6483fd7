"""Plain pictures of a synthetic scenario for the pixel parts (motion gate, pipeline, sources):
a felt table, tiles as ivory or dark rectangles, an arm reaching in from an edge, sensor noise and
light flicker. The reader in these tests is the scenario's truth, so only the gate sees pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.live.synthetic import SIZE, Scenario
from vision.live.observation import Observation
from vision.live.sources import SourceEnded

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


class ScenarioSource:
    """A FrameSource over a scenario's pictures (in memory, drawn on demand)."""

    live = False

    def __init__(self, sc: Scenario, fps: float = 10.0, seed: int = 0, fail_at: int | None = None,
                 corrupt: set[int] | None = None) -> None:
        self.sc = sc
        self.fps = fps
        self.rng = np.random.default_rng(seed)
        self.name = "scenario"
        self.i = 0
        self.fail_at = fail_at
        self.corrupt = corrupt or set()

    def open(self) -> None:
        pass

    def read(self):
        from vision.live.sources import CorruptFrame, SourceError

        if self.i >= len(self.sc.truth):
            raise SourceEnded(self.name)
        i = self.i
        self.i += 1
        if self.fail_at is not None and i == self.fail_at:
            self.fail_at = None
            raise SourceError("cable pulled")
        if i in self.corrupt:
            raise CorruptFrame(f"frame {i} is garbage")
        t = self.sc.steps[i][0]
        return draw(self.sc.truth[i], self.sc.arms[i], self.rng), t

    def close(self) -> None:
        pass


class TruthByTime:
    """Reader: the scenario's truth at time t (the frames are drawn from it)."""

    def __init__(self, sc: Scenario, scale: float = 0.5) -> None:
        self.by_t = {round(t, 3): obs for (t, _, _), obs in zip(sc.steps, sc.truth, strict=True)}
        self.scale = scale
        self.calls = 0

    def __call__(self, frame, t):
        self.calls += 1
        obs = self.by_t[round(t, 3)]
        return _scaled(obs, self.scale)


def _scaled(obs: Observation, s: float) -> Observation:
    from dataclasses import replace

    tiles = tuple(
        replace(t, halves=tuple((x * s, y * s) for x, y in t.halves),
                corners=tuple((x * s, y * s) for x, y in t.corners))
        for t in obs.tiles
    )
    size = None if obs.size is None else (round(obs.size[0] * s), round(obs.size[1] * s))
    return Observation(tiles, obs.edges, size)
