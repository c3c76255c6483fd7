"""`dominocam bench`'s measurement loop on rendered 1080p frames (timings are not asserted)."""

from __future__ import annotations

from lab.read.bench import run_bench
from vision.detect import live_model


def test_bench_times_reading_on_truth_boxes_when_there_is_no_model(tmp_path):
    res = run_bench(repeats=1, n_frames=1, model=str(tmp_path / "missing.onnx"))
    assert res["detection_ms"] is None and res["detector"].startswith("none")
    assert res["reading_ms"] > 0 and res["total_ms"] >= res["reading_ms"]
    assert 20 <= res["tiles_per_frame"] <= 36  # the frames are chosen for about 28 tiles
    assert res["timed_frames"] == 1
    if res["reading_processes"] > 1:  # the workers' CPU time is counted too
        assert res["cpu_ms_all_processes"] > res["cpu_ms"]


def test_bench_detects_1080p_frames_in_one_finer_pass():
    res = run_bench(repeats=1, n_frames=1)
    assert res["detector"] == str(live_model())  # the live reader's model
    assert res["detection_ms"] > 0 and res["detection_first_frame_ms"] > 0
    # tiles of 76-108 px are under 40 px in the whole-frame look: the finer pass runs, once
    assert res["sliced_frames"] == res["timed_frames"] == 1
    assert res["passes_per_frame"] == 1
    assert res["tiles_per_frame"] >= 20
