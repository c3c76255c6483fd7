"""Shared fixtures: one small rendered set for all reader tests (the renderer is deterministic)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

# The validation photos live beside the checkout (../shared); DOMINOCAM_SHARED points elsewhere.
SHARED = Path(os.environ.get("DOMINOCAM_SHARED", Path(__file__).resolve().parents[3] / "shared"))
REAL = SHARED / "real" / "dd-game1"


@pytest.fixture(scope="session")
def rendered(tmp_path_factory) -> Path:
    """24 rendered 1280x960 scenes (seed 5): chains, boards, recounts, many tile styles."""
    from vision.synth.dataset import write_images

    out = tmp_path_factory.mktemp("rendered")
    write_images(out, 24, 5, (1280, 960), n_val=0, progress=False)
    return out


def truths(root: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((root / "truth").glob("*.json"))]
