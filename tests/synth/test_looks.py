"""The looks of sets and scenes (issue 23): each a named factor, one change from the baseline."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.dataset import image_rng
from vision.synth.looks import BASELINE, FACTORS, look, random_variant
from vision.synth.scene import render_scene
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face, pip_layout


def _render(name: str):
    return render_scene(image_rng(5, 1), (640, 480), kind="chain", look=FACTORS[name])


def test_every_look_lays_the_same_tiles_as_the_baseline():
    base = _render("baseline")
    for name in ("six_across", "no_divider", "pin", "black", "jpeg40", "touching"):
        other = _render(name)
        assert [t.values for t in other.tiles] == [t.values for t in base.tiles], name
        if name != "touching":  # touching moves chain tiles together, nothing else
            assert np.allclose([t.center for t in other.tiles], [t.center for t in base.tiles]), name
        if name == "jpeg40":
            assert other.jpeg_quality == 40 and base.jpeg_quality == 90
        else:
            assert not np.array_equal(other.image, base.image), f"{name} looks like the baseline"


def test_the_baseline_is_one_plain_set_whatever_the_scene_drew():
    for i in range(4):
        r = render_scene(image_rng(7, i), (640, 480), kind="chain", look=BASELINE)
        styles = {(t.style.body, t.style.six, t.style.divider_kind, t.style.pip_colors) for t in r.tiles}
        assert styles == {((245, 245, 242), "along", "line", ((22, 22, 22),) * 7)}


def test_touching_tiles_meet_end_to_end():
    r = _render("touching")
    gaps = []
    for t in r.tiles:
        if t.parent is None or t.values[0] == t.values[1] or r.tiles[t.parent].values[0] == r.tiles[t.parent].values[1]:
            continue
        p = r.tiles[t.parent]
        if abs(np.cos(t.angle - p.angle)) > 0.99:  # two lengthwise tiles in a straight run
            gaps.append(np.hypot(*np.subtract(t.center, p.center)) - (t.length + p.length) / 2)
    assert gaps and max(abs(g) for g in gaps) < 0.5


def _dark_blobs(name: str, value: int) -> np.ndarray:
    import cv2

    style = FACTORS[name].style(random_style(np.random.default_rng(0)))
    img = np.full((80, 160, 3), 90, np.uint8)
    draw_face(img, PlacedTile((value, value), (80.0, 40.0), 0.0, 60.0, 2.0, style=style))
    dark = (img.max(axis=2) < 60).astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(dark)
    blobs = cents[1:][stats[1:, cv2.CC_STAT_AREA] < 200]
    return blobs[np.abs(blobs[:, 0] - 80) > 3]  # pips, not the divider bar


def test_the_six_across_is_three_rows_of_two():
    along, across = _dark_blobs("baseline", 6), _dark_blobs("six_across", 6)
    assert len(along) == len(across) == 12
    left = across[across[:, 0] < 80]  # the first half
    assert len(np.unique(np.round(left[:, 0]))) == 2 and len(np.unique(np.round(left[:, 1]))) == 3
    left = along[along[:, 0] < 80]
    assert len(np.unique(np.round(left[:, 0]))) == 3 and len(np.unique(np.round(left[:, 1]))) == 2
    assert pip_layout(6, "across") != pip_layout(6, "along") and pip_layout(4, "across") == pip_layout(4, "along")


def test_no_divider_draws_no_bar_and_a_pin_is_brass():
    import cv2

    def face(name: str) -> np.ndarray:
        style = FACTORS[name].style(random_style(np.random.default_rng(0)))
        img = np.full((80, 160, 3), 90, np.uint8)
        draw_face(img, PlacedTile((0, 0), (80.0, 40.0), 0.0, 60.0, 2.0, style=style))
        return img

    centre = (slice(25, 55), slice(77, 84))
    assert face("baseline")[centre].min() < 60  # the black bar
    assert face("no_divider")[centre].min() > 200  # body only
    hsv = cv2.cvtColor(face("pin")[35:45, 75:85], cv2.COLOR_BGR2HSV)
    assert (hsv[..., 1] > 100).any()  # a saturated (brass) spot at the centre


def test_random_variants_cover_the_makes_and_repeat_with_their_stream():
    rng = np.random.default_rng(3)
    base = [random_style(rng) for _ in range(200)]
    a = [random_variant(s, np.random.default_rng(i)) for i, s in enumerate(base)]
    b = [random_variant(s, np.random.default_rng(i)) for i, s in enumerate(base)]
    assert [(s.six, s.divider_kind, s.pip_radius) for s in a] == [(s.six, s.divider_kind, s.pip_radius) for s in b]
    assert {s.six for s in a} == {"along", "across"}
    assert {s.divider_kind for s in a} == {"line", "none", "faint", "groove", "pin", "pin_line"}
    ratio = np.array([v.pip_radius / s.pip_radius for s, v in zip(base, a, strict=True)])
    assert ratio.min() < 0.7 and ratio.max() > 1.25


def test_an_unknown_look_names_the_looks():
    with pytest.raises(ValueError, match="six_across"):
        look("chrome")
