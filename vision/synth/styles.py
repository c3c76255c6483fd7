"""Random tile styles: body and pip colours, divider, pin, corners, thickness, backs.

Domain randomisation: the detector must not learn one set's look, so every scene draws its own
style (and a few scenes mix two sets).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Color = tuple[int, int, int]  # BGR

# Common "coloured pips" sets: one colour per value 1..6 (index 0 unused).
VALUE_COLOR_SETS: list[list[Color]] = [
    [(0, 0, 0), (40, 40, 200), (40, 140, 40), (170, 60, 40), (20, 150, 230), (120, 40, 140), (30, 30, 30)],
    [(0, 0, 0), (200, 80, 30), (30, 30, 190), (30, 150, 60), (150, 40, 150), (0, 120, 200), (60, 60, 60)],
    [(0, 0, 0), (40, 40, 40), (35, 35, 200), (160, 90, 30), (40, 130, 40), (140, 30, 110), (20, 110, 190)],
]


@dataclass(frozen=True)
class TileStyle:
    body: Color
    side: Color
    pip_colors: tuple[Color, ...]  # index = value (0 unused)
    divider: Color
    divider_len: float  # fraction of the tile width
    divider_thick: float  # fraction of the tile width
    pin: Color | None
    corner: float  # corner radius, fraction of width
    pip_radius: float  # fraction of width
    pip_spread: float  # pip offset from the half centre, fraction of width
    ratio: float  # length / width
    thickness: float  # fraction of width (visible side and shadow)
    back: Color
    back_pattern: str  # plain | ring | line | border
    gloss: float  # 0..1 chance-like strength of specular glare
    bevel: float  # darkening of the rim, 0..0.25
    plain: bool  # dark pips on a light body, one colour: the pip-count tests use these
    shade: float = 0.0  # brightness ramp across the face toward the light
    concave: float = 0.0  # how much light the far rim of a drilled pip catches
    worn: float = 0.0  # hairline scratches on the face
    light: np.ndarray = field(default_factory=lambda: np.array([-0.7, -0.7]))  # toward the light
    # How sets differ beyond colour (issue 23; `vision.synth.looks` names each as a factor):
    six: str = "along"  # the six as two rows of three along the tile, or "across": three rows of two
    divider_kind: str = "line"  # line | groove | pin (a brass pin, no line) | pin_line | none | faint
    pip_kind: str = "round"  # round | engraved (a dark ring round a paler floor)


def _jitter(rng: np.random.Generator, color, amount: float) -> Color:
    c = np.asarray(color, dtype=np.float64) + rng.normal(0, amount, 3)
    return tuple(int(v) for v in np.clip(c, 0, 255))


def _darker(color: Color, f: float) -> Color:
    return tuple(int(v * f) for v in color)


def random_style(rng: np.random.Generator, kind: str | None = None) -> TileStyle:
    kinds = ["white", "ivory", "cream", "black", "green", "blue", "red", "valuecolor"]
    weights = [0.26, 0.14, 0.1, 0.12, 0.08, 0.08, 0.07, 0.15]
    if kind is None:
        kind = str(rng.choice(kinds, p=np.array(weights) / sum(weights)))
    light_bodies = {"white": (245, 245, 242), "ivory": (215, 235, 245), "cream": (190, 225, 240)}
    dark_bodies = {"black": (25, 25, 28), "green": (60, 110, 20), "blue": (140, 60, 20), "red": (40, 30, 160)}
    plain = False
    if kind in light_bodies or kind == "valuecolor":
        body = _jitter(rng, light_bodies.get(kind, (235, 240, 242)), 6)
        if kind == "valuecolor":
            pips = tuple(VALUE_COLOR_SETS[int(rng.integers(len(VALUE_COLOR_SETS)))])
            pips = tuple(_jitter(rng, c, 8) for c in pips)
            divider = _jitter(rng, (40, 40, 40), 10) if rng.random() < 0.6 else (40, 160, 200)
        else:
            pip = _jitter(rng, (20, 20, 20), 8)
            if rng.random() < 0.1:
                pip = _jitter(rng, (120, 40, 30), 10)  # dark blue pips
            pips = (pip,) * 7
            divider = pip if rng.random() < 0.75 else _jitter(rng, (40, 150, 200), 10)
            plain = True
    else:
        body = _jitter(rng, dark_bodies[kind], 12)
        pip = _jitter(rng, (240, 240, 240), 8)
        if kind != "black" and rng.random() < 0.2:
            pip = _jitter(rng, (30, 30, 30), 5)
        pips = (pip,) * 7
        divider = pip if rng.random() < 0.7 else _jitter(rng, (40, 170, 210), 10)
    side_f = float(rng.uniform(0.55, 0.8))
    if rng.random() < 0.35:
        back = _jitter(rng, body, 10)
    else:
        back = _jitter(rng, [(30, 30, 30), (60, 100, 30), (120, 50, 20), (30, 30, 150), (230, 230, 230)][int(rng.integers(5))], 12)
    return TileStyle(
        body=body,
        side=_darker(body, side_f) if rng.random() < 0.7 else _jitter(rng, (30, 30, 30), 10),
        pip_colors=pips,
        divider=divider,
        divider_len=float(rng.uniform(0.45, 0.9)),
        divider_thick=float(rng.uniform(0.025, 0.06)),
        pin=_jitter(rng, (60, 160, 200), 20) if rng.random() < 0.3 else None,
        corner=float(rng.uniform(0.06, 0.2)),
        pip_radius=float(rng.uniform(0.075, 0.1)),
        pip_spread=float(rng.uniform(0.24, 0.29)),
        ratio=float(rng.uniform(1.92, 2.08)),
        thickness=float(rng.uniform(0.25, 0.5)),
        back=back,
        back_pattern=str(rng.choice(["plain", "plain", "ring", "line", "border"])),
        gloss=float(rng.uniform(0.0, 1.0)),
        bevel=float(rng.uniform(0.03, 0.2)),
        plain=plain,
        shade=float(rng.uniform(0.0, 0.1)) if rng.random() < 0.6 else 0.0,
        concave=float(rng.uniform(0.1, 0.35)) if rng.random() < 0.5 else 0.0,
        light=np.array([np.cos(a := float(rng.uniform(0, 2 * np.pi))), np.sin(a)]),
        worn=float(rng.uniform(0.2, 1.0)) if rng.random() < 0.3 else 0.0,
    )
