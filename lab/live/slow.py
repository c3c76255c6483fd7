"""A machine of known speed, for paced runs that repeat.

Paced on the real clock (`--realtime`), which frames are read depends on the load of the moment,
so a failure seen once may not come back. `SlowMachine` is a clock of its own: every frame costs
`frame_ms` (the motion gate and the tracker), every reading `read_ms` give or take `jitter`
(drawn from a seeded generator), and a wait for the next frame passes at once. The same deal, the
same machine and the same seed read the same frames every time; several seeds show how the
record varies with the moment reading falls behind.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from vision.live.observation import Observation

Reader = Callable[[np.ndarray, float], Observation]


@dataclass
class SlowMachine:
    read_ms: float
    frame_ms: float = 10.0
    jitter: float = 0.3  # a reading costs read_ms times 1 ± this, uniformly
    seed: int = 0
    now: float = 0.0
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.read_ms < 0 or self.frame_ms < 0 or not 0 <= self.jitter < 1:
            raise ValueError("a slow machine needs read_ms, frame_ms >= 0 and a jitter in [0, 1)")
        self._rng = random.Random(self.seed)

    def clock(self) -> float:
        """The pipeline asks the time once a frame: that frame's own cost has passed."""
        self.now += self.frame_ms / 1000
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)

    def reading(self, read: Reader) -> Reader:
        """`read`, costing this machine's time per call."""
        def slow(frame: np.ndarray, t: float) -> Observation:
            self.now += self.read_ms * (1 + self._rng.uniform(-self.jitter, self.jitter)) / 1000
            return read(frame, t)
        return slow
