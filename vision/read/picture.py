"""A picture of what the reader saw: boxes, values, the chain and its open ends, the hands."""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.reader import FrameReading

UP = (80, 200, 60)
DOWN = (160, 160, 160)
UNREAD = (40, 40, 230)
CHAIN = (0, 215, 255)
MISMATCH = (40, 40, 230)  # tiles in line whose touching halves read differently: look here
END = (255, 120, 0)
SEAT_COLOUR = {"north": (200, 120, 255), "east": (255, 200, 0), "south": (120, 255, 255), "west": (255, 120, 160)}


def _text(img: np.ndarray, text: str, at, scale: float, colour, thick: int) -> None:
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = (int(at[0] - tw / 2), int(at[1] + th / 2))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 3, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def draw_reading(frame: np.ndarray, reading: FrameReading) -> np.ndarray:
    img = frame.copy()
    lay = reading.layout
    seat_of = {i: s for s, ix in lay.hands.items() for i in ix}
    in_layout = set(lay.tiles).union(*lay.pieces)  # bits of the chain cut off from it are shaded as chain
    overlay = img.copy()
    for i, t in enumerate(reading.tiles):
        if i in in_layout:
            cv2.fillPoly(overlay, [np.round(t.quad).astype(np.int32)], CHAIN)
    img = cv2.addWeighted(overlay, 0.18, img, 0.82, 0)
    for i, t in enumerate(reading.tiles):
        colour = DOWN if t.face == "down" else (UP if t.values is not None else UNREAD)
        thick = max(1, int(round(t.width / 30)))
        cv2.polylines(img, [np.round(t.quad).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        scale = max(0.3, t.width / 75)
        if t.face == "up":
            for k in (0, 1):
                v = t.half_values[k]
                # the value beside its half, outside the tile, so the pips stay visible
                side = np.array([-t.u[1], t.u[0]]) * t.width * 0.75
                _text(img, "?" if v is None else str(v), t.halves[k] + side, scale,
                      colour if v is not None else UNREAD, max(1, thick))
        elif i in lay.inferred:
            a, b = lay.inferred[i]
            _text(img, f"({a}-{b})", t.halves.mean(axis=0), scale * 0.8, DOWN, 1)
        if i in seat_of:
            c = t.halves.mean(axis=0) + t.width * 0.75 * np.array([0, 1])
            _text(img, seat_of[i][0].upper(), c, scale * 0.6, SEAT_COLOUR[seat_of[i]], 1)
    for j in lay.joins:
        a, b = reading.tiles[j.a], reading.tiles[j.b]
        pa, pb = a.halves.mean(axis=0), b.halves.mean(axis=0)
        w = max(1, int(round(min(a.width, b.width) / 18)))
        colour = MISMATCH if j.mismatch else CHAIN
        cv2.line(img, tuple(np.round(pa).astype(int)), tuple(np.round(pb).astype(int)), colour, w, cv2.LINE_AA)
        cv2.circle(img, tuple(np.round(pa).astype(int)), w + 1, colour, -1, cv2.LINE_AA)
        cv2.circle(img, tuple(np.round(pb).astype(int)), w + 1, colour, -1, cv2.LINE_AA)
    for tile, value in lay.ends:
        t = reading.tiles[tile]
        # the free half: the one whose value is open (a double: its centre)
        ks = [k for k in (0, 1) if t.half_values[k] == value]
        at = t.halves[ks[0]] if len(ks) == 1 else t.halves.mean(axis=0)
        cv2.circle(img, tuple(np.round(at).astype(int)), int(t.width * 0.6), END, max(2, int(t.width / 15)), cv2.LINE_AA)
    n_up = sum(t.face == "up" for t in reading.tiles)
    ends = " ".join(str(v) for _, v in lay.ends) or "-"
    apart = sum(len(p) for p in lay.pieces)
    banner = (f"{len(reading.tiles)} tiles ({n_up} up)  layout {len(lay.tiles)}" + (f" (+{apart} apart)" if apart else "")
              + f"  open ends: {ends}")
    s = max(0.6, img.shape[1] / 1600)
    cv2.rectangle(img, (0, 0), (img.shape[1], int(40 * s)), (0, 0, 0), -1)
    cv2.putText(img, banner, (int(10 * s), int(28 * s)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * s, (255, 255, 255),
                max(1, int(2 * s)), cv2.LINE_AA)
    return img
