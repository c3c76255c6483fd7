"""The one matching rule of `lab.read.evaluate` (detection-only and whole-reader scores), the truth
loaders, and the reading counts, on hand-made boxes and truth whose right answers are known."""

from __future__ import annotations

import json
from types import SimpleNamespace

import cv2
import numpy as np

from lab.read.evaluate import (
    WHOLE_AND_SHARP,
    Scores,
    TruthImage,
    TruthTile,
    load_frame,
    load_real,
    load_rendered,
    match,
    score_boxes,
    score_image,
)
from vision.detect.obb import xywhr_to_corners
from vision.read.tile import TileRead


def _quads(xywhr) -> np.ndarray:
    return xywhr_to_corners(np.float32(xywhr)).astype(float)


def _tile(halves, counts=True, values=(1, 2), face="up", parent=None) -> TruthTile:
    h = np.array(halves, float)
    return TruthTile(values, h, face, float(np.hypot(*(h[1] - h[0]))), counts=counts, parent=parent)


# tile A horizontal, centre (100, 100), 60 x 30; tile B vertical, centre (300, 300)
A = [[85, 100], [115, 100]]
B = [[300, 285], [300, 315]]


def _image(tiles, region=None, layout_known=False) -> TruthImage:
    return TruthImage(image=None, name="img", tiles=tiles, region=region, layout_known=layout_known)


def test_a_tile_matches_only_a_box_holding_both_half_centres():
    boxes = _quads([[100, 100, 62, 32, 0], [300, 290, 30, 30, 0]])  # the second holds one half of B
    assert match(boxes, [_tile(A), _tile(B)]) == {0: 0}


def test_a_box_across_the_tile_does_not_match_one_a_little_turned_does():
    # centred on A and turned a quarter, its long sides pass through A's half centres
    assert match(_quads([[100, 100, 62, 32, np.pi / 2]]), [_tile(A)]) == {}
    assert match(_quads([[100, 100, 62, 32, 0.3]]), [_tile(A)]) == {0: 0}


def test_a_box_spanning_two_tiles_end_to_end_matches_neither():
    c = [[145, 100], [175, 100]]  # tile C continues A to the right
    boxes = _quads([[130, 100, 124, 34, 0]])  # holds all four half centres, centred on the joint
    assert match(boxes, [_tile(A), _tile(c)]) == {}


def test_a_duplicate_box_is_a_false_prediction_and_the_nearer_box_claims_the_tile():
    boxes = _quads([[104, 100, 62, 32, 0], [101, 100, 62, 32, 0], [300, 300, 62, 32, np.pi / 2]])
    scores = Scores()
    m = score_boxes(scores, _image([_tile(A), _tile(B)]), boxes, ["up"] * 3)
    assert m == {1: 0, 2: 1}
    assert (scores.detected, scores.truth_tiles, scores.predicted, scores.true_predictions) == (2, 2, 3, 2)
    assert scores.false_tiles == 1
    assert scores.detection_summary()["precision"] == 66.67


def test_false_tiles_are_counted_on_the_play_grid_and_off_it_apart():
    boxes = _quads([[100, 100, 62, 32, 0], [500, 500, 60, 30, 0], [900, 900, 60, 30, 0]])
    scores = Scores()
    score_boxes(scores, _image([_tile(A), _tile(B)], region=(0, 0, 600, 600)), boxes, ["up"] * 3)
    s = scores.detection_summary()
    assert (s["recall"], s["precision"]) == (50.0, 33.33)
    assert (s["false_tiles"], s["false_tiles_off_grid"], s["max_false_tiles_per_image"]) == (1, 1, 1)
    # a false box on the grid is listed with its centre and length (off the grid: counted only)
    assert scores.errors == [("img", "false", [500, 500], 60), ("img", "missed", [1, 2], 60)]


