"""The runtime path never imports torch or ultralytics (CONTRACTS.md), checked in a fresh interpreter."""

import json
import subprocess
import sys
from pathlib import Path

from vision.detect import DEFAULT_MODEL

SCRIPT = r"""
import json, sys
import numpy as np
sys.path.insert(0, {tests!r})
from detect_fakes import draw_tiles, fake_runner, scatter_tiles
from vision.detect import DEFAULT_MODEL, TileDetector

frame = draw_tiles((1920, 1080), scatter_tiles(np.random.default_rng(0), (1920, 1080), 12, 60.0))
n_fake = len(TileDetector(runner=fake_runner()).detect(frame))
n_onnx = None
if DEFAULT_MODEL.is_file():
    n_onnx = len(TileDetector(DEFAULT_MODEL).detect(frame))
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "torchvision", "ultralytics"))
print(json.dumps({{"fake": n_fake, "onnx": n_onnx, "heavy": heavy}}))
"""


def test_detecting_imports_no_torch_or_ultralytics():
    code = SCRIPT.format(tests=str(Path(__file__).parent))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["fake"] == 12
    if DEFAULT_MODEL.is_file():
        assert result["onnx"] is not None  # the real session ran
    assert result["heavy"] == []
