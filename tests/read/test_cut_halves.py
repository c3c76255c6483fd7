"""A tile running off the image: the half at the frame's edge of a short box is read but doubtful."""

import numpy as np

from vision.read.reader import EDGE_CONFIDENCE, doubt_cut_halves
from vision.read.tile import TileRead


def _tile(x0: float, length: float, values=(3, 4)) -> TileRead:
    quad = np.array([[x0, 100], [x0 + length, 100], [x0 + length, 150], [x0, 150]], float)
    halves = np.array([[x0 + length / 4, 125], [x0 + 3 * length / 4, 125]], float)
    return TileRead(quad, halves, "up", values, (0.99, 1.0), ("", ""), 0.9)


def test_the_half_at_the_edge_of_a_short_box_is_doubtful_the_rest_is_not():
    tiles = [_tile(0, 60), _tile(200, 100), _tile(400, 100), _tile(0, 100, (5, 6))]
    out = doubt_cut_halves(tiles, (800, 600))
    cut = out[0]
    assert cut.half_values == (3, 4)  # still read
    assert cut.half_confidence == (EDGE_CONFIDENCE, 1.0) and "frame's edge" in cut.reasons[0]
    assert all(a is b for a, b in zip(out[1:], tiles[1:], strict=True))  # inside, or of full length: as read
