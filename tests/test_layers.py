"""The layers hold (pyproject.toml's import-linter contracts: dominocam > lab > webui > vision >
engine, the engine on the standard library, the runtime free of the lab, torch and Ultralytics,
reading free of the renderer), no module takes part in an import cycle, and reading a frame or
opening a camera's pipeline imports no renderer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "vision", "webui", "lab", "dominocam")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_every_import_linter_contract_is_kept():
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "import-linter is missing: pip install -e '.[test]'"
    out = subprocess.run([exe, "--no-cache"], capture_output=True, text=True, cwd=ROOT, env=_env(),
                         timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert {c["id"] for c in contracts} >= {"layers", "engine-stdlib", "runtime-no-lab", "no-renderer",
                                            "acyclic"}
    assert f"Contracts: {len(contracts)} kept, 0 broken." in out.stdout


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start) & modules)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child) & modules))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_takes_part_in_an_import_cycle():
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    modules = set(graph.modules)
    assert {"vision.live.pipeline", "vision.live.demo", "webui.app", "webui.views_api", "lab.read.evaluate"} <= modules
    assert _cycles(graph, modules) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for m in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(m)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert _cycles(graph, {"p.a", "p.b", "p.c"}) == [["p.a", "p.b"]]


PROBE = """
import sys
import numpy as np
from vision.detect import Detections
from vision.read.reader import read_frame
from vision.live.launch import open_pipeline
import webui.app

reading = read_frame(np.full((240, 320, 3), 90, np.uint8), Detections.empty())
assert reading.tiles == [], reading.tiles
pipe = open_pipeline(sys.argv[1], model=sys.argv[2])
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("lab", "torch", "ultralytics", "onnx")
             or m.startswith("vision.synth"))
print("clean" if not bad else bad)
"""


def test_reading_a_frame_and_opening_a_camera_import_no_renderer(tmp_path):
    import cv2
    import numpy as np

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.jpg"), np.full((240, 320, 3), 90, np.uint8))
    model = ROOT / "models" / "tiles-obb.int8.onnx"
    out = subprocess.run([sys.executable, "-c", PROBE, str(frames), str(model)], capture_output=True,
                         text=True, cwd=ROOT, env=_env(), timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "clean"
