"""The int8 copy `dominocam train` writes: quantized from the committed float model on rendered
images, it must find what the float model finds (the head's decoding stays in float)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.detect.quantize import float_nodes, quantize
from vision.detect import TileDetector
from vision.detect.obb import corners_to_xywhr

FLOAT_MODEL = Path(__file__).resolve().parents[2] / "models" / "tiles-obb.onnx"


@pytest.fixture(scope="module")
def scenes(render_scenes):
    return render_scenes(8, 2, 515)


def _boxes(det: TileDetector, image: Path) -> np.ndarray:
    return corners_to_xywhr(det.detect(cv2.imread(str(image))).corners)


def test_the_head_decoding_stays_in_float():
    names = float_nodes(FLOAT_MODEL)
    assert names and all(n.startswith("/model.23/") and not n.startswith("/model.23/cv") for n in names)
    assert any("Sigmoid" in n for n in names) and any("Concat" in n for n in names)


def test_the_int8_model_finds_what_the_float_model_finds(scenes, tmp_path):
    train = sorted((scenes / "images" / "train").glob("*.jpg"))
    out = quantize(FLOAT_MODEL, tmp_path / "q.onnx", train[:4])
    assert out.is_file() and out.stat().st_size < FLOAT_MODEL.stat().st_size / 2
    assert not (tmp_path / "q.pre.onnx").exists()
    fp, q8 = TileDetector(FLOAT_MODEL), TileDetector(out)
    assert q8.dynamic
    found = same = 0
    for image in sorted((scenes / "images" / "val").glob("*.jpg")):
        a, b = _boxes(fp, image), _boxes(q8, image)
        found += len(a)
        if len(a) and len(b):
            # the same tile: centres within a quarter of its length (tiles side by side are half a
            # length apart; a fixed pixel tolerance would depend on the detection scale)
            d = np.linalg.norm(a[:, None, :2] - b[None, :, :2], axis=2)
            same += int((d.min(axis=1) < 0.25 * a[:, 2:4].max(axis=1)).sum())
    assert found >= 10
    assert same >= 0.9 * found, f"{same} of the float model's {found} tiles found by the int8 model"


def test_calibration_needs_images(tmp_path):
    with pytest.raises(ValueError, match="calibration"):
        quantize(FLOAT_MODEL, tmp_path / "q.onnx", [])
