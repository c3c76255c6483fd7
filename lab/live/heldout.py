"""Held-out whole-deal videos for the live evaluation (issue 24), rendered by vision/synth/video.py.

    python -m lab.live.heldout OUT [--deals 30] [--first 0] [--seed 2401]

Deal k (from `--first`): a seed of its own (never the demo's or the tests'), a variant in turn
(every variant of the engine), a set's look in turn (vision/synth/looks.py: the set-make factors and
JPEG 40, each on the same tiles as the plain set would be), the camera turned 0, 7, 14 or 20
degrees, 640x480 or 800x600 (tiles about 40 to 80 px long), and in every other deal a spectator's
hand passing over the layout before the fourth play. The default, 30 deals, shows every look
twice (issue 24: every factor in at least two deals). Each is written whole (or not at all) to
OUT/videos/hNN_LOOK_VARIANT/; existing ones are kept.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# The looks the renderer's video writer takes: the set's make, and the JPEG quality.
LOOKS = ("baseline", "six_across", "no_divider", "faint_divider", "groove", "pin", "pin_line",
         "small_pips", "big_pips", "engraved", "ivory", "black", "green_body", "value_colours",
         "jpeg40")
TURNS = (0.0, 7.0, 14.0, 20.0)
SIZES = ((640, 480), (800, 600))


@dataclass(frozen=True)
class Plan:
    """One held-out deal to render."""

    index: int
    seed: int
    variant: str
    look: str
    turn_deg: float
    size: tuple[int, int]
    spectator_at: int | None

    @property
    def name(self) -> str:
        return f"h{self.index:02d}_{self.look}_{self.variant}"


def plans(n: int, first: int = 0, seed: int = 2401) -> list[Plan]:
    from engine.rules import VARIANTS

    variants = sorted(VARIANTS)
    return [Plan(k, seed + k, variants[k % len(variants)], LOOKS[k % len(LOOKS)],
                 TURNS[k % len(TURNS)], SIZES[(k // 2) % len(SIZES)], 3 if k % 2 else None)
            for k in range(first, first + n)]


def render(out: Path, plan: Plan) -> Path:
    """Render one planned deal into OUT/videos/NAME (kept if already there)."""
    from vision.live.demo import load_video
    from vision.synth.looks import look
    from vision.synth.video import render_video, video_rng

    folder = out / "videos" / plan.name
    if load_video(folder) is not None:
        return folder
    partial = out / "partial" / plan.name
    for attempt in range(5):  # a deal that does not fit the table: another from the same seed
        shutil.rmtree(partial, ignore_errors=True)
        try:
            render_video(partial, video_rng(plan.seed, 1000 * attempt), plan.size, 10,
                         variant=plan.variant, progress=False, look=look(plan.look),
                         turn_deg=plan.turn_deg, spectator_at=plan.spectator_at, framed=True)
            break
        except RuntimeError as exc:
            log.warning("%s, attempt %d: %s", plan.name, attempt + 1, exc)
    else:
        raise RuntimeError(f"{plan.name}: no deal fitted the table in 5 attempts")
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial.rename(folder)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.live.heldout", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--deals", type=int, default=2 * len(LOOKS), help="deals to render (every look twice)")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2401)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    for plan in plans(args.deals, args.first, args.seed):
        log.info("rendered %s", render(args.out, plan))
    with contextlib.suppress(OSError):  # another run may still be rendering into it
        (args.out / "partial").rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
