"""Seeded lots (жребий): the same seed and tag always draw the same players.

Each draw gets its own generator seeded with `"{seed}:{tag}"` (string seeds are hashed with
SHA-512 by `random`, so the result does not depend on the Python process or on earlier draws).
Every draw is returned as a `Lot` so the replay output shows what was drawn and why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Lot:
    """One drawn lot: the rule that needed it, the tied candidates, what was drawn (in order)."""

    rule: str
    tag: str
    among: tuple[str, ...]
    drawn: tuple[str, ...]

    def to_json(self) -> dict:
        return {"rule": self.rule, "tag": self.tag, "among": list(self.among), "drawn": list(self.drawn)}


def draw(seed: int, tag: str, rule: str, among: Sequence[str], k: int) -> Lot:
    """Draw `k` of `among` (order of `among` matters for reproducibility, keep it canonical)."""
    if not 0 <= k <= len(among):
        raise ValueError(f"cannot draw {k} of {len(among)}")
    rng = random.Random(f"{seed}:{tag}")
    return Lot(rule=rule, tag=tag, among=tuple(among), drawn=tuple(rng.sample(list(among), k)))
