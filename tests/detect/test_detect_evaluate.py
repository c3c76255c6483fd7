"""Scoring detections against half-centre truth (the real photos' truth.json format)."""

import numpy as np

from vision.detect.detections import Detections
from vision.detect.evaluate import match, score_image
from vision.detect.geometry import xywhr_to_corners


def _dets(xywhr, conf):
    return Detections(xywhr_to_corners(np.float32(xywhr)), np.float32(conf), np.zeros(len(conf), np.int64))


HALVES = np.float32([
    [[85, 100], [115, 100]],   # tile A, horizontal, centre (100, 100), 60 x 30
    [[300, 285], [300, 315]],  # tile B, vertical, centre (300, 300)
])


def test_a_tile_is_found_only_when_one_box_holds_both_halves():
    dets = _dets([[100, 100, 62, 32, 0], [300, 290, 30, 30, 0]], [0.9, 0.8])  # second box holds one half
    found, true = match(dets, HALVES)
    assert found.tolist() == [True, False]
    assert true.tolist() == [True, False]


def test_a_duplicate_box_is_a_false_detection():
    dets = _dets([[100, 100, 62, 32, 0], [101, 100, 62, 32, 0], [300, 300, 62, 32, np.pi / 2]], [0.7, 0.9, 0.8])
    found, true = match(dets, HALVES)
    assert found.tolist() == [True, True]
    assert true.tolist() == [False, True, True]  # the better-scored duplicate claims the tile


def test_false_boxes_are_counted_on_the_play_grid_only():
    dets = _dets([[100, 100, 62, 32, 0], [500, 500, 60, 30, 0], [900, 900, 60, 30, 0]], [0.9, 0.9, 0.9])
    score = score_image(dets, HALVES, grid=(0, 0, 600, 600))
    assert (score.found, score.tiles, score.detections, score.true_detections) == (1, 2, 3, 1)
    assert score.false_on_grid_max == 1
    assert score.as_dict()["recall"] == 0.5
