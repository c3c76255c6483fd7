"""`make bench` runs benchmarks/run_all.py, which runs each benchmark script and reads its result."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run_all():
    spec = importlib.util.spec_from_file_location("run_all", ROOT / "benchmarks" / "run_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_bench_runs_a_script_that_exists():
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^bench:.*\n\t(.+)$", makefile, re.M).group(1)
    script = re.search(r"(benchmarks/\S+\.py)", recipe).group(1)
    assert (ROOT / script).is_file()


def test_every_benchmark_the_runner_names_exists():
    for script, _, _ in _run_all().BENCHES.values():
        assert (ROOT / "benchmarks" / script).is_file(), script


def test_results_are_read_from_one_line_or_indented_json():
    last_json = _run_all().last_json
    assert last_json('log line\n{"total_ms": 51.7}\nPASS: total 51.7 ms') == {"total_ms": 51.7}
    assert last_json('{"first": 1}\n{\n  "fps": 10.0,\n  "rss": [1, 2]\n}\ntargets met') == {"fps": 10.0, "rss": [1, 2]}
    assert last_json("no result here\n{broken") is None
