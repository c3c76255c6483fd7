"""Every module of the lab imports cleanly and does nothing at import: no model loaded, no torch,
no Ultralytics (the training extra is imported only by what trains, when it trains)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import lab

ROOT = Path(__file__).resolve().parents[2]

# Run apart: torch and ultralytics made unimportable, any ONNX session or detector refused.
PROBE = """
import importlib, json, sys
sys.modules["torch"] = None
sys.modules["ultralytics"] = None
import onnxruntime
import vision.detect.detector as detector

def refuse(*args, **kwargs):
    raise AssertionError("a model was loaded at import")

onnxruntime.InferenceSession = refuse
detector.TileDetector.__init__ = refuse
done = []
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
    done.append(name)
print(json.dumps(done))
"""


def lab_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(lab.__path__, "lab."))


def test_the_lab_holds_what_moved_out_of_the_runtime():
    names = set(lab_modules())
    for name in ("lab.read.evaluate", "lab.read.train_halfcnn", "lab.read.bench", "lab.detect.training",
                 "lab.detect.compare_ultralytics", "lab.detect.quantize", "lab.live.evaluate",
                 "lab.live.heldout", "lab.benchmarks.run_all", "lab.diagnose.phantoms", "lab.diagnose.deal_log"):
        assert name in names, name
    assert len([n for n in names if n.startswith("lab.diagnose.")]) == 16


def test_every_lab_module_imports_without_loading_a_model_or_torch():
    names = lab_modules()
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(names)], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.splitlines()[-1]) == names
