"""The looks of the sets and scenes clubs have, each a named factor (issue 23).

Our renderer once drew one kind of set: one pip layout per value, a divider on every tile, gaps
that never look like a divider. A `Look` pins what a scene looks like: how the set is made (its
six, divider, pips, body) and how it is photographed (blur, JPEG, tilt, light, table). The
evaluation renders the same scenes once per factor, each one change from the plain `BASELINE`
(`dominocam eval --matrix`); training draws the set's factors at random (`random_variant`).

A look changes a scene's style after it is drawn and its photograph after it is taken, never the
random stream in between: the same seed lays the same tiles under every look, so two factors differ
in that factor only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from vision.synth.styles import VALUE_COLOR_SETS, TileStyle

Restyle = Callable[[TileStyle], TileStyle]

WHITE, BLACK_PIP = (245, 245, 242), (22, 22, 22)


def _same(style: TileStyle) -> TileStyle:
    return style


def plain_white(style: TileStyle) -> TileStyle:
    """The baseline set: white body, black pips, a black line divider, round pips of the usual size."""
    return replace(style, body=WHITE, side=(170, 170, 168), pip_colors=(BLACK_PIP,) * 7, divider=BLACK_PIP,
                   divider_len=0.7, divider_thick=0.04, pin=None, pip_radius=0.0875, pip_spread=0.265,
                   plain=True, six="along", divider_kind="line", pip_kind="round", worn=0.0,
                   gloss=min(style.gloss, 0.5))


@dataclass(frozen=True)
class Look:
    """What a scene looks like. `None` leaves a choice to the renderer's random draw."""

    name: str
    about: str
    restyle: Restyle = _same  # applied to every set of the scene, after plain_white
    blur: str | None = "none"  # none | gauss | motion
    blur_sigma: float = 1.4
    jpeg: int | None = 90
    max_tilt_deg: float = 8.0
    surface: str | None = "felt"
    length_px: float | None = None  # tile long side in output pixels
    noise: float | None = 1.5  # sensor noise sigma
    warm: float = 0.0  # colour cast toward red (>0)
    gap: float | None = None  # chain gaps as a share of the tile width (0: touching end to end)
    glare: bool = False
    plain: bool = True  # start from plain_white

    def style(self, style: TileStyle) -> TileStyle:
        return self.restyle(plain_white(style) if self.plain else style)


def _set(**fields) -> Restyle:
    return lambda s: replace(s, **fields)


def _black(s: TileStyle) -> TileStyle:
    white = (235, 235, 232)
    # a black set's back is black too: a face-down tile is a plain black body
    return replace(s, body=(28, 28, 30), side=(18, 18, 20), pip_colors=(white,) * 7, divider=white,
                   back=(30, 30, 32), back_pattern="plain")


def _value_colours(s: TileStyle) -> TileStyle:
    return replace(s, pip_colors=tuple(VALUE_COLOR_SETS[0]), plain=False)


def _scale_pips(f: float) -> Restyle:
    return lambda s: replace(s, pip_radius=s.pip_radius * f)


BASELINE = Look("baseline", "plain white set, black pips, a line divider, felt table, sharp photo")

FACTORS: dict[str, Look] = {look.name: look for look in [
    BASELINE,
    # how the set is made
    Look("six_across", "the six as three rows of two across the half", _set(six="across")),
    Look("no_divider", "no divider line at all", _set(divider_kind="none")),
    Look("faint_divider", "a faint, thin divider line", _set(divider_kind="faint")),
    Look("groove", "the divider a groove cut in the body", _set(divider_kind="groove")),
    Look("pin", "a brass pin at the centre, no line", _set(divider_kind="pin")),
    Look("pin_line", "a brass pin on the divider line", _set(divider_kind="pin_line")),
    Look("small_pips", "pips 60 % of the usual size", _scale_pips(0.6)),
    Look("big_pips", "pips 130 % of the usual size", _scale_pips(1.3)),
    Look("engraved", "engraved pips: a dark ring round a pale floor", _set(pip_kind="engraved")),
    Look("ivory", "an ivory body", _set(body=(200, 228, 240), side=(140, 160, 170))),
    Look("black", "black tiles, white pips, black backs", _black),
    Look("green_body", "a green body, white pips", _set(body=(60, 110, 20), side=(40, 70, 14),
                                                         pip_colors=((235, 235, 235),) * 7, divider=(235, 235, 235))),
    Look("value_colours", "a colour per pip value", _value_colours),
    # how the table lies and is photographed
    Look("touching", "chain tiles touching end to end, no gap", gap=0.0),
    Look("motion_blur", "motion blur", blur="motion"),
    Look("defocus", "defocus (a Gaussian blur of 1.4 px)", blur="gauss"),
    Look("jpeg40", "JPEG quality 40", jpeg=40),
    Look("small_tiles", "tiles 30 px long", length_px=30.0),
    Look("tilt", "a camera tilted up to 30 degrees", max_tilt_deg=30.0),
    Look("noise", "strong sensor noise", noise=7.0),
    Look("warm_light", "warm light (a tungsten lamp)", warm=0.25),
    Look("glare", "glossy tiles with glare", _set(gloss=1.0), glare=True),
    Look("dark_wood", "a dark wooden table", surface="wood"),
    Look("cloth", "a patterned cloth", surface="cloth"),
]}


def look(name: str) -> Look:
    """The factor called `name`; a clear error naming the factors otherwise."""
    try:
        return FACTORS[name]
    except KeyError:
        raise ValueError(f"no look called {name!r}; the looks are: {', '.join(FACTORS)}") from None


# Training draws the set's make at random (domain randomisation): these shares of scenes.
SIX_ACROSS_SHARE = 0.5
DIVIDER_SHARES = {"line": 0.45, "none": 0.12, "faint": 0.1, "groove": 0.1, "pin": 0.12, "pin_line": 0.11}
ENGRAVED_SHARE = 0.15
PIP_SCALE = (0.6, 1.4)


def random_variant(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """A style with its set's make drawn at random: the six's arrangement, the divider's kind, pip
    size and kind, black backs for black sets. `rng` is the scene's own side stream (the scene's
    main stream stays as without variants)."""
    kinds = list(DIVIDER_SHARES)
    p = np.array([DIVIDER_SHARES[k] for k in kinds])
    kind = str(rng.choice(kinds, p=p / p.sum()))
    scale = float(np.exp(rng.uniform(np.log(PIP_SCALE[0]), np.log(PIP_SCALE[1]))))
    # big pips must still fit their half: the spread leaves at least a pip's gap between them
    radius = min(style.pip_radius * scale, 0.45 * style.pip_spread)
    out = replace(style, six="across" if rng.random() < SIX_ACROSS_SHARE else "along", divider_kind=kind,
                  pip_kind="engraved" if rng.random() < ENGRAVED_SHARE else "round", pip_radius=radius)
    if sum(style.body) < 150 and rng.random() < 0.6:
        out = replace(out, back=tuple(int(x) for x in style.body), back_pattern="plain")
    return out
