"""`dominocam eval`: detection-only and whole-reader runs, several sets and scales, detector options,
the JSON other tools read, and bad inputs."""

from __future__ import annotations

import json

import numpy as np
import pytest

import dominocam.commands.eval
from dominocam.cli import main
from tests.read.test_evaluate import _write_real, _write_rendered
from vision.detect import Detections
from vision.detect.obb import xywhr_to_corners

# the keys `dominocam eval` printed before --detection-only existed (docs and notes quote them)
FULL_KEYS = {"images", "truth_tiles", "recall", "precision", "false_tiles", "max_false_tiles_per_image",
             "face_accuracy", "exact_tiles", "exact_tiles_count", "per_half", "halves_unread",
             "per_half_by_tile_length_px", "layout_exact", "layout_images", "calibration", "data", "scale",
             "boxes", "confusion_png", "confusion"}


def _run(capsys, argv):
    code = main(["eval", *argv])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines() if line.strip()], captured.err


def test_detection_only_on_truth_boxes_over_sets_and_scales(tmp_path, capsys):
    real, rendered = _write_real(tmp_path / "real"), _write_rendered(tmp_path / "set")
    code, rows, _ = _run(capsys, ["--data", str(real), str(rendered), "--scale", "1", "0.5", "--detection-only",
                                  "--truth-boxes", "--exact-boxes", "--out", str(tmp_path / "out")])
    assert code == 0
    assert [(r["data"], r["scale"]) for r in rows] == [(str(real), 1.0), (str(real), 0.5),
                                                       (str(rendered), 1.0), (str(rendered), 0.5)]
    for r in rows:
        assert (r["recall"], r["precision"], r["false_tiles"], r["boxes"]) == (100.0, 100.0, 0, "truth exact")
        assert "per_half" not in r and "confusion" not in r
    assert [r["truth_tiles"] for r in rows] == [2, 2, 3, 3]  # rendered: a cut-off and an overlapping tile
    saved = json.loads((tmp_path / "out" / "set-0.5-detect" / "summary.json").read_text())
    assert saved == rows[3]


class FakeDetector:
    """Returns the real set's truth box of each image plus a false box on the grid and one off it."""

    made: list = []

    def __init__(self, model, settings):
        self.model, self.settings = model, settings
        FakeDetector.made.append(self)

    def detect(self, frame):
        boxes = [[100, 100, 62, 32, 0], [200, 150, 60, 30, 0], [20, 20, 60, 30, 0]]
        return Detections(xywhr_to_corners(np.float32(boxes)), np.float32([0.9, 0.8, 0.7]), np.zeros(3, np.int64))


def test_detection_only_runs_the_detector_with_the_given_settings(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(dominocam.commands.eval, "TileDetector", FakeDetector)
    FakeDetector.made.clear()
    real = _write_real(tmp_path / "real")
    code, rows, _ = _run(capsys, ["--data", str(real), "--detection-only", "--model", "m.onnx", "--conf", "0.4",
                                  "--no-slicing", "--min-tile-px", "30", "--out", str(tmp_path / "out")])
    assert code == 0
    (det,) = FakeDetector.made
    assert str(det.model) == "m.onnx"
    assert (det.settings.conf, det.settings.slicing, det.settings.min_tile_px) == (0.4, False, 30.0)
    (r,) = rows
    # image b: its tile is boxed, one false box on the grid; image a: its tile (centre 300, 300) is
    # not, so the box at (100, 100) is a second false one on the grid; each has one off the grid
    assert (r["images"], r["truth_tiles"], r["recall"], r["predicted"], r["precision"]) == (2, 2, 50.0, 6, 16.67)
    assert (r["false_tiles"], r["false_tiles_off_grid"], r["max_false_tiles_per_image"]) == (3, 2, 2)
    assert (r["conf"], r["slicing"], r["min_tile_px"], r["boxes"]) == (0.4, False, 30.0, "detector")
    assert r["median_detect_ms"] is not None
    errors = json.loads((tmp_path / "out" / "errors.json").read_text())
    assert [e for e in errors if e[1] == "missed"] == [["a", "missed", [3, 4], 60]]
    assert sorted(e[0] for e in errors if e[1] == "false") == ["a", "a", "b"]


def test_whole_reader_keeps_its_json_and_writes_the_confusion_matrix(rendered, tmp_path, capsys):
    code, rows, _ = _run(capsys, ["--data", str(rendered), "--truth-boxes", "--limit", "2",
                                  "--out", str(tmp_path / "out"), "--annotate", str(tmp_path / "ann")])
    assert code == 0
    (r,) = rows
    assert set(r) >= FULL_KEYS
    assert r["images"] == 2 and r["boxes"] == "truth + box errors"
    assert r["recall"] == 100.0 and r["false_tiles"] == 0
    assert r["per_half"] >= 90.0
    assert np.array(r["confusion"]).shape == (7, 8)
    assert (tmp_path / "out" / "confusion.png").is_file()
    assert len(list((tmp_path / "ann").glob("*-x1.jpg"))) == 2


def test_bad_sets_and_a_missing_model_say_what_to_do(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, rows, err = _run(capsys, ["--data", str(tmp_path / "nowhere")])
    assert (code, rows) == (2, []) and "is not a folder" in err
    code, rows, err = _run(capsys, ["--data", str(empty), "--detection-only"])
    assert (code, rows) == (2, []) and "neither truth.json nor truth/*.json" in err
    code, rows, err = _run(capsys, ["--data", str(_write_real(tmp_path / "real")), "--detection-only",
                                    "--model", str(tmp_path / "missing.onnx")])
    assert code == 2 and "--truth-boxes" in err


@pytest.mark.parametrize("flag", ["--scale", "--scales"])
def test_scale_takes_one_or_several_factors(tmp_path, capsys, flag):
    real = _write_real(tmp_path / "real")
    code, rows, _ = _run(capsys, ["--data", str(real), flag, "0.7", "--detection-only", "--truth-boxes",
                                  "--out", str(tmp_path / "out")])
    assert code == 0 and [r["scale"] for r in rows] == [0.7]
