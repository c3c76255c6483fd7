"""Things on a real table that are not tiles: cards, coins, cups, phones, pens, score sheets, and
the arms and hands of players reaching in (drawn over the tiles they cover)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.backgrounds import random_text
from vision.synth.polygons import rounded_rect
from vision.synth.styles import _jitter
from vision.synth.tiles import ONE, SHIFT, fill_poly

SKIN = [(150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 125), (170, 195, 235)]


@dataclass
class ShadowLayer:
    """A reduced-resolution mask of cast shadows; objects add their outline moved by `offset`."""

    mask: np.ndarray  # uint8, canvas size / factor
    factor: int
    offset: np.ndarray  # canvas pixels per unit of height

    def add(self, poly: np.ndarray, height: float) -> None:
        pts = (np.asarray(poly) + self.offset * height) / self.factor
        cv2.fillPoly(self.mask, [np.round(pts * ONE).astype(np.int32).reshape(-1, 1, 2)], 255, cv2.LINE_AA, SHIFT)


def card(img, rng, c, size, ang):
    poly = rounded_rect(c, ang, size * 1.4, size, size * 0.08)
    fill_poly(img, poly, _jitter(rng, (240, 240, 240), 6))
    if rng.random() < 0.4:  # card back
        fill_poly(img, rounded_rect(c, ang, size * 1.25, size * 0.85, size * 0.05), _jitter(rng, [(40, 40, 170), (150, 60, 20)][int(rng.integers(2))], 15))
    else:
        col = (30, 30, 200) if rng.random() < 0.5 else (20, 20, 20)
        for _ in range(int(rng.integers(1, 5))):
            p = np.asarray(c) + rng.uniform(-0.35, 0.35, 2) * size
            cv2.circle(img, tuple(int(x) for x in p), max(1, int(size * 0.1)), col, -1, cv2.LINE_AA)
        cv2.putText(img, str(rng.choice(list("AKQJ10987"))), tuple(int(x) for x in np.asarray(c) - size * 0.4),
                    cv2.FONT_HERSHEY_SIMPLEX, max(0.3, size / 80), col, 1, cv2.LINE_AA)
    return poly, 0.02


def coin(img, rng, c, size, ang):
    r = size * 0.35
    col = _jitter(rng, [(60, 170, 210), (190, 190, 190), (60, 110, 170)][int(rng.integers(3))], 15)
    poly = rounded_rect(c, 0, 2 * r, 2 * r, r, n_arc=6)
    fill_poly(img, poly, tuple(int(x * 0.7) for x in col))
    fill_poly(img, rounded_rect(c, 0, 1.7 * r, 1.7 * r, 0.85 * r, n_arc=6), col)
    cv2.circle(img, (int(c[0] - r * 0.3), int(c[1] - r * 0.3)), max(1, int(r * 0.3)), tuple(min(255, int(x * 1.3)) for x in col), -1, cv2.LINE_AA)
    return poly, 0.05


def cup(img, rng, c, size, ang):
    r = size * float(rng.uniform(0.7, 1.1))
    col = _jitter(rng, [(240, 240, 240), (40, 40, 160), (150, 90, 30), (30, 30, 30)][int(rng.integers(4))], 15)
    u = np.array([math.cos(ang), math.sin(ang)])
    handle = rounded_rect(np.asarray(c) + u * r * 1.05, ang, r * 0.7, r * 0.3, r * 0.12)
    fill_poly(img, handle, col)
    outer = rounded_rect(c, 0, 2 * r, 2 * r, r, n_arc=8)
    fill_poly(img, outer, col)
    drink = _jitter(rng, [(20, 40, 70), (30, 90, 160), (200, 200, 200)][int(rng.integers(3))], 10)
    fill_poly(img, rounded_rect(c, 0, 1.75 * r, 1.75 * r, 0.875 * r, n_arc=8), drink)
    cv2.circle(img, (int(c[0] - r * 0.4), int(c[1] - r * 0.4)), max(1, int(r * 0.15)), (245, 245, 245), -1, cv2.LINE_AA)
    return np.vstack([outer, handle]), 1.0


def phone(img, rng, c, size, ang):
    poly = rounded_rect(c, ang, size * 2.0, size * 0.95, size * 0.12)
    fill_poly(img, poly, _jitter(rng, (30, 30, 30), 10))
    screen = _jitter(rng, [(20, 20, 20), (120, 80, 40), (200, 200, 190)][int(rng.integers(3))], 15)
    fill_poly(img, rounded_rect(c, ang, size * 1.85, size * 0.85, size * 0.08), screen)
    return poly, 0.08


def pen(img, rng, c, size, ang):
    body = rounded_rect(c, ang, size * 2.8, size * 0.16, size * 0.07)
    fill_poly(img, body, _jitter(rng, [(160, 60, 20), (20, 20, 20), (30, 30, 190), (220, 220, 220)][int(rng.integers(4))], 15))
    u = np.array([math.cos(ang), math.sin(ang)])
    fill_poly(img, rounded_rect(np.asarray(c) + u * size * 1.1, ang, size * 0.6, size * 0.19, size * 0.05), _jitter(rng, (40, 40, 40), 20))
    return body, 0.05


def score_sheet(img, rng, c, size, ang):
    w, h = size * 3.0, size * 4.0
    poly = rounded_rect(c, ang, w, h, 1.0)
    fill_poly(img, poly, _jitter(rng, (235, 240, 240), 8))
    u = np.array([math.cos(ang), math.sin(ang)])
    v = np.array([-u[1], u[0]])
    p0 = np.asarray(c) - u * w * 0.45 - v * h * 0.45
    ink = _jitter(rng, (120, 40, 30), 30)
    for k in range(1, 12):
        a = p0 + v * h * 0.08 * k
        cv2.line(img, tuple(int(x) for x in a), tuple(int(x) for x in a + u * w * 0.9), (170, 160, 150), 1, cv2.LINE_AA)
        if rng.random() < 0.7:
            cv2.putText(img, str(int(rng.integers(0, 100))), tuple(int(x) for x in a + u * w * 0.1 - v * 2), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                        max(0.3, size / 90), ink, 1, cv2.LINE_AA)
    if rng.random() < 0.5:
        cv2.putText(img, random_text(rng, 2), tuple(int(x) for x in p0 + u * 4 + v * 12), cv2.FONT_HERSHEY_SIMPLEX, max(0.3, size / 100), ink, 1, cv2.LINE_AA)
    return poly, 0.01


OBJECTS = {"card": card, "coin": coin, "cup": cup, "phone": phone, "pen": pen, "score_sheet": score_sheet}


def arm(img, rng, start, end, tile_w: float, shadow: ShadowLayer | None, skin=None) -> list[np.ndarray]:
    """A forearm from `start` (table edge) to a hand at `end`; returns its polygons (they cover what lies below)."""
    s, e = np.asarray(start, np.float64), np.asarray(end, np.float64)
    d = e - s
    dist = max(1.0, float(np.hypot(*d)))
    u = d / dist
    v = np.array([-u[1], u[0]])
    fw = tile_w * float(rng.uniform(2.0, 3.0))  # forearm width
    skin = skin or _jitter(rng, SKIN[int(rng.integers(len(SKIN)))], 10)
    sleeve = _jitter(rng, [(40, 40, 40), (150, 80, 30), (30, 30, 160), (200, 200, 200), (60, 100, 60)][int(rng.integers(5))], 20)
    wrist = e - u * fw * 0.75  # reaches into the palm: no gap at the wrist
    forearm = np.array([s - v * fw * 0.6, wrist - v * fw * 0.42, wrist + v * fw * 0.42, s + v * fw * 0.6])
    palm_c = e - u * fw * 0.45
    palm = rounded_rect(palm_c, math.atan2(u[1], u[0]), fw * 1.2, fw * 1.0, fw * 0.45, n_arc=5)
    fingers = []
    for k in range(4):
        base = e - u * fw * 0.05 + v * fw * (-0.36 + 0.24 * k)
        flen = fw * float(rng.uniform(0.45, 0.7)) * (0.8 if k in (0, 3) else 1.0)
        fang = math.atan2(u[1], u[0]) + float(rng.normal(0, 0.12))
        fingers.append(rounded_rect(base + np.array([math.cos(fang), math.sin(fang)]) * flen / 2, fang, flen, fw * 0.2, fw * 0.09))
    side = 1 if rng.random() < 0.5 else -1
    tang = math.atan2(u[1], u[0]) + side * 0.9
    tl = fw * 0.55
    thumb_base = palm_c + v * side * fw * 0.45
    thumb = rounded_rect(thumb_base + np.array([math.cos(tang), math.sin(tang)]) * tl / 2, tang, tl, fw * 0.24, fw * 0.1)
    parts = [forearm, palm, thumb, *fingers]
    if shadow is not None:
        for p in parts:
            shadow.add(p, tile_w * float(rng.uniform(1.0, 2.5)))
    dark = tuple(int(x * 0.72) for x in skin)
    edge = max(1, int(round(fw * 0.05)))
    for p in parts:  # the silhouette's darker rim, then the skin over it
        cv2.polylines(img, [np.round(p * ONE).astype(np.int32).reshape(-1, 1, 2)], True, dark, edge, cv2.LINE_AA, SHIFT)
    for p in parts:
        fill_poly(img, p, skin)
    # a soft ridge of light along the forearm
    hi = tuple(min(255, int(x * 1.05) + 4) for x in skin)
    ridge = np.array([s + v * fw * 0.1, wrist + v * fw * 0.08, wrist + v * fw * 0.22, s + v * fw * 0.28])
    fill_poly(img, ridge, hi)
    cuff = np.array([s - v * fw * 0.62, s + u * dist * 0.45 - v * fw * 0.55, s + u * dist * 0.45 + v * fw * 0.55, s + v * fw * 0.62])
    if rng.random() < 0.7:
        fill_poly(img, cuff, sleeve)
    return parts
