"""Where the detector's time goes: onnxruntime's own profiler, summed per operator type.

    .venv/bin/python -m lab.benchmarks.profile_detector [MODEL] [--size 1152x640] [--runs 5] [--threads 2]

The default size is the finer pass of a 1080p frame with 80 px tiles (about 0.6x, see
`dominocam bench`). Prints the median time of a run and the operator types that take the most;
this is how the slow DFL softmax was found (`lab/detect/fast_dfl.py`). The profile file
onnxruntime writes goes to a temporary folder and is removed.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import tempfile
import time
from pathlib import Path


def profile(model: Path, width: int, height: int, runs: int, threads: int) -> dict:
    import numpy as np
    import onnxruntime as ort

    with tempfile.TemporaryDirectory() as tmp:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # as TileDetector
        options.enable_profiling = True
        options.profile_file_prefix = str(Path(tmp) / "ort")
        session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name
        x = np.random.default_rng(0).random((1, 3, height, width), dtype=np.float32)
        session.run(None, {name: x})  # warm-up
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            session.run(None, {name: x})
            times.append((time.perf_counter() - t0) * 1000)
        events = json.loads(Path(session.end_profiling()).read_text())
    per_op, count = collections.Counter(), collections.Counter()
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            per_op[e["args"]["op_name"]] += e["dur"]
            count[e["args"]["op_name"]] += 1
    total = sum(per_op.values()) or 1
    n = runs + 1
    return {
        "model": str(model), "input": f"{width}x{height}", "threads": threads,
        "median_ms": round(statistics.median(times), 1),
        "operators": [{"op": op, "ms_per_run": round(us / n / 1000, 2), "share": round(us / total, 3),
                       "nodes": count[op] // n} for op, us in per_op.most_common(12)],
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", nargs="?", type=Path, default=Path("models/tiles-obb.onnx"))
    ap.add_argument("--size", default="1152x640", help="network input WxH, multiples of 32")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    if w % 32 or h % 32:
        ap.error(f"--size {args.size}: both sides must be multiples of 32 (the network's stride)")
    if not args.model.is_file():
        ap.error(f"{args.model} not found: pass an exported tiles-obb.onnx")
    print(json.dumps(profile(args.model, w, h, args.runs, args.threads), indent=1))
