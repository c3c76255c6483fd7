"""Shared fixtures for the detector tests."""

import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def render_scenes(tmp_path_factory):
    """render_scenes(images, val, seed): a `dominocam synth` set of 640x640 scenes with truth."""

    def render(images: int, val: int, seed: int):
        out = tmp_path_factory.mktemp("scenes")
        cmd = [sys.executable, "-m", "dominocam", "synth", "--out", str(out), "--images", str(images),
               "--val", str(val), "--videos", "0", "--seed", str(seed), "--size", "640x640"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
        return out

    return render