def test_the_worst_image_bounds_the_false_tiles_per_image():
    scores = Scores()
    truth = _image([_tile(A)], region=(0, 0, 600, 600))
    score_boxes(scores, truth, _quads([[400, 400, 60, 30, 0], [500, 500, 60, 30, 0]]), ["up", "up"])
    score_boxes(scores, truth, _quads([[400, 400, 60, 30, 0]]), ["up"])
    assert (scores.false_tiles, scores.max_false_per_image, scores.images) == (3, 2, 2)


def test_recall_is_split_by_the_scene_and_by_the_tile_the_renderer_describes():
    small = _tile([[400, 100], [410, 100]])  # 20 px long: under the smallest tile
    covered = _tile(B)
    covered.visible = 0.5
    truth = TruthImage(image=None, name="img", tiles=[_tile(A), covered, small],
                       conditions=("scene:dense", "blur:motion"))
    scores = Scores()
    score_boxes(scores, truth, _quads([[100, 100, 62, 32, 0]]), ["up"])  # finds A only
    by = scores.detection_summary()["recall_by_condition"]
    assert by["scene:dense"] == by["blur:motion"] == {"recall": 33.33, "tiles": 3}
    assert by["partly covered"] == {"recall": 0.0, "tiles": 1}
    assert by["not covered"] == {"recall": 50.0, "tiles": 2}
    assert by["length < 25 px"] == {"recall": 0.0, "tiles": 1}
    assert by["length >= 25 px"] == {"recall": 50.0, "tiles": 2}
    assert by["face up"] == {"recall": 33.33, "tiles": 3} and "face down" not in by
    assert WHOLE_AND_SHARP not in by  # the whole scene is motion-blurred
    sharp = TruthImage(image=None, name="img", tiles=[_tile(A), covered, small], conditions=("scene:dense",))
    scores = Scores()
    score_boxes(scores, sharp, _quads([[100, 100, 62, 32, 0]]), ["up"])
    assert scores.detection_summary()["recall_by_condition"][WHOLE_AND_SHARP] == {"recall": 100.0, "tiles": 1}


def test_a_tile_running_off_the_frame_is_not_whole():
    cut = _tile(A)
    cut.in_frame = 0.7  # the renderer's fraction of the tile inside the image
    truth = TruthImage(image=None, name="img", tiles=[cut, _tile(B)], conditions=("scene:chain",))
    scores = Scores()
    score_boxes(scores, truth, _quads([[300, 300, 32, 62, 0]]), ["up"])  # finds B only
    by = scores.detection_summary()["recall_by_condition"]
    assert by["cut by the frame's edge"] == {"recall": 0.0, "tiles": 1}
    assert by[WHOLE_AND_SHARP] == {"recall": 100.0, "tiles": 1}
    assert by["not covered"] == {"recall": 50.0, "tiles": 2}


def test_a_box_on_an_uncounted_tile_is_neither_false_nor_in_recall():
    scores = Scores()
    truth = _image([_tile(A), _tile(B, counts=False)])
    score_boxes(scores, truth, _quads([[300, 300, 62, 32, np.pi / 2]]), ["up"])
    assert (scores.truth_tiles, scores.detected, scores.true_predictions, scores.false_tiles) == (1, 0, 1, 0)
    assert scores.detection_summary()["precision"] == 100.0


def test_the_predicted_face_is_scored_on_counted_matches():
    scores = Scores()
    score_boxes(scores, _image([_tile(A), _tile(B, face="down", values=None)]),
                _quads([[100, 100, 62, 32, 0], [300, 300, 62, 32, np.pi / 2]]), ["down", "down"])
    assert (scores.detected, scores.face_right) == (2, 1)


def _read(quad, halves, values, face="up", conf=(0.99, 0.99)):
    return SimpleNamespace(quad=quad, halves=np.array(halves, float), face=face, half_values=values,
                           half_confidence=conf)


