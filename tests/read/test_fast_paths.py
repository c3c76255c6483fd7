"""The fast paths of the reader give what the plain numpy/whole-frame versions give."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.box import Box, canvas_matrix, quad_homography, warp, warp_quad
from vision.read.pips import channel_median, colour_distance
from vision.read.tile import read_tile, read_tiles


def _frame(seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (54, 96, 3), np.uint8)
    return cv2.resize(small, (960, 540), interpolation=cv2.INTER_CUBIC)


@pytest.mark.parametrize("n", [1, 2, 255, 256, 835, 836])
def test_channel_median_is_numpys_median(n):
    x = np.random.default_rng(n).integers(0, 256, (n, 3)).astype(np.float32)
    got = channel_median(x)
    assert got.dtype == np.float32
    assert np.array_equal(got, np.median(x, axis=0))


def test_colour_distance_matches_the_formula_for_colours_images_and_reversed_views():
    rng = np.random.default_rng(1)
    lab = rng.uniform(0, 255, (40, 56, 3)).astype(np.float32)
    colour = np.array([120.5, 131.0, 99.25], np.float32)
    image = rng.uniform(0, 255, (40, 56, 3)).astype(np.float32)
    for a, b in ((lab, colour), (lab, image), (lab[:, ::-1], colour), (lab[:, 5:30], colour)):
        want = np.sqrt(((a.astype(np.float64) - b) ** 2).sum(axis=2))
        got = colour_distance(a, b)
        assert got.shape == a.shape[:2]
        assert np.abs(got - want).max() < 1e-3


@pytest.mark.parametrize("cx, cy", [(480.0, 270.0), (20.0, 15.0), (950.0, 530.0)])
def test_warps_from_a_crop_equal_warps_from_the_whole_frame(cx, cy):
    """Also where the canvas leaves the frame (BORDER_REPLICATE must repeat the frame's edge)."""
    frame = _frame()
    box = Box(cx, cy, 0.8, 0.6, 90.0, 45.0)
    size = (128, 80)
    m = canvas_matrix(box, 32 / box.width, size)
    whole = cv2.warpAffine(frame, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    assert np.abs(warp(frame, box, 32 / box.width, size).astype(int) - whole).max() <= 1
    quad = box.corners() + np.array([[1.5, -2.0], [0.0, 1.0], [-2.0, 0.5], [0.5, 0.0]])
    h = quad_homography(quad, 48, 12)
    whole = cv2.warpPerspective(frame, h, (120, 48), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    assert np.abs(warp_quad(frame, quad, 48, 12)[0].astype(int) - whole).max() <= 1


def test_a_large_tile_is_area_averaged_not_aliased():
    """A tile three times the crop's length: a 2-pixel checkerboard on it must come out as its
    mean grey (a bilinear warp alone samples a few of its pixels and shows a coarse false
    pattern); a tile the crop's size is warped as it is."""
    yy, xx = np.mgrid[0:540, 0:960]
    frame = np.repeat((((xx // 2 + yy // 2) % 2) * 255).astype(np.uint8)[:, :, None], 3, axis=2)
    big = Box(480.0, 270.0, np.cos(0.3), np.sin(0.3), 300.0, 150.0).corners()
    crop = warp_quad(frame, big, 48, 12)[0].astype(float)
    assert abs(crop.mean() - 127.5) < 8
    assert crop.std() < 12, crop.std()
    small = Box(480.0, 270.0, np.cos(0.3), np.sin(0.3), 96.0, 48.0).corners()
    h = quad_homography(small, 48, 12)
    whole = cv2.warpPerspective(frame, h, (120, 48), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    assert np.abs(warp_quad(frame, small, 48, 12)[0].astype(int) - whole).max() <= 1


def test_reading_tiles_together_equals_reading_each(rendered):
    """read_tiles batches the classifier over the frame; each tile's reading must not change."""
    import json

    from vision.read.box import box_from_corners

    truth = json.loads(sorted((rendered / "truth").glob("*.json"))[0].read_text())
    frame = cv2.imread(str(rendered / truth["image"]))
    jobs = [(box_from_corners(np.array(t["corners"], float)), t["face"], 0.9)
            for t in truth["tiles"] if t["labelled"]][:8]
    assert len(jobs) >= 3
    together = read_tiles(frame, jobs)
    for job, t in zip(jobs, together, strict=True):
        alone = read_tile(frame, *job)
        assert alone.half_values == t.half_values and alone.face == t.face
        assert np.allclose(alone.half_confidence, t.half_confidence, atol=1e-5)
        assert np.allclose(alone.quad, t.quad)
