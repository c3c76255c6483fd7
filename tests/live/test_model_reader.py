"""The live model reader keeps the detection scale of a fixed camera between whole-frame looks."""

import numpy as np

from tests.detect.detect_fakes import draw_tiles, fake_runner, scatter_tiles
from vision.detect import DetectorSettings, TileDetector
from vision.live.readers import RELOOK_EVERY, ModelReader


class SpyDetector(TileDetector):
    def __init__(self) -> None:
        super().__init__(runner=fake_runner(min_long_px=20), settings=DetectorSettings(), dynamic=True)
        self.scales: list[float | None] = []

    def detect(self, frame, *, scale=None):
        self.scales.append(scale)
        return super().detect(frame, scale=scale)


def test_the_scale_of_the_first_look_is_kept_until_the_next_look():
    size = (1920, 1080)  # 70 px tiles are 23 px in the whole-frame look: the reader slices
    frame = draw_tiles(size, scatter_tiles(np.random.default_rng(3), size, 12, 70.0))
    spy = SpyDetector()
    reader = ModelReader(detector=spy)
    for k in range(RELOOK_EVERY + 2):
        reader(frame, k / 10)
    first = spy.scales[0]
    assert first is None and spy.last.sliced
    kept = spy.scales[1 : RELOOK_EVERY + 1]
    assert len(set(kept)) == 1 and kept[0] == reader.scale and kept[0] > 640 / 1920
    assert spy.scales[RELOOK_EVERY + 1] is None  # looked again


def test_the_live_reader_runs_the_int8_copy_by_default_where_the_cpu_runs_it_right():
    from vision.detect import LIVE_MODEL, live_model
    from vision.detect.detector import int8_dot_products

    reader = ModelReader(processes=False)
    assert reader.detector.model_path == live_model()
    assert live_model() == (LIVE_MODEL if int8_dot_products() else LIVE_MODEL.with_name("tiles-obb.onnx"))
    assert LIVE_MODEL.name == "tiles-obb.int8.onnx"
    assert ModelReader(LIVE_MODEL.with_name("tiles-obb.onnx"), processes=False).detector.model_path.name == "tiles-obb.onnx"
