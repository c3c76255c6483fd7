"""Closed doubles the detector barely saw (vision/read/ends.py): a doubtful face-down box lying
across an open end of the chain is taken as the closed double (SPI-4, BAL-12); elsewhere, or
face up, it is not."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.detect.detections import Detections
from vision.read.reader import read_frame
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face, draw_side

W = 40.0  # tile width: tiles 80 px long


@pytest.fixture(scope="module")
def chain():
    """A 1-2, 2-3, 3-4 line and a 4-4 closed double face down across its right end."""
    img = np.zeros((400, 700, 3), np.uint8)
    img[:] = (40, 90, 30)  # green cloth
    style = random_style(np.random.default_rng(5), kind="white")
    L = 2 * W
    tiles = [PlacedTile(v, (120 + k * (L + 2), 200), 0.0, W, 2.0, style=style)
             for k, v in enumerate([(1, 2), (2, 3), (3, 4)])]
    end_x = 120 + 2 * (L + 2) + L / 2 + 2 + W / 2
    closed = PlacedTile((4, 4), (end_x, 200), math.pi / 2, W, 2.0, face="down", style=style)
    for t in [*tiles, closed]:
        draw_side(img, t, np.array([2.0, 3.0]))
        draw_face(img, t)
    return img, tiles, closed


def _dets(tiles, conf: float, cls: int) -> Detections:
    corners = np.array([t.corners() for t in tiles], np.float32).reshape(-1, 4, 2)
    return Detections(corners, np.full(len(tiles), conf, np.float32), np.full(len(tiles), cls, np.int64))


def test_a_doubtful_back_across_an_open_end_closes_it_SPI_4(chain):
    img, tiles, closed = chain
    plain = read_frame(img, _dets(tiles, 0.9, 0))
    assert len(plain.tiles) == 3 and sorted(v for _, v in plain.layout.ends) == [1, 4]
    reading = read_frame(img, _dets(tiles, 0.9, 0), doubtful=_dets([closed], 0.1, 1))
    assert len(reading.tiles) == 4 and reading.tiles[3].face == "down"
    assert reading.layout.inferred == {3: (4, 4)}
    assert (2, 3) in reading.layout.edges
    assert [v for _, v in reading.layout.ends] == [1]  # the closed end is no longer open


def test_doubtful_boxes_away_from_the_ends_or_face_up_are_not_taken(chain):
    img, tiles, closed = chain
    far = PlacedTile(None, (600, 360), 0.0, W, 2.0, face="down", style=closed.style)  # bare cloth
    reading = read_frame(img, _dets(tiles, 0.9, 0), doubtful=_dets([far], 0.1, 1))
    assert len(reading.tiles) == 3
    as_face = read_frame(img, _dets(tiles, 0.9, 0), doubtful=_dets([closed], 0.1, 0))
    assert len(as_face.tiles) == 3
    # and a doubtful box over a tile already read is no second tile
    again = read_frame(img, _dets(tiles, 0.9, 0), doubtful=_dets(tiles[2:], 0.1, 1))
    assert len(again.tiles) == 3
