"""Reading with an enrolled set's profile (`dominocam enrol`; `read`, `recount`, `eval --set`).

`apply_profile` re-decides halves of a frame's face-up tiles from what the profile knows of the
set: the tile is cut at its box's middle where the divider the reader found lies off it (a column
of pips taken for it, the six across) or where the set has no line; blobs of another size than the
set's pips, and a set's centre pin, are no pips; where the pips left match the enrolled positions
of their count and not those of the value read, the count is taken; a half of the set's body
colour with nothing on it is its blank. Nothing else of the reading changes (the layout is built
after it).
"""

from __future__ import annotations

import logging
from dataclasses import replace

import numpy as np

from vision.read.assign import assign
from vision.read.enrol import cut_tile
from vision.read.pips import Blob
from vision.read.setprofile import SetProfile
from vision.read.tile import HalfCut, TileRead

log = logging.getLogger(__name__)

PIP_SIZE = (0.45, 2.2)  # a blob of this share of the enrolled pip's area can be a pip
PIN_ZONE = 0.18  # of the half, from the divider: where a set's centre pin shows
MATCH = 0.1  # of the half: the farthest a pip may lie from its enrolled place
MAX_SHIFT = 0.15  # of the half: how far a box off its tile may have moved all the pips
CONFIDENCE = 0.9  # a half re-decided by the profile
# A blank: the half's body within this distance of the set's in colour (a, b: the light changes its
# lightness from photo to photo, 157 against 250 in a pair of renders), and nothing on it (inside a border
# of BLANK_BORDER of the half) as far from it as BLANK_CONTRAST of the set's pip contrast. The
# classifier takes a blank with no divider, or beside a pin, for no tile face now and then.
BODY_MATCH = 15.0
SAME_BODY = 20.0  # Lab distance between the two halves' bodies of one tile
BLANK_BORDER = 0.12
BLANK_CONTRAST = 0.4
SURE = 0.9  # a half read at this confidence or more is changed only as `_overrules` says
# In smaller tiles blur and JPEG make blobs of noise that can match a template (held-out renders,
# defocus: a 34 px tile's 4 taken for 5): a sure reading of them stands, but where the set lays a
# value out as the half classifier never saw (the six across, which it reads as 4 surely).
MIN_SURE_TILE_PX = 40.0


def _canonical(blobs: tuple[Blob, ...], k: int) -> np.ndarray:
    pts = np.array([[b.x, b.y] for b in blobs], float).reshape(-1, 2)
    return 1.0 - pts if k == 0 else pts


def match_error(pts: np.ndarray, template: tuple[tuple[float, float], ...]) -> float:
    """The farthest a point lies from its place in the template (one to one, after moving the
    points together by up to MAX_SHIFT to the template's centre), as a share of the half; inf when
    the counts differ."""
    if len(pts) != len(template):
        return float("inf")
    if not len(pts):
        return 0.0
    ref = np.asarray(template, float)
    if len(pts) >= 2:  # a box a little off the tile shifts every pip alike
        shift = ref.mean(axis=0) - pts.mean(axis=0)
        pts = pts + shift * min(1.0, MAX_SHIFT / max(float(np.hypot(*shift)), 1e-9))
    cost = np.linalg.norm(pts[:, None] - ref[None], axis=2)
    return float(cost[np.arange(len(pts)), assign(cost)].max())


def profile_pips(blobs: tuple[Blob, ...], k: int, profile: SetProfile) -> tuple[np.ndarray, int]:
    """A half's pips as the set has them (blobs of its pip size, canonical positions) and how many
    blobs were left out as the set's centre pin."""
    lo, hi = PIP_SIZE[0] * profile.pip_area, PIP_SIZE[1] * profile.pip_area
    keep = tuple(b for b in blobs if lo <= b.area <= hi)
    pts = _canonical(keep, k)
    if profile.divider in ("pin", "pin_line") and len(pts):
        pin = (pts[:, 0] < PIN_ZONE) & (np.abs(pts[:, 1] - 0.5) < PIN_ZONE)
        return pts[~pin], int(pin.sum())
    return pts, 0


