"""The lab: training, evaluation, benchmarks and diagnosis of the runtime (engine, vision, webui).

The lab imports the runtime; nothing in the runtime imports the lab (pyproject.toml's
import-linter contracts, tests/test_layers.py). Needs the `train` extra only where it trains.
"""
