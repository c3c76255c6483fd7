"""The annotated frame for the stream: tile boxes and values, the chain, seat labels.

`draw_overlay(frame, ...) -> new frame`; the input is never drawn on. Colours: green for tiles that are
moves, yellow for tiles still becoming stable, grey for hand tiles. The frame is for the room's
big screen: values large on a dark plate, nothing on face-down tiles, and nothing for developers
(the reader's state and take-backs are the pages' flags, in the page's language; `missing`,
`motion` and `mode` are accepted and not drawn).
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


def _label(img, text: str, centre, scale: float, colour) -> None:
    """`text` centred on `centre`, large, on a dark plate (legible from across the room)."""
    font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(scale * 2.2))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = max(2, round(th * 0.25))
    h, w = img.shape[:2]  # kept inside the frame (a seat's name at its edge)
    x = int(min(max(centre[0] - tw / 2, pad), w - tw - pad))
    y = int(min(max(centre[1] + th / 2, th + pad), h - base - pad))
    cv2.rectangle(img, (x - pad, y - th - pad), (x + tw + pad, y + base), (20, 20, 20), -1)
    cv2.putText(img, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)


def draw_overlay(
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
            _label(out, player, p, scale * 1.6, WHITE)
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
            if tile.face != "down" and name:  # a face-down tile says nothing; its box says enough
                _label(out, name, tile.centre, scale * 1.4, colour)
            if np.ptp(corners) > 0:
                cv2.polylines(out, [corners], True, colour, max(1, round(scale * 2.5)), cv2.LINE_AA)
    return out
