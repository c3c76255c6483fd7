"""The annotated frame for the stream: tile boxes and values, the chain, seat labels, the gate.

`annotate(frame, ...) -> new frame`; the input is never drawn on. Colours: green for tiles that are
moves, yellow for tiles still becoming stable, grey for hand tiles, red for a take-back.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.live.calibration import TableCalibration
from vision.live.motion import MotionInfo
from vision.live.observation import LAYOUT, Observation

GREEN = (80, 200, 60)
YELLOW = (0, 210, 255)
GREY = (170, 170, 170)
RED = (40, 40, 230)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def _text(img, text, org, scale, colour) -> None:
    org = (int(org[0]), int(org[1]))
    thick = max(1, round(scale * 2))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, BLACK, thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def annotate(
    frame: np.ndarray,
    obs: Observation | None,
    names: list[str | None] | None = None,
    *,
    committed: set[str] | frozenset[str] = frozenset(),
    missing: set[str] | frozenset[str] = frozenset(),
    calibration: TableCalibration | None = None,
    motion: MotionInfo | None = None,
    mode: str = "play",
) -> np.ndarray:
    out = frame.copy()
    h, w = out.shape[:2]
    scale = max(0.4, w / 1600)
    if calibration is not None:
        quad = np.asarray(calibration.corners, dtype=np.int32)
        cv2.polylines(out, [quad], True, WHITE, max(1, round(scale * 2)), cv2.LINE_AA)
        mids = {
            "top": (quad[0] + quad[1]) / 2, "right": (quad[1] + quad[2]) / 2,
            "bottom": (quad[2] + quad[3]) / 2, "left": (quad[3] + quad[0]) / 2,
        }
        centre = quad.mean(axis=0)
        for edge, player in calibration.seats.items():
            p = mids[edge] + (centre - mids[edge]) * 0.06
            _text(out, player, (p[0] - 30 * scale, p[1] + 10 * scale), scale * 1.1, WHITE)
    if obs is not None:
        names = names if names is not None else [t.name for t in obs.tiles]
        for i, j in obs.edges:
            if i < len(obs.tiles) and j < len(obs.tiles):
                a = np.int32(obs.tiles[i].centre)
                b = np.int32(obs.tiles[j].centre)
                cv2.line(out, tuple(a), tuple(b), GREEN, max(1, round(scale * 2)), cv2.LINE_AA)
        for i, tile in enumerate(obs.tiles):
            name = names[i] if i < len(names) else tile.name
            if tile.owner != LAYOUT:
                colour = GREY
            elif name in committed:
                colour = GREEN
            else:
                colour = YELLOW
            corners = np.asarray(tile.corners, dtype=np.int32)
            if np.ptp(corners) > 0:
                cv2.polylines(out, [corners], True, colour, max(1, round(scale * 2)), cv2.LINE_AA)
            label = name or ("down" if tile.face == "down" else "?")
            c = tile.centre
            _text(out, label, (c[0] - 18 * scale, c[1] + 8 * scale), scale * 0.7, colour)
    if missing:
        _text(out, "take-back? " + ", ".join(sorted(missing)), (10, h - 20 * scale), scale, RED)
    if motion is not None:
        state = "arm from " + motion.edge if motion.arm and motion.edge else (
            "settled" if motion.settled else "moving")
        _text(out, f"{mode} | {state}", (10, 30 * scale), scale * 0.9, WHITE)
    return out
