"""Plain pictures of a synthetic scenario for the pixel parts (motion gate, pipeline, sources):
a felt table, tiles as ivory or dark rectangles, an arm reaching in from an edge, sensor noise and
light flicker. The reader in these tests is the scenario's truth, so only the gate sees pixels.
"""

from __future__ import annotations

import numpy as np

from vision.live.observation import Observation
from vision.live.schematic import SIZE, Scenario, draw
from vision.live.sources import SourceEnded

SCALE = 0.3  # the pictures: 480x360, enough for the gate, cheap to draw
FRAME = (round(SIZE[0] * SCALE), round(SIZE[1] * SCALE))


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
        return draw(self.sc.truth[i], self.sc.arms[i], self.rng, scale=SCALE), t

    def close(self) -> None:
        pass


class TruthByTime:
    """Reader: the scenario's truth at time t (the frames are drawn from it)."""

    def __init__(self, sc: Scenario, scale: float = SCALE) -> None:
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


class SlowMachine:
    """A machine where reading a frame takes `read_s` seconds of wall clock and the rest takes
    `frame_s`: a clock and a sleep for the pipeline's pacing, and a reader wrapper that spends
    the time. Nothing waits for real."""

    def __init__(self, read_s: float, frame_s: float = 0.005) -> None:
        self.now = 0.0
        self.read_s = read_s
        self.frame_s = frame_s

    def clock(self) -> float:
        self.now += self.frame_s
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)

    def reader(self, read):
        def slow(frame, t):
            self.now += self.read_s
            return read(frame, t)
        return slow
