"""Does an enrolled profile help reading? Per look: enrol one rendered photo of the look's set, then
score held-out scenes of that look (the robustness matrix's scenes: same seed, kinds and size as
`dominocam eval --matrix`) without and with the profile, as `dominocam eval --data DIR [--set FILE]`.

    .venv/bin/python -m lab.benchmarks.measure_profile [--looks a,b] [--images 16] [--size 1280x960]

One Markdown row per look, each column "without -> with".
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from lab.read.sets import MATRIX_COLUMNS, MATRIX_KINDS, MATRIX_SEED, evaluate_set
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.enrol import EnrolError, enrol_photo
from vision.read.workers import reading_pool
from vision.synth.camera import encode_jpeg
from vision.synth.dataset import write_images
from vision.synth.enrol import render_enrolment
from vision.synth.looks import FACTORS

ENROL_SEED = 4200
LOOKS = "baseline,six_across,pin,small_pips,black,value_colours,no_divider"
log = logging.getLogger("measure_profile")


def scenes(root: Path, name: str, n: int, size: tuple[int, int]) -> Path:
    folder = root / f"{size[0]}x{size[1]}" / name
    stamp = folder / "look.json"
    want = {"look": name, "images": n, "seed": MATRIX_SEED, "size": list(size), "kinds": MATRIX_KINDS}
    if not (stamp.is_file() and json.loads(stamp.read_text()) == want):
        write_images(folder, n, MATRIX_SEED, size, n_val=0, progress=False, kinds=MATRIX_KINDS, look=name)
        stamp.write_text(json.dumps(want))
    return folder


def enrolled(name: str, detector, size: tuple[int, int], tries: int = 4):
    """The profile of the look's set from the first of a few enrolment photos that enrols."""
    for i in range(tries):
        r = render_enrolment(np.random.default_rng([ENROL_SEED + list(FACTORS).index(name), i]), size, FACTORS[name])
        frame = cv2.imdecode(np.frombuffer(encode_jpeg(r.image, r.jpeg_quality), np.uint8), cv2.IMREAD_COLOR)
        try:
            return enrol_photo(frame, detector, f"{name}-{i}").profile
        except EnrolError as exc:
            log.warning("%s photo %d not enrolled: %s", name, i, exc)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--looks", default=LOOKS)
    ap.add_argument("--images", type=int, default=16)
    ap.add_argument("--size", default="1280x960")
    ap.add_argument("--root", type=Path, default=Path("datasets/generated/profile-eval"))
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    size = tuple(int(v) for v in args.size.split("x"))
    detector = TileDetector(DEFAULT_MODEL)
    pool = reading_pool()
    cols = [(k, label) for k, label in MATRIX_COLUMNS if k != "recall"]
    print("| look | images | " + " | ".join(label for _, label in cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    try:
        for name in args.looks.split(","):
            folder = scenes(args.root, name, args.images, size)
            profile = enrolled(name, detector, size)
            if profile is None:
                print(f"| {name} | - | no enrolment photo of this look enrolled |", flush=True)
                continue
            rows = []
            for prof in (None, profile):
                ns = SimpleNamespace(split=None, limit=None, exact_boxes=False, seed=0, detection_only=False,
                                     annotate=None, profile=prof)
                rows.append(evaluate_set(folder, 1.0, ns, detector, pool).summary())
            cells = [f"{rows[0][k]} -> {rows[1][k]}" for k, _ in cols]
            print(f"| {name} | {rows[0]['images']} | " + " | ".join(cells) + " |", flush=True)
    finally:
        pool.close()


if __name__ == "__main__":
    main()
