"""The camera maps points exactly as it maps pixels, and far-off tiles never become labels."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.polygons import distort_points
from vision.synth.scene import render_scene


@pytest.mark.parametrize("k", [-0.12, -0.05, 0.0, 0.07, 0.12])
def test_distortion_points_invert_the_pixel_map(k):
    pts = np.random.default_rng(0).uniform(-2000, 3000, (5000, 2))
    c, scale = np.array([640.0, 480.0]), 800.0
    pd = distort_points(pts, k, c, scale)
    ok = np.isfinite(pd).all(axis=1)
    # every point inside the frame's circle is imaged
    assert ok[np.hypot(*(pts - c).T) / scale < 1.1].all()
    q = (pd[ok] - c) / scale
    back = c + (pd[ok] - c) * (1 + k * (q**2).sum(axis=1, keepdims=True))  # what Camera.render samples
    assert np.abs(back - pts[ok]).max() < 1e-6


def test_labelled_boxes_are_sane_quadrilaterals():
    """Regression: a diverging lens inverse once turned an off-frame tile into a giant label."""
    import cv2

    checked = 0
    for seed in range(40):
        r = render_scene(np.random.default_rng([12, seed]), (480, 480))
        for c, f, ok in zip(r.corners, r.in_frame, r.labelled, strict=True):
            assert np.isfinite(c).all() and 0.0 <= f <= 1.0
            if not ok:
                continue
            assert cv2.isContourConvex(c.astype(np.float32).reshape(-1, 1, 2))
            sides = np.linalg.norm(np.roll(c, -1, axis=0) - c, axis=1)
            assert sides[0] < 1.6 * sides[2] + 3 and sides[2] < 1.6 * sides[0] + 3
            checked += 1
    assert checked > 200
