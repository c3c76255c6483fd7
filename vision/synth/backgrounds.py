"""Table surfaces: felt, wood, cloth patterns, glass, newspapers and printed game boards.

Textures are made at a reduced resolution and scaled up: they only need to look plausible and
vary a lot, and this keeps a 1280x960 scene well inside its time budget.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.styles import _jitter

FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _noise(rng: np.random.Generator, h: int, w: int, scale: int, amount: float) -> np.ndarray:
    """Smooth noise (float32, h x w) with features about `scale` pixels wide."""
    sh, sw = max(2, h // scale + 2), max(2, w // scale + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32) * amount
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _fill(h: int, w: int, color) -> np.ndarray:
    return np.full((h, w, 3), color, np.uint8)


def _add(img: np.ndarray, field: np.ndarray) -> np.ndarray:
    return cv2.add(img, cv2.merge([field, field, field]), dtype=cv2.CV_8U)


def felt(rng, h, w):
    color = _jitter(rng, [(40, 110, 30), (90, 60, 20), (40, 40, 120), (70, 70, 70), (30, 60, 30), (110, 90, 60)][int(rng.integers(6))], 15)
    img = _fill(h, w, color)
    grain = _noise(rng, h, w, 2, 7) + _noise(rng, h, w, 60, 6)
    return _add(img, grain)


def wood(rng, h, w):
    """Straight grain: noise stretched along the grain, plank seams, a little figure (made at half
    resolution: the grain is soft anyway)."""
    img = _wood(rng, h // 2 + 1, w // 2 + 1)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)


def _wood(rng, h, w):
    base = np.array(_jitter(rng, [(40, 80, 130), (60, 110, 170), (25, 45, 75), (90, 140, 190), (35, 60, 95)][int(rng.integers(5))], 12), np.float32)
    side = int(math.hypot(h, w)) + 2
    stretch = int(rng.integers(10, 40))
    fine = cv2.resize(rng.standard_normal((side // stretch + 2, side + 2)).astype(np.float32), (side, side), interpolation=cv2.INTER_LINEAR)
    coarse = cv2.resize(rng.standard_normal((side // (stretch * 4) + 2, side // 25 + 2)).astype(np.float32), (side, side), interpolation=cv2.INTER_CUBIC)
    field = fine * float(rng.uniform(4, 10)) + coarse * float(rng.uniform(6, 16))
    plank = int(rng.uniform(45, 150))
    cols = np.arange(side)
    seams = (cols % plank < 2).astype(np.float32) * float(rng.uniform(20, 50))
    field = field + seams[None, :]
    # the grain runs along y of `field`; rotate it to a random direction
    ang = float(rng.choice([0.0, 90.0])) if rng.random() < 0.7 else float(rng.uniform(0, 180))
    rot = cv2.getRotationMatrix2D((side / 2, side / 2), ang, 1.0)
    rot[:, 2] += np.array([w / 2 - side / 2, h / 2 - side / 2])
    field = cv2.warpAffine(field, rot, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    img = np.full((h, w, 3), tuple(int(v) for v in base), np.uint8)
    return cv2.subtract(img, cv2.merge([field, field, field]), dtype=cv2.CV_8U)


def cloth(rng, h, w):
    c1 = np.array(_jitter(rng, (230, 230, 230), 20), np.float32)
    c2 = np.array(_jitter(rng, [(40, 40, 180), (160, 80, 30), (40, 130, 40), (30, 30, 30), (40, 160, 200)][int(rng.integers(5))], 20), np.float32)
    period = float(rng.uniform(12, 70))
    sh, sw = h // 3 + 1, w // 3 + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * 3
    kind = rng.integers(3)
    if kind == 0:  # gingham
        a = ((xx // period) % 2).astype(np.float32)
        b = ((yy // period) % 2).astype(np.float32)
        m = (a + b) / 2
    elif kind == 1:  # stripes
        m = ((xx * 0.7 + yy * 0.3) // period % 2).astype(np.float32)
    else:  # polka dots
        m = (((xx % period) - period / 2) ** 2 + ((yy % period) - period / 2) ** 2 < (period * 0.25) ** 2).astype(np.float32)
    img = c1[None, None] * (1 - m[..., None]) + c2[None, None] * m[..., None]
    img = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (w, h))
    return _add(img, _noise(rng, h, w, 2, 5))


def glass(rng, h, w):
    img = _fill(h, w, _jitter(rng, (60, 55, 45), 15))
    yy, xx = np.mgrid[0:h // 4 + 1, 0:w // 4 + 1].astype(np.float32)
    streak = np.sin((xx + yy * float(rng.uniform(-1, 1))) * float(rng.uniform(0.01, 0.04))) * 25
    return _add(img, cv2.resize(streak, (w, h)) + _noise(rng, h, w, 3, 3))


def plain(rng, h, w):
    img = _fill(h, w, _jitter(rng, [(200, 200, 200), (120, 130, 140), (60, 60, 60), (180, 200, 210)][int(rng.integers(4))], 25))
    return _add(img, _noise(rng, h, w, 80, 8) + _noise(rng, h, w, 2, 3))


def random_text(rng, n: int) -> str:
    lengths = rng.integers(2, 9, n)
    codes = rng.integers(0, 26, int(lengths.sum()))
    chars = "".join(LETTERS[c] for c in codes)
    words, pos = [], 0
    for k in lengths:
        words.append(chars[pos:pos + k])
        pos += k
    return " ".join(words)


def newspaper(rng, h, w):
    img = _fill(h, w, _jitter(rng, (215, 222, 225), 8))
    ink = _jitter(rng, (40, 40, 40), 10)
    scale = float(rng.uniform(0.35, 0.8))
    line_h = int(28 * scale) + 2
    ncols = int(rng.integers(2, 6))
    col_w = w // ncols
    y = int(rng.uniform(0, 60))
    cv2.putText(img, random_text(rng, 3).upper(), (10, y + int(60 * scale)), FONTS[int(rng.integers(len(FONTS)))], scale * 2.2, ink, 2, cv2.LINE_AA)
    top = y + int(90 * scale)
    for c in range(ncols):
        yy = top
        while yy < h:
            if rng.random() < 0.03:  # a photo block
                bh = int(rng.uniform(60, 200))
                cv2.rectangle(img, (c * col_w + 8, yy), ((c + 1) * col_w - 8, yy + bh), _jitter(rng, (120, 120, 120), 40), -1)
                yy += bh + line_h
                continue
            cv2.putText(img, random_text(rng, 12), (c * col_w + 8, yy), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1, cv2.LINE_AA)
            yy += line_h
        cv2.rectangle(img, ((c + 1) * col_w - 8, top), ((c + 1) * col_w - 7, h), ink, -1)
    img[:] = np.minimum(img, 255)
    return img


SURFACES = {"felt": felt, "wood": wood, "cloth": cloth, "glass": glass, "plain": plain, "newspaper": newspaper}
SURFACE_WEIGHTS = {"felt": 0.22, "wood": 0.3, "cloth": 0.15, "glass": 0.06, "plain": 0.12, "newspaper": 0.15}


def random_surface(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> tuple[np.ndarray, str]:
    names = list(SURFACE_WEIGHTS)
    if kind is None:
        p = np.array([SURFACE_WEIGHTS[n] for n in names])
        kind = str(rng.choice(names, p=p / p.sum()))
    return SURFACES[kind](rng, h, w), kind
