"""Benchmarks of the runtime: `python -m lab.benchmarks.run_all` (`make bench`) runs them in turn."""
