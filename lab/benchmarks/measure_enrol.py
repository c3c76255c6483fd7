"""Enrolment per look: N rendered photos of a whole set per look of vision/synth/looks.py, each
enrolled as `dominocam enrol` does; the share with all 28 tiles assigned right (half by half).

    .venv/bin/python -m lab.benchmarks.measure_enrol [--photos 16] [--looks a,b] [--size 1280x960]

One Markdown row per look: photos, 28/28 right (each tile the right value), of those every half the
right way round, refused (why, in short), assigned with a mistake.
The photos are held out (seed 4100 + look index; the tests use seed 31).
"""

from __future__ import annotations

import argparse
import logging
import re
import time
from collections import Counter

import cv2
import numpy as np

from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.enrol import EnrolError, enrol_photo
from vision.synth.camera import encode_jpeg
from vision.synth.enrol import render_enrolment
from vision.synth.looks import FACTORS

SEED = 4100


def right_tiles(enrolment, render) -> tuple[int, int]:
    """Tiles given the values of the rendered tile they lie on, and of those the ones read the
    right way round (half by half)."""
    truth = np.array(render.halves)
    good = turned_right = 0
    for t in enrolment.tiles:
        j = int(np.argmin(np.linalg.norm(truth.mean(axis=1) - t.halves.mean(axis=0), axis=1)))
        straight = np.linalg.norm(truth[j] - t.halves, axis=1).max()
        turned = np.linalg.norm(truth[j][::-1] - t.halves, axis=1).max()
        want = tuple(render.tiles[j].values) if straight < turned else tuple(render.tiles[j].values)[::-1]
        good += sorted(t.values) == sorted(want)
        turned_right += tuple(t.values) == want
    return good, turned_right


def _why(exc: EnrolError) -> str:
    text = str(exc)
    m = re.match(r"found (\d+) tiles", text)
    if m:
        return f"{m.group(1)} tiles"
    return "not assigned" if text.startswith("cannot assign") else text.split(":")[0][:30]


def measure(name: str, index: int, photos: int, size: tuple[int, int], detector) -> dict:
    right = wrong = halves = 0
    refused: Counter = Counter()
    t0 = time.perf_counter()
    for i in range(photos):
        r = render_enrolment(np.random.default_rng([SEED + index, i]), size, FACTORS[name])
        frame = cv2.imdecode(np.frombuffer(encode_jpeg(r.image, r.jpeg_quality), np.uint8), cv2.IMREAD_COLOR)
        try:
            enrolment = enrol_photo(frame, detector, f"{name}-{i}")
        except EnrolError as exc:
            refused[_why(exc)] += 1
            continue
        good, way_round = right_tiles(enrolment, r)
        right += good == 28
        wrong += good != 28
        halves += way_round == 28
    return {"look": name, "photos": photos, "right": right, "refused": refused, "wrong": wrong, "halves": halves,
            "s_per_photo": (time.perf_counter() - t0) / photos}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=16)
    ap.add_argument("--looks", default=None, help="comma-separated (default: every look)")
    ap.add_argument("--size", default="1280x960")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    size = tuple(int(v) for v in args.size.split("x"))
    names = args.looks.split(",") if args.looks else list(FACTORS)
    detector = TileDetector(DEFAULT_MODEL)
    print("| look | photos | 28/28 right | of those, every half the right way round | refused (why) "
          "| assigned with a mistake | s/photo |")
    print("|---|---|---|---|---|---|---|")
    total = Counter()
    for name in names:
        row = measure(name, list(FACTORS).index(name), args.photos, size, detector)
        why = ", ".join(f"{k}: {v}" for k, v in sorted(row["refused"].items())) or "-"
        share = 100.0 * row["right"] / row["photos"]
        print(f"| {name} | {row['photos']} | {row['right']} ({share:.0f} %) | {row['halves']} "
              f"| {sum(row['refused'].values())} ({why}) "
              f"| {row['wrong']} | {row['s_per_photo']:.2f} |", flush=True)
        total.update({k: row[k] for k in ("photos", "right", "wrong", "halves")})
    print(f"\nall looks: {total['right']} of {total['photos']} photos 28/28 right ({total['halves']} with every half "
          f"the right way round), {total['wrong']} assigned with a mistake")


if __name__ == "__main__":
    main()
