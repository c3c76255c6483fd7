"""Rows of face-down tiles measured in the frame (vision/detect/rows.py): a slab of backs with no
visible seam is cut into as many tiles as it is long, from one face-down box on it."""

import math

import cv2
import numpy as np
import pytest

from vision.detect.detections import Detections
from vision.detect.obb import xywhr_to_corners
from vision.detect.rows import RowSettings, complete_rows

TABLE = (140, 70, 30)  # BGR: a blue cloth
BACK = (60, 140, 40)  # a green back


def _row(n: int, width: float, angle_deg: float, centre=(320.0, 240.0), gap: float = 0.0,
         ratio: float = 2.0) -> np.ndarray:
    """(n, 5) xywhr of tiles side by side: long axes across the row, which runs at `angle_deg`."""
    a = math.radians(angle_deg)
    along = np.array([math.cos(a), math.sin(a)])
    step = width + gap
    out = []
    for i in range(n):
        c = np.asarray(centre) + (i - (n - 1) / 2) * step * along
        out.append([c[0], c[1], ratio * width, width, a + math.pi / 2])
    return np.array(out)


def _frame(tiles: np.ndarray, blobs=(), back=BACK, rim=(30, 70, 20)) -> np.ndarray:
    rng = np.random.default_rng(3)
    img = np.clip(np.array(TABLE, float) + rng.normal(0, 4, (480, 640, 3)), 0, 255).astype(np.uint8)
    for q in xywhr_to_corners(tiles):
        cv2.fillPoly(img, [np.round(q).astype(np.int32)], back, lineType=cv2.LINE_AA)
        cv2.polylines(img, [np.round(q).astype(np.int32)], True, rim, 1, cv2.LINE_AA)
    for (x, y), r in blobs:
        cv2.circle(img, (x, y), r, BACK, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (3, 3), 0)


def _dets(xywhr: np.ndarray, conf: float = 0.6, cls: int = 1) -> Detections:
    n = len(xywhr)
    return Detections(xywhr_to_corners(xywhr).astype(np.float32), np.full(n, conf, np.float32),
                      np.full(n, cls, np.int64))


def _found(truth: np.ndarray, dets: Detections, tol: float) -> int:
    got = dets.xywhr
    return sum(bool((np.hypot(*(got[:, :2] - t[:2]).T) < tol).any()) for t in truth)


@pytest.mark.parametrize("n,width,angle", [(6, 16.0, 35.0), (7, 12.0, -10.0), (3, 22.0, 80.0), (2, 20.0, 0.0)])
def test_a_slab_of_backs_is_cut_into_its_tiles_from_one_box_at_its_end(n, width, angle):
    truth = _row(n, width, angle)
    out = complete_rows(_frame(truth), _dets(truth[:1]))
    assert len(out) == n
    assert _found(truth, out, 0.2 * width) == n
    sides = np.sort(out.xywhr[:, 2:4], axis=1)
    assert np.allclose(sides[:, 0], width, rtol=0.15) and np.allclose(sides[:, 1], 2 * width, rtol=0.15)


def test_light_seams_between_black_backs_count_the_tiles():
    # black backs whose bevels catch the light: the seams are lighter than the backs. Tiles a
    # little short (1.9:1) make the length alone say 6.3 tiles, too far from 6 to trust.
    truth = _row(6, 16.0, 15.0, ratio=1.9)
    frame = _frame(truth, back=(25, 25, 25), rim=(80, 80, 80))
    out = complete_rows(frame, _dets(truth[:1]))
    assert len(out) == 6 and _found(truth, out, 0.2 * 16.0) == 6


def test_a_seam_too_faint_to_see_is_one_tile_width_more():
    # held-out render s21_000012: of a row of six tiny backs one seam hardly shows; the stretch
    # across it is two tile widths
    truth = _row(6, 16.0, 15.0, ratio=1.9)
    frame = _frame(truth, back=(25, 25, 25), rim=(80, 80, 80))
    mid = (truth[2, :2] + truth[3, :2]) / 2  # paint the seam between the third and fourth tile over
    u = np.array([math.cos(truth[2, 4]), math.sin(truth[2, 4])]) * (truth[2, 2] / 2 - 3)
    cv2.line(frame, tuple(np.round(mid - u).astype(int)), tuple(np.round(mid + u).astype(int)), (25, 25, 25), 3)
    out = complete_rows(frame, _dets(truth[:1]))
    assert len(out) == 6 and _found(truth, out, 0.2 * 16.0) == 6


