"""The written data set follows CONTRACTS.md "Rendered data" and is reproducible byte for byte."""

from __future__ import annotations

import json

import numpy as np

from dominocam.cli import main
from vision.synth.dataset import write_images


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    write_images(a, 3, seed=5, size=(320, 240), progress=False)
    write_images(b, 3, seed=5, size=(320, 240), progress=False)
    write_images(c, 3, seed=6, size=(320, 240), progress=False)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file() and p.name != "data.yaml")
    assert len(files) == 9
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f"{f} differs between two runs of seed 5"
    assert (a / "images/train/s5_000000.jpg").read_bytes() != (c / "images/train/s6_000000.jpg").read_bytes()


def test_rendering_in_processes_writes_the_same_files(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    a = write_images(one, 6, seed=5, size=(320, 240), n_val=2, progress=False)
    b = write_images(two, 6, seed=5, size=(320, 240), n_val=2, progress=False, processes=2)
    assert a == b
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file() and p.name != "data.yaml")
    assert len(files) == 18 and len(list((two / "images/val").glob("*.jpg"))) == 2
    for f in files:
        assert (one / f).read_bytes() == (two / f).read_bytes(), f"{f} differs when rendered in two processes"
    assert main(["synth", "--out", str(tmp_path / "bad"), "--images", "2", "--processes", "0"]) == 2


def test_layout_labels_truth_and_yaml(tmp_path):
    out = tmp_path / "set"
    assert main(["synth", "--out", str(out), "--images", "10", "--seed", "2", "--size", "320x320"]) == 0
    assert len(list((out / "images/train").glob("*.jpg"))) == 9
    assert len(list((out / "images/val").glob("*.jpg"))) == 1
    yaml = (out / "data.yaml").read_text()
    assert "train: images/train" in yaml and "val: images/val" in yaml and "0: tile_up" in yaml and "1: tile_down" in yaml
    n_labels = 0
    for label in (out / "labels").rglob("*.txt"):
        truth = json.loads((out / "truth" / f"{label.stem}.json").read_text())
        assert truth["size"] == [320, 320]
        tiles = truth["tiles"]
        labelled = [t for t in tiles if t["labelled"]]
        lines = label.read_text().splitlines()
        assert len(lines) == len(labelled)
        for line, t in zip(lines, labelled, strict=True):
            parts = line.split()
            assert len(parts) == 9 and parts[0] == {"up": "0", "down": "1"}[t["face"]]
            xy = np.array(parts[1:], float).reshape(4, 2)
            assert ((xy >= 0) & (xy <= 1)).all()
            exact = np.clip(np.array(t["corners"]) / 320, 0, 1)
            assert np.abs(xy - exact).max() < 0.02 / 320  # truth keeps 0.01 px
        for t in tiles:
            assert t["owner"] in {"layout", "boneyard", "north", "east", "south", "west"}
            assert (t["values"] is None) == (t["face"] == "down")
            assert len(t["corners"]) == 4 and len(t["halves"]) == 2
            if t["parent"] is not None:
                assert 0 <= t["parent"] < len(tiles) and t["joint"] in range(7)
        n_labels += len(lines)
    assert n_labels > 20


def test_big_frames_keep_tiles_in_range():
    """4K frames render, and tiles stay within the documented 20-400 px long side."""
    from vision.synth.scene import render_scene, tile_length_range

    lo, hi = tile_length_range((3840, 2160))
    assert (lo, hi) == (20.0, 400.0)
    r = render_scene(np.random.default_rng(1), (3840, 2160), kind="chain", length=380.0)
    assert r.image.shape == (2160, 3840, 3)
    lengths = [np.linalg.norm(c[1] - c[0]) for c, ok in zip(r.corners, r.labelled, strict=True) if ok]
    assert lengths and 250 < float(np.median(lengths)) < 520
