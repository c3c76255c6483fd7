"""`make bench` runs lab.benchmarks.run_all, which runs each benchmark module and reads its result."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from lab.benchmarks import run_all

ROOT = Path(__file__).resolve().parents[1]


def test_make_bench_runs_a_module_that_exists():
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^bench:.*\n\t(.+)$", makefile, re.M).group(1)
    module = re.search(r"-m (lab\.\S+)", recipe).group(1)
    assert module == "lab.benchmarks.run_all"
    assert importlib.util.find_spec(module) is not None


def test_every_benchmark_the_runner_names_exists():
    for module, _, _ in run_all.BENCHES.values():
        assert (ROOT / "lab" / "benchmarks" / f"{module}.py").is_file(), module


def test_results_are_read_from_one_line_or_indented_json():
    last_json = run_all.last_json
    assert last_json('log line\n{"total_ms": 51.7}\nPASS: total 51.7 ms') == {"total_ms": 51.7}
    assert last_json('{"first": 1}\n{\n  "fps": 10.0,\n  "rss": [1, 2]\n}\ntargets met') == {"fps": 10.0, "rss": [1, 2]}
    assert last_json("no result here\n{broken") is None
