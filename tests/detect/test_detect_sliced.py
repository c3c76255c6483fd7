"""Whole-frame vs sliced inference, driven by a stand-in network with a minimum visible tile size."""

import numpy as np
import pytest
from detect_fakes import draw_tiles, fake_runner, scatter_tiles

from vision.detect import DetectorSettings, TileDetector
from vision.detect.slicing import Window, cut_by_edge, windows


def _matched(truth: np.ndarray, found_xywhr: np.ndarray, tol: float = 3.0) -> np.ndarray:
    """For each true tile, how many detections have their centre within tol px."""
    if len(found_xywhr) == 0:
        return np.zeros(len(truth), int)
    d = np.linalg.norm(truth[:, None, :2] - found_xywhr[None, :, :2], axis=2)
    return (d < tol).sum(axis=1)


def test_windows_cover_the_frame_with_the_requested_overlap():
    wins = windows(1900, 1000, 640, 160)
    xs = sorted({w.x0 for w in wins})
    ys = sorted({w.y0 for w in wins})
    assert xs[0] == 0 and xs[-1] + 640 == 1900
    assert ys[0] == 0 and ys[-1] + 640 == 1000
    assert all(b - a <= 640 - 160 for a, b in zip(xs, xs[1:], strict=False))
    assert len(wins) == len(xs) * len(ys)


def test_small_frame_is_one_window():
    (win,) = windows(500, 300, 640, 160)
    assert (win.width, win.height) == (500, 300)
    assert win.inner_edges() == (False, False, False, False)


def test_boxes_cut_by_an_inner_window_edge_are_flagged_but_not_at_frame_borders():
    win = Window(x0=0, y0=480, width=640, height=640, frame_width=1280, frame_height=1120)
    corners = np.float32([
        [[1, 100], [40, 100], [40, 120], [1, 120]],      # at the frame's left border: kept
        [[620, 100], [639, 100], [639, 120], [620, 120]],  # at the inner right edge: cut
        [[100, 1], [140, 1], [140, 20], [100, 20]],       # at the inner top edge: cut
        [[300, 300], [340, 300], [340, 320], [300, 320]],  # inside
    ])
    assert cut_by_edge(corners, win, 3.0).tolist() == [False, True, True, False]


def test_large_frame_with_tiny_tiles_is_sliced_and_every_tile_found_once():
    rng = np.random.default_rng(11)
    size = (3000, 1800)  # tiles of 30 px are 6 px at the whole-frame network input
    truth = scatter_tiles(rng, size, 40, 30.0)
    # put one tile right across the first window seam
    truth[0, :2] = [560, 300]
    frame = draw_tiles(size, truth)
    det = TileDetector(runner=fake_runner(min_long_px=20), settings=DetectorSettings(conf=0.25))
    assert len(det.detect_whole(frame)) == 0  # the whole-frame pass loses them all
    found = det.detect(frame)
    assert det.last.sliced and det.last.scale == pytest.approx(1.0)
    assert _matched(truth, found.xywhr).tolist() == [1] * len(truth)
    assert len(found) == len(truth)
    assert np.allclose(found.long_side, 30.0, atol=2.5)


def test_mid_size_tiles_are_sliced_at_the_target_scale_in_frame_pixels():
    rng = np.random.default_rng(5)
    size = (1536, 2040)  # like the real photos: 100 px tiles are 31 px at the network input
    truth = scatter_tiles(rng, size, 25, 100.0)
    frame = draw_tiles(size, truth)
    settings = DetectorSettings(min_tile_px=40, target_tile_px=64)
    det = TileDetector(runner=fake_runner(min_long_px=20), settings=settings)
    found = det.detect(frame)
    assert det.last.sliced and det.last.scale == pytest.approx(0.64, abs=0.03)
    assert _matched(truth, found.xywhr).tolist() == [1] * len(truth)
    assert len(found) == len(truth)
    assert np.allclose(found.long_side, 100.0, atol=4)


