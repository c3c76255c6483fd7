"""Pip reading counts pips wherever they lie (issue 23): a six in either arrangement reads 6, a
brass pin at the centre is no pip, a tile with no divider reads right. Tiles drawn by the renderer
(`vision.synth.tiles.draw_face`) in the looks of `vision.synth.looks`, read from their exact box."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.read.box import box_from_corners
from vision.read.tile import read_tiles
from vision.synth.looks import FACTORS
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face

ALL_28 = [(a, b) for a in range(7) for b in range(a, 7)]


def _read_all(look: str, values: list[tuple[int, int]], length: float, seed: int = 0,
              shade_at: float | None = None) -> list[tuple]:
    """Draw each tile of `values` in `look` at `length` px, at an angle, on a felt-green table, and
    read them all back; returns (truth, read) for the wrong ones. `shade_at`: a shadow over each
    tile from a straight edge across it, that share of its length from its centre."""
    style = FACTORS[look].style(random_style(np.random.default_rng(seed)))
    rng = np.random.default_rng(seed + 1)
    cell = int(length * 1.6)
    cols = 7
    rows = math.ceil(len(values) / cols)
    frame = np.zeros((rows * cell, cols * cell, 3), np.uint8)
    frame[:] = (40, 90, 30)
    tiles = []
    for n, v in enumerate(values):
        c = ((n % cols + 0.5) * cell, (n // cols + 0.5) * cell)
        t = PlacedTile(v, c, float(rng.uniform(-math.pi, math.pi)), length / 2.0, 2.0, style=style)
        draw_face(frame, t)
        tiles.append(t)
    if shade_at is not None:
        ys, xs = np.mgrid[: frame.shape[0], : frame.shape[1]]
        dark = np.zeros(frame.shape[:2], bool)
        for t in tiles:
            ux, uy = math.cos(t.angle), math.sin(t.angle)
            along = (xs - t.center[0]) * ux + (ys - t.center[1]) * uy
            across = -(xs - t.center[0]) * uy + (ys - t.center[1]) * ux
            dark |= (along < -shade_at * length) & (np.hypot(along, across) < cell / 2)
        frame[dark] = (frame[dark] * 0.72).astype(np.uint8)
    frame = cv2.GaussianBlur(frame, (3, 3), 0.6)
    jobs = [(box_from_corners(t.corners()), "up", 0.9) for t in tiles]
    wrong = []
    for t, r in zip(tiles, read_tiles(frame, jobs), strict=True):
        got = r.half_values
        if np.hypot(*(r.halves[0] - t.halves()[0])) > np.hypot(*(r.halves[0] - t.halves()[1])):
            got = got[::-1]
        if tuple(got) != t.values:
            wrong.append((t.values, got))
    return wrong


@pytest.mark.parametrize("look", ["baseline", "six_across"])
@pytest.mark.parametrize("length", [44.0, 70.0, 110.0])
def test_a_six_reads_six_in_either_arrangement(look, length):
    sixes = [(6, v) for v in range(7)] + [(v, 6) for v in range(6)]
    assert _read_all(look, sixes, length) == []


@pytest.mark.parametrize("look", ["pin", "pin_line"])
def test_a_pin_at_the_centre_is_not_a_pip(look):
    # the blank, the four and the two: a pin counted as a pip makes them 1, 5 and 3
    for length in (50.0, 90.0):
        assert _read_all(look, ALL_28, length) == [], length


@pytest.mark.parametrize("look", ["pin", "no_divider"])
def test_the_edge_of_a_shadow_across_a_tile_is_no_divider(look):
    # held-out live deal h20: a shadow's edge 15 px off a pinned 0-0's centre was taken for its
    # divider, and the pin then read as the 1 of a 1-0
    tiles = [(0, 0), (0, 4), (2, 2), (1, 3), (0, 5), (4, 6)]
    for at in (0.12, 0.16, 0.2):
        wrong = _read_all(look, tiles, 50.0, shade_at=at)
        assert all(truth == (0, 0) and set(got) <= {0, None} for truth, got in wrong), (at, wrong)


@pytest.mark.parametrize("look", ["no_divider", "faint_divider", "groove"])
def test_a_tile_without_a_line_reads_right(look):
    for length in (50.0, 90.0):
        wrong = _read_all(look, ALL_28, length)
        if look == "no_divider":
            # A blank double with no divider is plain body all over, as a back or a plain table is:
            # left unread, in part or whole (never misread) unless the set is enrolled (`dominocam enrol`).
            assert all(truth == (0, 0) and set(got) <= {0, None} for truth, got in wrong), (length, wrong)
        else:
            assert wrong == [], length


def test_a_pinned_tile_boxed_past_its_end_is_read_on_its_body():
    # fresh live deal h155: a 0-1 of a pinned set boxed 60 px long where its tiles are 46, running
    # a quarter tile past its free end onto the table; cut at the box's middle, the pin fell in a
    # half and read as the 1 of a 1-1. Moved onto the tile's body it reads 0-1.
    from vision.read.box import Box
    from vision.read.refit import refit_off_length

    style = FACTORS["pin"].style(random_style(np.random.default_rng(3)))
    length, cell = 46.0, 80
    values = [(0, 1), (0, 4), (0, 2), (3, 5), (1, 6), (2, 6), (4, 5), (0, 0)]
    frame = np.zeros((cell, cell * (len(values) + 1), 3), np.uint8)
    frame[:] = (40, 90, 30)
    tiles = [PlacedTile(v, ((n + 1) * cell, cell / 2), 0.3, length / 2.0, 2.0, style=style)
             for n, v in enumerate(values)]
    for t in tiles:
        draw_face(frame, t)
    frame = cv2.GaussianBlur(frame, (3, 3), 0.6)
    jobs = [(box_from_corners(t.corners()), "up", 0.9) for t in tiles]
    wrong_before = 0
    for k in range(3):  # the tiles whose blank a pin turns to a 1: 0-1, 0-4, 0-2
        exact = jobs[k][0]
        for sign in (-1.0, 1.0):  # past either end
            shift = sign * 0.15 * exact.length
            # long and narrow, as the detector boxed it (60 x 15 px where the tiles are 46 x 23)
            over = Box(exact.cx + shift * exact.ux, exact.cy + shift * exact.uy, exact.ux, exact.uy,
                       1.3 * exact.length, 0.8 * exact.width)
            bad = [*jobs[:k], (over, "up", 0.9), *jobs[k + 1:]]
            before = read_tiles(frame, bad)
            after = refit_off_length(frame, before, bad)
            wrong_before += before[k].values is None or sorted(before[k].values) != sorted(values[k])
            assert sorted(after[k].half_values) == sorted(values[k]), (values[k], sign)
            centre = after[k].quad.mean(axis=0)
            assert np.hypot(centre[0] - exact.cx, centre[1] - exact.cy) < 0.1 * length  # on its body
    assert wrong_before > 0  # read as the detector drew it, the pin is a pip


def test_a_box_run_on_over_the_tile_it_touches_ends_where_that_tile_begins():
    # h155 later in the deal: the 1-6 laid on the 0-1's 1 left it no free end; the 1-6's own box
    # (of the tiles' size) says where the 0-1 ends. A tile cut by the frame's edge keeps its box.
    from vision.read.box import Box
    from vision.read.refit import refit_off_length

    style = FACTORS["pin"].style(random_style(np.random.default_rng(3)))
    length, cell = 46.0, 80
    a, u = np.array([120.0, 40.0]), np.array([1.0, 0.0])
    chain = [PlacedTile((0, 1), tuple(a), 0.0, length / 2, 2.0, style=style),
             PlacedTile((1, 6), tuple(a + u * (length + 1)), 0.0, length / 2, 2.0, style=style)]
    loose = [PlacedTile(v, (60.0 + 70 * n, 130.0), 0.0, length / 2, 2.0, style=style)
             for n, v in enumerate([(3, 5), (2, 6), (4, 5), (0, 0), (2, 2), (0, 0)])]
    frame = np.zeros((2 * cell, 6 * cell, 3), np.uint8)
    frame[:] = (40, 90, 30)
    for t in chain + loose:
        draw_face(frame, t)
    frame = cv2.GaussianBlur(frame, (3, 3), 0.6)
    jobs = [(box_from_corners(t.corners()), "up", 0.9) for t in chain + loose]
    exact = jobs[0][0]
    for sign in (-1.0, 1.0):
        shift = sign * 0.15 * length * (exact.ux if abs(exact.ux) > 0.5 else 1.0)
        over = Box(exact.cx + shift, exact.cy, exact.ux, exact.uy, 1.3 * length, 0.8 * exact.width)
        bad = [(over, "up", 0.9), *jobs[1:]]
        after = refit_off_length(frame, read_tiles(frame, bad), bad)
        assert sorted(after[0].half_values) == [0, 1], sign
        assert abs(after[0].quad.mean(axis=0)[0] - a[0]) < 0.1 * length
    # a tile cut by the frame's left edge: boxed short, and left so
    cut = Box(10.0, 130.0, 1.0, 0.0, 20.0, exact.width)
    edge = [(cut, "up", 0.9), *jobs[1:]]
    before = read_tiles(frame, edge)
    assert refit_off_length(frame, before, edge)[0] is before[0]


def test_a_tile_unboxed_between_two_of_a_straight_run_is_found_and_read():
    # fresh live deal h199 (groove set, camera turned 20 degrees): the 1-6 between 0-1 and 6-3
    # unboxed on every frame. The gap of one tile's length between them shows a tile's body, and
    # the tile read there shows 1 against the 0-1's 1 and 6 against the 6-3's 6: it is kept.
    # Where the table shows between them, or the tile there does not join both, nothing is made up.
    from vision.read.gaps import fill_chain_gaps

    style = FACTORS["groove"].style(random_style(np.random.default_rng(5)))
    length = 50.0
    u = np.array([math.cos(0.35), math.sin(0.35)])
    start = np.array([70.0, 60.0])

    def table(middle: tuple[int, int] | None) -> tuple[np.ndarray, list]:
        chain = [((0, 1), 0), (middle, 1), ((6, 3), 2)]
        placed = [PlacedTile(v, tuple(start + u * (length + 1) * k), 0.35, length / 2, 2.0, style=style)
                  for v, k in chain if v is not None]
        loose = [PlacedTile(v, (60.0 + 70 * n, 200.0), 0.0, length / 2, 2.0, style=style)
                 for n, v in enumerate([(2, 5), (4, 4), (1, 3)])]
        frame = np.zeros((260, 360, 3), np.uint8)
        frame[:] = (40, 90, 30)
        for t in placed + loose:
            draw_face(frame, t)
        frame = cv2.GaussianBlur(frame, (3, 3), 0.6)
        boxed = [t for t in placed + loose if t.values != middle]  # the detector missed the middle
        return frame, read_tiles(frame, [(box_from_corners(t.corners()), "up", 0.9) for t in boxed])

    frame, tiles = table((1, 6))
    found = fill_chain_gaps(frame, tiles)
    assert len(found) == len(tiles) + 1
    new = found[-1]
    assert sorted(new.values) == [1, 6]
    assert np.hypot(*(new.quad.mean(axis=0) - (start + u * (length + 1)))) < 0.1 * length
    frame, tiles = table(None)  # the table between them
    assert fill_chain_gaps(frame, tiles) == tiles
    frame, tiles = table((2, 4))  # a tile there that joins neither
    assert fill_chain_gaps(frame, tiles) == tiles