def test_a_box_over_two_backs_is_replaced_by_two_tiles():
    truth = _row(5, 16.0, 20.0)
    merged = truth[1:3].copy()
    merged[0, :2] = truth[1:3, :2].mean(axis=0)
    merged[0, 3] = 2 * 16.0 * 0.9  # a squarish box over two tiles, slightly short
    seeds = np.vstack([truth[:1], merged[:1], truth[3:]])
    out = complete_rows(_frame(truth), _dets(seeds))
    assert len(out) == 5 and _found(truth, out, 3.5) == 5


def test_boxes_that_already_fit_the_row_are_kept_as_they_are():
    truth = _row(4, 16.0, 0.0)
    dets = _dets(truth, conf=0.8)
    out = complete_rows(_frame(truth), dets)
    assert len(out) == 4
    assert np.allclose(np.sort(out.confidence), 0.8)  # the network's boxes, not the cut's


def test_backs_with_gaps_between_them_are_left_to_the_network():
    truth = _row(4, 16.0, 0.0, gap=6.0)
    out = complete_rows(_frame(truth), _dets(truth[:1]))
    assert len(out) == 1


def test_a_round_blob_of_back_colour_is_not_a_row():
    blob = np.array([[320.0, 240.0, 30.0, 15.0, 0.0]])  # a box the network put on a disc
    out = complete_rows(_frame(np.zeros((0, 5)), blobs=[((320, 240), 15)]), _dets(blob))
    assert len(out) == 1


def test_a_face_up_tile_in_the_run_stops_the_cut():
    truth = _row(4, 16.0, 0.0)
    dets = Detections.concat([_dets(truth[:1]), _dets(truth[2:3], cls=0)])
    assert len(complete_rows(_frame(truth), dets)) == 2


def test_table_of_the_back_colour_is_not_cut():
    img = np.full((480, 640, 3), BACK, np.uint8)
    seed = _row(1, 16.0, 0.0)
    assert len(complete_rows(img, _dets(seed))) == 1


def test_off_switch_and_unsure_seeds():
    truth = _row(5, 16.0, 0.0)
    frame = _frame(truth)
    assert len(complete_rows(frame, _dets(truth[:1]), RowSettings(enabled=False))) == 1
    assert len(complete_rows(frame, _dets(truth[:1], conf=0.3))) == 1


def test_a_row_the_network_hardly_saw_is_measured_from_a_doubtful_box():
    # no sure box on the row: one the detector kept aside as doubtful (0.15) seeds it, and the
    # tiles cut from it are scored at the detector's threshold; a back the detector is sure of
    # elsewhere (another hand) shows the set's backs are of its colour
    truth = _row(5, 16.0, 30.0)
    other = _row(1, 16.0, 0.0, centre=(560.0, 400.0))
    frame = _frame(np.concatenate([truth, other]))
    sure = _dets(other, conf=0.3)
    out = complete_rows(frame, sure, doubtful=_dets(truth[:1], conf=0.15), floor=0.25)
    assert len(out) == 6 and _found(truth, out, 0.2 * 16.0) == 5
    assert np.allclose(out.confidence[1:], 0.25)
    assert len(complete_rows(frame, sure, doubtful=_dets(truth[:1], conf=0.05), floor=0.25)) == 1
    # a doubtful box alone (no row) adds nothing
    single = _row(1, 16.0, 30.0)
    assert len(complete_rows(_frame(single), sure, doubtful=_dets(single, conf=0.15))) == 1


def test_a_doubtful_seed_of_a_colour_no_sure_back_shows_grows_no_row():
    # Robustness matrix: a card, a ruler, a paper's corner boxed as a doubtful back was measured
    # and cut into a row of phantom tiles. A set's backs share one colour: a doubtful seed grows a
    # row only where a back the detector is sure of shows its colour.
    truth = _row(5, 16.0, 30.0)
    other = _row(1, 16.0, 0.0, centre=(560.0, 400.0))
    frame = _frame(truth)
    cv2.fillPoly(frame, [np.round(xywhr_to_corners(other)[0]).astype(np.int32)], (200, 200, 200))  # a white back
    assert len(complete_rows(frame, Detections.empty(), doubtful=_dets(truth[:1], conf=0.15), floor=0.25)) == 0
    assert len(complete_rows(frame, _dets(other, conf=0.6), doubtful=_dets(truth[:1], conf=0.15), floor=0.25)) == 1

