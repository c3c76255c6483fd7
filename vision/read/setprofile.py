"""A club's set as `dominocam enrol` measured it: colours, pip size and layouts, divider, size.

Written as JSON (`set.json` by default) and read back by `read`, `recount` and `serve --set`
(`vision.read.profile` applies it). Colours are OpenCV's 8-bit Lab (L, a, b each 0..255, as the
reader works in); `to_dict` adds an sRGB hex code beside each for people.

A half's pip positions are in the half's own frame seen from the divider: x runs from the divider
(0) to the tile's end (1), y across the tile (0..1), turned so that both halves of a tile and any
tile turned round give the same positions (a tile's halves are drawn 180 degrees apart).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

VERSION = 1
DIVIDER_KINDS = ("line", "pin_line", "pin", "none")

Lab = tuple[float, float, float]
Point = tuple[float, float]


class ProfileError(ValueError):
    """A set profile file that cannot be used; the message says what to do."""


def lab_to_hex(lab: Lab) -> str:
    px = np.array([[lab]], dtype=np.float32).clip(0, 255).astype(np.uint8)
    b, g, r = (int(x) for x in cv2.cvtColor(px, cv2.COLOR_LAB2BGR)[0, 0])
    return f"#{r:02x}{g:02x}{b:02x}"


@dataclass(frozen=True)
class SetProfile:
    """One set's measurements (see the module's docstring for units and frames)."""

    image: str  # the enrolment photo
    body: Lab  # the face's colour
    pip_colours: tuple[Lab | None, ...]  # per value 0..6 (None for 0: no pips)
    pip_contrast: float  # median Lab distance of a pip's core to the body
    pip_area: float  # one pip's area, share of a half's area
    divider: str  # line | pin_line | pin | none (as measured)
    divider_seen: float  # share of tiles whose divider line the reader found
    arrangements: tuple[str, ...]  # per value 0..6, in words (the six: "along" or "across")
    pips: tuple[tuple[Point, ...], ...]  # per value 0..6: the pips' positions (see the module)
    tile_length_px: float  # median tile long side in the enrolment photo
    tile_width_px: float
    tiles: int = 28
    version: int = VERSION

    @property
    def ratio(self) -> float:
        return self.tile_length_px / max(self.tile_width_px, 1e-9)

    @property
    def pip_diameter(self) -> float:
        """A pip's diameter as a share of the half's side."""
        return float(2.0 * np.sqrt(self.pip_area / np.pi))

    def to_dict(self) -> dict:
        def colour(lab: Lab | None) -> dict | None:
            return None if lab is None else {"lab": [round(float(x), 1) for x in lab], "rgb": lab_to_hex(lab)}

        return {
            "version": self.version,
            "image": self.image,
            "tiles": self.tiles,
            "body": colour(self.body),
            "pip_colours": {str(v): colour(c) for v, c in enumerate(self.pip_colours)},
            "pip_contrast": round(self.pip_contrast, 1),
            "pip_area": round(self.pip_area, 5),
            "pip_diameter": round(self.pip_diameter, 4),
            "divider": self.divider,
            "divider_seen": round(self.divider_seen, 3),
            "arrangements": {str(v): a for v, a in enumerate(self.arrangements)},
            "pips": {str(v): [[round(x, 3), round(y, 3)] for x, y in pts] for v, pts in enumerate(self.pips)},
            "tile_length_px": round(self.tile_length_px, 1),
            "tile_width_px": round(self.tile_width_px, 1),
            "ratio": round(self.ratio, 3),
        }

    @classmethod
    def from_dict(cls, d: dict) -> SetProfile:
        try:
            if d.get("version") != VERSION:
                raise ProfileError(f"set profile version {d.get('version')!r}, this dominocam reads "
                                   f"version {VERSION}: enrol the set again")

            def lab(c) -> Lab | None:
                return None if c is None else tuple(float(x) for x in c["lab"])  # type: ignore[return-value]

            pips = tuple(tuple((float(x), float(y)) for x, y in d["pips"][str(v)]) for v in range(7))
            for v, pts in enumerate(pips):
                if len(pts) not in (0, v):  # none: no half of the value was counted clearly
                    raise ProfileError(f"value {v} has {len(pts)} pip positions: enrol the set again")
            if d["divider"] not in DIVIDER_KINDS:
                raise ProfileError(f"unknown divider kind {d['divider']!r}: enrol the set again")
            return cls(
                image=str(d["image"]), body=lab(d["body"]),
                pip_colours=tuple(lab(d["pip_colours"][str(v)]) for v in range(7)),
                pip_contrast=float(d["pip_contrast"]), pip_area=float(d["pip_area"]),
                divider=str(d["divider"]), divider_seen=float(d["divider_seen"]),
                arrangements=tuple(str(d["arrangements"][str(v)]) for v in range(7)), pips=pips,
                tile_length_px=float(d["tile_length_px"]), tile_width_px=float(d["tile_width_px"]),
                tiles=int(d.get("tiles", 28)), version=int(d["version"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, ProfileError):
                raise
            raise ProfileError(f"not a set profile ({type(exc).__name__}: {exc}): "
                               "make one with `dominocam enrol PHOTO`") from None


def save_profile(profile: SetProfile, path: str | Path) -> None:
    Path(path).write_text(json.dumps(profile.to_dict(), indent=1) + "\n")


def load_profile(path: str | Path) -> SetProfile:
    """The profile in `path`. Raises ProfileError with what to do."""
    p = Path(path)
    if not p.is_file():
        raise ProfileError(f"{p}: no such set profile: make one with `dominocam enrol PHOTO --out {p}`")
    try:
        d = json.loads(p.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{p}: not JSON ({exc}): make one with `dominocam enrol PHOTO --out {p}`") from None
    if not isinstance(d, dict):
        raise ProfileError(f"{p}: not a set profile: make one with `dominocam enrol PHOTO --out {p}`")
    try:
        return SetProfile.from_dict(d)
    except ProfileError as exc:
        raise ProfileError(f"{p}: {exc}") from None