def test_reading_pairs_halves_by_position_and_fills_the_confusion_matrix():
    qa, qb = _quads([[100, 100, 62, 32, 0], [300, 300, 62, 32, np.pi / 2]])
    truth = _image([_tile(A, values=(1, 2)), _tile(B, values=(3, 4))])
    reading = SimpleNamespace(
        tiles=[_read(qa, A[::-1], (2, 1)),  # read the other way round: right
               _read(qb, B, (3, None), conf=(0.95, 0.3))],  # second half unread
        layout=SimpleNamespace(edges=[]))
    scores = Scores()
    score_image(scores, truth, reading)
    assert (scores.up_tiles, scores.exact_tiles, scores.halves, scores.halves_right, scores.halves_unread) == (
        2, 1, 4, 3, 1)
    assert scores.confusion[1, 1] == scores.confusion[2, 2] == scores.confusion[3, 3] == 1
    assert scores.confusion[4, 7] == 1 and scores.confusion.sum() == 4
    assert scores.summary()["per_half"] == 75.0
    assert scores.errors == [("img", [3, 4], [3, None], 60)]


def test_layout_exact_needs_every_layout_tile_and_the_same_joins():
    c = [[145, 100], [175, 100]]
    qa, qc = _quads([[100, 100, 62, 32, 0], [160, 100, 62, 32, 0]])
    truth = _image([_tile(A, values=(1, 2)), _tile(c, values=(2, 3), parent=0)], layout_known=True)
    tiles = [_read(qc, c, (2, 3)), _read(qa, A, (1, 2))]  # predicted order differs from the truth's
    scores = Scores()
    score_image(scores, truth, SimpleNamespace(tiles=tiles, layout=SimpleNamespace(edges=[(0, 1)])))
    score_image(scores, truth, SimpleNamespace(tiles=tiles, layout=SimpleNamespace(edges=[])))
    assert (scores.layout_images, scores.layout_exact) == (2, 1)


def _write_real(root, grid=True):
    root.mkdir()
    cv2.imwrite(str(root / "b.jpg"), np.zeros((200, 300, 3), np.uint8))
    cv2.imwrite(str(root / "a.jpg"), np.zeros((200, 300, 3), np.uint8))
    truth = {"images": {"b.jpg": [{"values": [6, 1], "halves": [A[0], A[1]]}],
                        "a.jpg": [{"values": [3, 4], "halves": [B[0], B[1]]}]}}
    if grid:
        truth["grid"] = [50, 60, 250, 180]
    (root / "truth.json").write_text(json.dumps(truth))
    return root


def test_load_real_scales_halves_and_grid_and_frames(tmp_path):
    root = _write_real(tmp_path / "real")
    images = list(load_real(root, 0.5))
    assert [ti.name for ti in images] == ["a", "b"]
    b = images[1]
    assert b.region == (25, 30, 125, 90)
    assert np.allclose(b.tiles[0].halves, np.array(A) * 0.5) and b.tiles[0].width == 15
    assert b.tiles[0].values == (6, 1) and b.tiles[0].counts
    assert load_frame(b).shape == (100, 150, 3)
    assert list(load_real(_write_real(tmp_path / "nogrid", grid=False)))[0].region is None


def _write_rendered(root):
    """Two images (train, val): in the val one a labelled tile, a cut-off one, and one lying on it."""
    for split, name in (("train", "t0"), ("val", "v0")):
        (root / "images" / split).mkdir(parents=True)
        cv2.imwrite(str(root / "images" / split / f"{name}.jpg"), np.zeros((240, 320, 3), np.uint8))
    (root / "truth").mkdir()

    def tile(cx, labelled=True, parent=None):
        return {"values": [1, 2], "halves": [[cx - 15, 100], [cx + 15, 100]], "face": "up",
                "corners": [[cx - 30, 85], [cx + 30, 85], [cx + 30, 115], [cx - 30, 115]],
                "labelled": labelled, "parent": parent, "owner": "layout", "length_px": 60}

    (root / "truth" / "t0.json").write_text(json.dumps(
        {"image": "images/train/t0.jpg", "kind": "chain/felt", "blur": "motion",
         "tiles": [tile(100), tile(160, parent=0)]}))
    (root / "truth" / "v0.json").write_text(json.dumps(
        {"image": "images/val/v0.jpg", "tiles": [tile(100), tile(200, labelled=False), tile(205)]}))
    return root


