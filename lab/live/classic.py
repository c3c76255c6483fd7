"""The 8 rendered deals of the model card's first live row, rendered by vision/synth/video.py.

    python -m lab.live.classic OUT        (the card uses datasets/cache/live-eval)

The renderer's own set (no look), 640x480 and 960x720: deal `sS_W_VARIANT` is the one video of
`dominocam synth --videos 1 --seed S --video-size Wx(3/4 W)`, whose variant the seed draws;
s7_960_bykovo is `make demo`'s first deal. Each is written to OUT/NAME/videos/deal_sS_000/ (kept if already there), the folder
`python -m lab.live.evaluate OUT/NAME` takes.
"""

from __future__ import annotations

import argparse
import logging
import shutil
from pathlib import Path

log = logging.getLogger(__name__)

# (seed, frame width, variant)
DEALS = ((7, 960, "bykovo"), (7, 640, "bykovo"), (24, 640, "bykovo"), (21, 640, "baltic"),
         (5, 960, "baltic"), (22, 640, "traditional"), (23, 640, "dark"), (44, 640, "traditional"))


def name(seed: int, width: int, variant: str) -> str:
    return f"s{seed}_{width}_{variant}"


def render(out: Path, seed: int, width: int, variant: str) -> Path:
    """Render one deal into OUT/NAME (kept if already there); returns OUT/NAME."""
    from vision.live.demo import find_video
    from vision.synth.video import render_video, video_rng

    root = out / name(seed, width, variant)
    if find_video(root) is not None:
        return root
    folder = root / "videos" / f"deal_s{seed}_000"
    partial = root / "partial"
    shutil.rmtree(partial, ignore_errors=True)
    drawn = render_video(partial, video_rng(seed, 0), (width, width * 3 // 4), 10, progress=False)["variant"]
    if drawn != variant:
        raise RuntimeError(f"seed {seed} drew a {drawn} deal, not {variant}: the renderer changed")
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial.rename(folder)
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.live.classic", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    for deal in DEALS:
        log.info("rendered %s", render(args.out, *deal))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
