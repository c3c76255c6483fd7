"""`dominocam enrol PHOTO [--out FILE] [--json]`: learn a club's set from one photo of it.

The photo shows all 28 tiles of a double-six set face up, not touching. Each tile is read and the
set solved as an assignment (every value once); the set's profile is written to FILE (default
set.json) for `read`, `recount` and `serve --set FILE`.

Exit 0 with the profile written; exit 1 with one stderr line when the photo does not show exactly
28 tiles or they cannot be assigned (nothing is written); exit 2 for a file that is not an image
or a missing detector model.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

HELP = "learn a set from a photo of its 28 tiles laid face up"
log = logging.getLogger("dominocam.enrol")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", metavar="PHOTO", help="photo of the whole set: 28 tiles face up, not touching")
    parser.add_argument("--out", metavar="FILE", default="set.json", help="where to write the set profile "
                                                                         "(default set.json)")
    parser.add_argument("--json", action="store_true", help="print the tiles read as one JSON object")
    parser.add_argument("--model", help="detector ONNX file (default models/tiles-obb.onnx)")


def run(args) -> int:
    from vision.read.enrol import EnrolError, enrol_photo, enrolment_to_json
    from vision.read.imageio import ImageError, load_image
    from vision.read.setprofile import save_profile

    try:
        frame = load_image(args.photo)
    except ImageError as exc:
        print(f"dominocam enrol: {args.photo}: {exc}", file=sys.stderr)
        return 2
    try:
        from vision.detect import DEFAULT_MODEL, TileDetector

        detector = TileDetector(Path(args.model) if args.model else DEFAULT_MODEL)
    except FileNotFoundError as exc:
        print(f"dominocam enrol: {exc}", file=sys.stderr)
        return 2
    try:
        enrolment = enrol_photo(frame, detector, args.photo)
    except EnrolError as exc:
        print(f"dominocam enrol: {args.photo}: {exc}", file=sys.stderr)
        return 1
    out = Path(args.out)
    if out.parent != Path(""):
        out.parent.mkdir(parents=True, exist_ok=True)
    save_profile(enrolment.profile, out)
    log.info("enrolled %s: profile written to %s", args.photo, out)
    if args.json:
        print(json.dumps(enrolment_to_json(enrolment, args.photo, str(out))), flush=True)
    else:
        p = enrolment.profile
        least = min(enrolment.tiles, key=lambda t: t.confidence)
        print(f"{args.photo}: all {p.tiles} tiles read and assigned (least sure {least.values[0]}-{least.values[1]} "
              f"at {least.confidence:.2f}); divider {p.divider}, six {p.arrangements[6]}, "
              f"tiles {p.tile_length_px:.0f}x{p.tile_width_px:.0f} px; profile written to {out}", flush=True)
    return 0