def test_load_rendered_split_scale_and_counted_tiles(tmp_path):
    root = _write_rendered(tmp_path / "set")
    assert [ti.name for ti in load_rendered(root)] == ["t0", "v0"]
    (ti,) = load_rendered(root, "val", scale=0.5)
    assert ti.name == "v0" and ti.scale == 0.5 and ti.region is None
    assert [t.counts for t in ti.tiles] == [True, False, False]  # cut off; lying on another tile
    assert np.allclose(ti.tiles[0].corners[0], [35, 42.5]) and ti.tiles[0].width == 15
    assert not ti.layout_known and ti.note == "overlapping tiles"
    assert load_frame(ti).shape == (120, 160, 3)
    (chain,) = load_rendered(root, "train")
    assert chain.layout_known
    assert chain.conditions == ("scene:chain", "surface:felt", "blur:motion")


def test_a_tile_running_off_the_image_is_matched_by_its_part_inside():
    # a horizontal tile 60 x 30 centred on x = 10: a third of it lies left of the image
    cut = _tile([[-5, 100], [25, 100]])
    cut.in_frame = 0.67
    cut.in_image = np.array([[0, 85], [40, 85], [40, 115], [0, 115]], float)
    inside = _quads([[20, 100, 40, 30, 0]])  # the box a detector draws: the part in the image
    assert match(inside, [cut]) == {0: 0}
    assert match(_quads([[18, 100, 32, 30, 0]]), [cut]) == {0: 0}  # IoU 0.8
    assert match(_quads([[10, 100, 12, 30, 0]]), [cut]) == {}  # a sliver: IoU 0.3
    assert match(_quads([[20, 100, 30, 40, 0]]), [cut]) == {}  # across the tile
    whole = _tile([[-5, 100], [25, 100]])  # the old rule, both half centres inside, for tiles in the image
    assert match(inside, [whole]) == {}


def _read_tile(h0, h1, values) -> TileRead:
    h = np.array([h0, h1], float)
    u = (h[1] - h[0]) / np.hypot(*(h[1] - h[0]))
    v = np.array([-u[1], u[0]]) * 15
    a, b = h[0] - u * 15, h[1] + u * 15
    return TileRead(np.array([a - v, b - v, b + v, a + v]), h, "up", values, (1.0, 1.0), ("", ""), 0.9)


def test_a_recount_scene_scores_each_hand_as_one_group_read_right():
    # south hand (bottom) of two tiles, north hand (top) of one; the reader puts a north tile with south's
    hands = {"south": [((270, 560), (300, 560), (1, 2)), ((330, 560), (360, 560), (3, 3))],
             "north": [((270, 40), (300, 40), (5, 6))]}
    truth_tiles = []
    for seat, ts in hands.items():
        for h0, h1, vals in ts:
            t = _tile([h0, h1], values=vals)
            t.owner = seat
            truth_tiles.append(t)
    truth = TruthImage(image=None, name="img", tiles=truth_tiles, conditions=("scene:recount",))
    tiles = [_read_tile(h0, h1, v) for ts in hands.values() for h0, h1, v in ts]
    reading = SimpleNamespace(tiles=tiles, layout=SimpleNamespace(edges=[], hands={"south": [0, 1], "north": [2]}))
    scores = Scores()
    score_image(scores, truth, reading)
    assert (scores.recount_images, scores.recount_exact, scores.recount_hands_exact) == (1, 1, 2)
    misread = [_read_tile(*hands["south"][0][:2], (1, 3)), *tiles[1:]]
    scores = Scores()
    score_image(scores, truth, SimpleNamespace(tiles=misread, layout=reading.layout))
    assert (scores.recount_exact, scores.recount_hands, scores.recount_hands_exact) == (0, 2, 1)
    mixed = SimpleNamespace(edges=[], hands={"south": [0, 1, 2]})  # north's tile given to south too
    scores = Scores()
    score_image(scores, truth, SimpleNamespace(tiles=tiles, layout=mixed))
    assert (scores.recount_exact, scores.recount_hands_exact) == (0, 0)
