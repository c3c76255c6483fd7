"""A face-up tile the detector scored low (live deal h18: a lone 1-1 at 0.07-0.22) is taken as the
deal's opener on an empty table, or where it joins an open end with the value it shows; a
doubtful box on bare cloth, or one whose joint does not match, is not."""

from __future__ import annotations

import numpy as np

from vision.detect.detections import Detections
from vision.read.reader import read_frame
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face

STYLE = random_style(np.random.default_rng(5))


def _frame(tiles: list[PlacedTile]) -> np.ndarray:
    frame = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    for t in tiles:
        draw_face(frame, t)
    return frame


def _dets(tiles: list[PlacedTile], conf: float) -> Detections:
    return Detections(np.array([t.corners() for t in tiles], np.float32).reshape(-1, 4, 2), np.full(len(tiles), conf, np.float32),
                      np.zeros(len(tiles), np.int64))


def _tile(values, centre) -> PlacedTile:
    return PlacedTile(values, centre, 0.0, 40.0, 2.0, style=STYLE)


def test_a_lone_opener_scored_low_is_taken():
    opener = _tile((1, 1), (320, 240))
    frame = _frame([opener])
    without = read_frame(frame, _dets([], 0.9))
    assert without.tiles == []
    reading = read_frame(frame, _dets([], 0.9), doubtful=_dets([opener], 0.08))
    assert [sorted(t.values) for t in reading.tiles] == [[1, 1]]
    assert reading.layout.tiles == [0]


def test_a_doubtful_box_on_bare_cloth_is_not_taken():
    frame = _frame([])
    reading = read_frame(frame, _dets([], 0.9), doubtful=_dets([_tile((1, 1), (320, 240))], 0.08))
    assert reading.tiles == []


def test_a_tile_scored_low_by_an_open_end_is_taken_where_its_value_joins():
    opener, second = _tile((1, 2), (320, 240)), _tile((2, 5), (400, 240))
    frame = _frame([opener, second])
    reading = read_frame(frame, _dets([opener], 0.9), doubtful=_dets([second], 0.1))
    assert sorted(sorted(t.values) for t in reading.tiles) == [[1, 2], [2, 5]]
    assert reading.layout.edges == [(0, 1)]


def test_a_tile_scored_low_whose_joint_does_not_match_is_not_taken():
    opener, second = _tile((1, 2), (320, 240)), _tile((4, 5), (400, 240))
    frame = _frame([opener, second])
    reading = read_frame(frame, _dets([opener], 0.9), doubtful=_dets([second], 0.1))
    assert [sorted(t.values) for t in reading.tiles] == [[1, 2]]
