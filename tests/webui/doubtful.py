"""A real live pipeline (vision.live.pipeline.LivePipeline: the motion gate on pictures, the
tracker, its ConfirmQueue) on a short scene whose second tile the rules doubt: Anna opens with 0-0
from the bottom edge, then Boris's arm lays a tile read as 1-2 against it (it fits no open end,
BYK-1.6), and it stays there. The reader is the scene's truth (tests.live.pixels)."""

from __future__ import annotations

import threading

from tests.live.pixels import FRAME, ScenarioSource, TruthByTime
from vision.live.calibration import full_frame
from vision.live.motion import SETTLED, arm_from
from vision.live.observation import Observation
from vision.live.pipeline import LiveConfig, LivePipeline
from vision.live.schematic import SIZE, Placed, Scenario

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
GAME = {"event": "game", "variant": "bykovo", "players": PLAYERS, "options": {}}
OPENER = Placed((0, 0), ((800, 590), (800, 610)), None)
DOUBTFUL = Placed((1, 2), ((820, 600), (840, 600)), 0)  # against 0-0: fits no open end


def doubtful_scene(tail_s: float, fps: float = 10.0) -> Scenario:
    """The scene, the doubtful tile then lying still for `tail_s` seconds."""
    sc = Scenario()
    t, dt = 0.0, 1.0 / fps
    empty = Observation((), (), SIZE)
    opened = Observation((OPENER.obs(),), (), SIZE)
    both = Observation((OPENER.obs(), DOUBTFUL.obs()), ((0, 1),), SIZE)

    def hold(obs: Observation, seconds: float) -> None:
        nonlocal t
        for _ in range(round(seconds * fps)):
            sc.steps.append((t, SETTLED, obs))
            sc.truth.append(obs)
            sc.arms.append(None)
            t += dt

    def arm(edge: str, lying: Observation, seconds: float = 0.6) -> None:
        nonlocal t
        n = round(seconds * fps)
        for k in range(n):
            sc.steps.append((t, arm_from(edge), None))
            sc.truth.append(lying)
            sc.arms.append((edge, 1.0 - abs(2.0 * (k + 0.5) / n - 1.0)))  # in, then out
            t += dt

    hold(empty, 1.0)
    arm("bottom", empty)
    hold(opened, 1.5)
    arm("left", opened)
    hold(both, tail_s)
    sc.plays = [{"event": "play", "player": "Anna", "tile": "0-0"}]
    return sc


class GatedSource(ScenarioSource):
    """The scene's pictures, once `gate` is set (a camera switched on when the test is ready)."""

    def __init__(self, sc: Scenario, gate: threading.Event) -> None:
        super().__init__(sc)
        self.gate = gate

    def open(self) -> None:
        self.gate.wait(60)


def doubtful_pipeline(tail_s: float = 4.0, realtime: bool = False,
                      gate: threading.Event | None = None) -> LivePipeline:
    """The pipeline on the scene (`realtime`: paced at the scene's 10 fps, as a camera; `gate`:
    the scene starts when it is set)."""
    sc = doubtful_scene(tail_s)
    source = (lambda: GatedSource(sc, gate)) if gate is not None else (lambda: ScenarioSource(sc))
    return LivePipeline(source, TruthByTime(sc), PLAYERS, game=GAME,
                        calibration=full_frame(FRAME, PLAYERS),
                        config=LiveConfig(realtime=realtime, annotate=True))