def test_a_dynamic_model_sees_the_rescaled_frame_in_one_pass():
    rng = np.random.default_rng(5)
    size = (1536, 2040)
    truth = scatter_tiles(rng, size, 25, 100.0)
    frame = draw_tiles(size, truth)
    shapes = []
    runner = fake_runner(min_long_px=20)

    def spy(blob):
        shapes.append(blob.shape[2:])
        return runner(blob)

    det = TileDetector(runner=spy, settings=DetectorSettings(min_tile_px=40, target_tile_px=64), dynamic=True)
    found = det.detect(frame)
    assert det.last.sliced and det.last.passes == 2 and len(det.last.windows) == 1
    # the look at the whole frame (long side 640) and one pass at the slice scale, each padded
    # only to a multiple of 32
    assert shapes[0] == (640, 512)
    assert all(s % 32 == 0 for shape in shapes for s in shape) and shapes[1][0] > 640
    assert _matched(truth, found.xywhr).tolist() == [1] * len(truth)
    assert np.allclose(found.long_side, 100.0, atol=4)


def test_a_dynamic_model_falls_back_to_windows_on_huge_frames():
    size = (3000, 1800)
    frame = draw_tiles(size, scatter_tiles(np.random.default_rng(11), size, 40, 30.0))
    det = TileDetector(runner=fake_runner(min_long_px=20), dynamic=True,
                       settings=DetectorSettings(max_pass_pixels=1_000_000))
    det.detect(frame)
    assert det.last.sliced and len(det.last.windows) > 1


def test_big_tiles_need_one_pass_only():
    rng = np.random.default_rng(8)
    size = (1280, 720)
    truth = scatter_tiles(rng, size, 6, 160.0)
    det = TileDetector(runner=fake_runner(min_long_px=20))
    found = det.detect(draw_tiles(size, truth))
    assert det.last.passes == 1 and not det.last.sliced
    assert _matched(truth, found.xywhr, tol=4).tolist() == [1] * len(truth)


def test_one_big_box_in_the_look_does_not_hide_small_tiles():
    """A lone sure box (a pen or a book boxed by mistake) is no measure of the tiles: with fewer
    than `min_sure` sure boxes the frame is seen again at native resolution, where tiles too small
    for the look are found."""
    rng = np.random.default_rng(4)
    small = scatter_tiles(rng, (700, 900), 8, 30.0)  # 15 px in the look of a 1280x960 frame
    small[:, 0] += 560
    big = np.float32([[250, 300, 360, 160, 0.4]])
    frame = draw_tiles((1280, 960), np.concatenate([big, small]))
    det = TileDetector(runner=fake_runner(min_long_px=20))
    assert len(det.detect_whole(frame)) == 1
    found = det.detect(frame)
    assert det.last.sliced and det.last.scale >= 1.0
    assert _matched(small, found.xywhr).tolist() == [1] * len(small)
    assert DetectorSettings().min_sure == 3
    many = np.float32([[200 + 400 * k, 300, 300, 150, 0.0] for k in range(3)])
    det.detect(draw_tiles((1280, 960), many))
    assert not det.last.sliced  # three sure boxes of big tiles: the look was enough


def test_slicing_can_be_switched_off():
    rng = np.random.default_rng(2)
    size = (3000, 1800)
    frame = draw_tiles(size, scatter_tiles(rng, size, 10, 30.0))
    det = TileDetector(runner=fake_runner(), settings=DetectorSettings(slicing=False))
    assert len(det.detect(frame)) == 0 and det.last.passes == 1


@pytest.mark.parametrize("bad", [None, np.zeros((0, 0, 3), np.uint8), np.zeros((10, 10, 3), np.float32)])
def test_bad_frames_say_what_is_needed(bad):
    det = TileDetector(runner=fake_runner())
    with pytest.raises(ValueError, match="image"):
        det.detect(bad)