def profile_value(pts: np.ndarray, profile: SetProfile) -> int | None:
    """The value whose enrolled pips these are (within MATCH), else None."""
    n = len(pts)
    if n > 6 or (n and len(profile.pips[n]) != n):
        return None
    return n if match_error(pts, profile.pips[n]) <= MATCH else None


def is_blank(cut: HalfCut, k: int, profile: SetProfile, other: HalfCut) -> bool:
    """Whether a half is the set's blank: its body has the set's body colour and the `other` half's
    (under the same light: a hand over one half has a colour of its own), and nothing on it, away
    from the divider (a pin) and the outline, differs from it by half a pip's contrast."""
    if float(np.linalg.norm(np.asarray(cut.body, float)[1:] - np.asarray(profile.body, float)[1:])) > BODY_MATCH:
        return False
    if float(np.linalg.norm(np.asarray(cut.body, float) - np.asarray(other.body, float))) > SAME_BODY:
        return False
    s = cut.dist.shape[0]
    b = max(1, int(round(BLANK_BORDER * s)))
    d = cut.dist if k == 1 else cut.dist[::-1, ::-1]  # seen from the divider, as the pips
    inner = d[b:s - b, max(b, int(round(PIN_ZONE * s))):s - b]
    return float(np.percentile(inner, 99)) < BLANK_CONTRAST * profile.pip_contrast


def _overrules(n: int, pins: int, value: int | None, confidence: float, small: bool) -> bool:
    """Whether the profile's count `n` replaces the reading (`value` at `confidence`): an unsure or
    unread half, if n is not 0 (no blob is no proof of a blank: a hand over it, a blurred pip);
    a sure one only where the classifier counted fewer pips (the six across read as 4) or the
    set's pin as one (n + pins is what it read); blurred pips merge into fewer blobs, never more.
    (A blank the profile sees, `is_blank`, is taken whatever was read.)
    A `small` tile's sure reading stands (MIN_SURE_TILE_PX, where the caller says so)."""
    if value is None or confidence < SURE:
        return n > 0
    if small:
        return False
    return n > value or (pins > 0 and n + pins == value)


def apply_profile(frame: np.ndarray, tiles: list[TileRead], profile: SetProfile) -> list[TileRead]:
    """The tiles with halves re-decided by the profile (see the module)."""
    out = list(tiles)
    unusual = {6} if profile.arrangements[6] == "across" else set()
    up = [i for i, t in enumerate(tiles) if t.face == "up"]
    cut = {i: cut_tile(frame, tiles[i].quad, middle=profile.divider in ("none", "pin")) for i in up}
    for i in up:
        t = tiles[i]
        small = 2.0 * t.width < MIN_SURE_TILE_PX
        _, halves, cuts, divider = cut[i]
        # a set with a line shows it on a blank's tile too (a hand over a tile hides it)
        may_be_blank = not small and (divider is not None or profile.divider not in ("line", "pin_line"))
        # the cut's halves in the reading's order
        order = (0, 1) if np.linalg.norm(halves[0] - t.halves[0]) <= np.linalg.norm(halves[0] - t.halves[1]) else (1, 0)
        vals, conf, why = list(t.half_values), list(t.half_confidence), list(t.reasons)
        for k in (0, 1):
            c = order[k]
            pts, pins = profile_pips(cuts[c].blobs.blobs, c, profile)
            n = profile_value(pts, profile)
            blank = n == 0 and may_be_blank and is_blank(cuts[c], c, profile, cuts[1 - c])
            if n is not None and n != vals[k] and (blank or _overrules(n, pins, vals[k], conf[k],
                                                                     small and n not in unusual)):
                was = "nothing" if vals[k] is None else str(vals[k])
                vals[k], conf[k], why[k] = n, CONFIDENCE, f"the set's profile: its {n} (read {was})"
        if (vals[0], vals[1]) != t.half_values:
            log.debug("tile at %s: %s -> %s by the set's profile", np.round(t.halves.mean(axis=0)), t.half_values, vals)
            out[i] = replace(t, half_values=(vals[0], vals[1]), half_confidence=(conf[0], conf[1]),
                             reasons=(why[0], why[1]))
    return out
