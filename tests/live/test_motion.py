"""The motion gate on drawn arms whose side is hard to tell: an arm entering by a corner, and a
forearm the colour of the table with only the hand standing out (issue 24: seats from the arm)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.live.calibration import full_frame
from vision.live.motion import MotionConfig, MotionGate

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]  # a seat on every edge (default_seats)
SIZE = (640, 480)
TABLE = (40, 70, 110)  # BGR: brown wood


def _table(rng: np.random.Generator) -> np.ndarray:
    img = np.empty((SIZE[1], SIZE[0], 3), np.uint8)
    img[:] = TABLE
    noise = rng.normal(0, 2.0, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _arm(img: np.ndarray, root, tip, width: int, colour, hand=None, hand_len: float = 0.0) -> None:
    """An arm from `root` to `tip` (pixels); the last `hand_len` of it drawn in `hand`'s colour."""
    cv2.line(img, tuple(map(int, root)), tuple(map(int, tip)), colour, width)
    if hand is not None:
        r, t = np.array(root, float), np.array(tip, float)
        wrist = t + (r - t) * hand_len
        cv2.line(img, tuple(map(int, wrist)), tuple(map(int, t)), hand, width + 4)


def _edges_seen(arm_frames, gate: MotionGate | None = None):
    """The edge the gate gives on each frame of an arm sliding in over a still table."""
    gate = gate or MotionGate(full_frame(SIZE, PLAYERS))
    rng = np.random.default_rng(0)
    t = 0.0
    for _ in range(4):
        gate.update(_table(rng), t)
        t += 0.1
    seen = []
    for draw_arm in arm_frames:
        img = _table(rng)
        draw_arm(img)
        seen.append(gate.update(img, t).edge)
        t += 0.1
    return seen


def test_an_arm_entering_by_the_bottom_right_corner_comes_from_the_right():
    # The right-hand player reaches in low, along the bottom edge band, towards the middle.
    w, h = SIZE
    frames = [lambda img, k=k: _arm(img, (w + 30, h - 8), (w - 120 - 40 * k, h - 60 - 25 * k), 34,
                                    (150, 150, 190))
              for k in range(5)]
    seen = _edges_seen(frames)
    assert seen.count("right") >= 4, seen
    assert "bottom" not in seen, seen


def test_a_forearm_the_colour_of_the_table_still_leads_to_its_edge():
    # Only the hand stands out (a pale hand, a sleeve a shade off the wood): the hand's blob
    # touches no edge band, its fainter forearm does.
    w, h = SIZE
    sleeve = tuple(c + 20 for c in TABLE)
    frames = [lambda img, k=k: _arm(img, (-20, h // 2 + 10), (180 + 30 * k, h // 2 - 10 * k), 40,
                                    sleeve, hand=(140, 160, 190), hand_len=0.25)
              for k in range(5)]
    seen = _edges_seen(frames)
    assert seen.count("left") >= 4, seen
    # Without the hysteresis the gate cannot tell the side (the old behaviour).
    flat = _edges_seen(frames, MotionGate(full_frame(SIZE, PLAYERS), MotionConfig(grow_threshold=0)))
    assert flat.count("left") < seen.count("left"), flat


@pytest.mark.parametrize("edge", ["bottom", "right", "top", "left"])
def test_a_plain_arm_from_each_side_is_seen_from_that_side(edge):
    w, h = SIZE
    root = {"bottom": (w // 2, h + 20), "top": (w // 2 + 30, -20), "left": (-20, h // 2),
            "right": (w + 20, h // 2 - 20)}[edge]
    centre = np.array([w / 2, h / 2])
    frames = [lambda img, k=k: _arm(img, root, np.array(root) + (centre - root) * (0.3 + 0.1 * k),
                                    36, (120, 160, 210))
              for k in range(5)]
    seen = _edges_seen(frames)
    assert seen.count(edge) >= 4, seen


def test_an_arm_across_the_table_stays_from_its_own_side_when_it_reaches_the_far_edge():
    # A player reaching the boneyard at the far side: the arm slides up from the bottom edge,
    # its hand into the top band, its root out of the bottom band (the arm is shorter than the
    # table): it is still the bottom player's arm.
    w, h = SIZE
    length = 0.8 * h
    frames = []
    for tip_y in (h * 0.75, h * 0.5, h * 0.3, h * 0.12, h * 0.02, h * 0.02, h * 0.02, h * 0.12):
        root_y = min(h + 40, tip_y + length)
        frames.append(lambda img, a=root_y, b=tip_y: _arm(img, (w * 0.45, a), (w * 0.47, b), 40,
                                                            (120, 160, 210)))
    seen = _edges_seen(frames)
    assert seen.count("bottom") == len(frames), seen