def test_missing_model_file_tells_how_to_get_one(tmp_path):
    with pytest.raises(FileNotFoundError, match="dominocam train"):
        TileDetector(tmp_path / "nope.onnx")


def test_a_known_scale_skips_the_whole_frame_pass():
    rng = np.random.default_rng(5)
    size = (1536, 2040)
    truth = scatter_tiles(rng, size, 20, 100.0)
    frame = draw_tiles(size, truth)
    det = TileDetector(runner=fake_runner(min_long_px=20))
    first = det.detect(frame)
    passes_first, scale = det.last.passes, det.last.scale
    again = det.detect(frame, scale=scale)
    assert det.last.passes == passes_first - 1
    assert len(again) == len(first) == len(truth)
    assert _matched(truth, again.xywhr).tolist() == [1] * len(truth)


def test_the_number_of_windows_is_bounded():
    rng = np.random.default_rng(4)
    size = (3000, 1800)
    frame = draw_tiles(size, scatter_tiles(rng, size, 10, 30.0))
    det = TileDetector(runner=fake_runner(min_long_px=20), settings=DetectorSettings(max_windows=6))
    det.detect(frame)
    assert det.last.sliced and len(det.last.windows) <= 6
    assert det.last.scale < 1.0



def test_tile_sizes_are_the_median_of_the_sure_boxes_and_the_largest_box():
    from vision.detect.detections import Detections
    from vision.detect.obb import xywhr_to_corners

    xywhr = np.array([[100.0 + 60 * i, 300.0, 100.0 + i, 50.0, 0.0] for i in range(21)]
                     + [[900.0, 900.0, 40.0, 20.0, 0.0], [900.0, 1200.0, 600.0, 300.0, 0.0]], np.float32)
    conf = np.array([0.9] * 21 + [0.3, 0.3], np.float32)
    whole = Detections(xywhr_to_corners(xywhr).astype(np.float32), conf, np.zeros(23, np.int64))
    typical, largest = TileDetector(runner=fake_runner()).tile_sizes(whole)
    assert typical == pytest.approx(110.0, abs=0.5) and largest == pytest.approx(600.0, abs=0.5)


def _mixed_frame() -> tuple[tuple[int, int], np.ndarray]:
    """1280x960: five 60 px tiles (the only ones the whole-frame look sees), twenty of 36 px and
    ten of 30 px, which the first finer pass (scale 0.8) still misses."""
    size = (1280, 960)
    truth = scatter_tiles(np.random.default_rng(3), size, 35, 60.0)
    truth[5:25, 2:4] = [36.0, 18.0]
    truth[25:, 2:4] = [30.0, 15.0]
    return size, truth


def test_tiles_still_small_in_the_finer_pass_get_a_second_look():
    size, truth = _mixed_frame()
    frame = draw_tiles(size, truth)
    det = TileDetector(runner=fake_runner(min_long_px=26), settings=DetectorSettings(), dynamic=True)
    found = det.detect(frame)
    # the look sees 60 px tiles -> scale 48/60; there the 36 px tiles are 29 px, under 0.7 x 48,
    # so the frame is seen again at 48/36, where the 30 px tiles show too
    assert det.last.sliced and det.last.scale == pytest.approx(48 / 36, abs=0.05)
    assert _matched(truth, found.xywhr).tolist() == [1] * len(truth)
    assert len(found) == len(truth)


def test_without_the_second_look_the_smallest_tiles_are_missed():
    size, truth = _mixed_frame()
    frame = draw_tiles(size, truth)
    det = TileDetector(runner=fake_runner(min_long_px=26), settings=DetectorSettings(relook_below=0.0), dynamic=True)
    found = det.detect(frame)
    assert det.last.scale == pytest.approx(0.8, abs=0.03)
    assert _matched(truth, found.xywhr).tolist() == [1] * 25 + [0] * 10
