"""`dominocam recount PHOTO`: pips per seat from the hands laid face up, the deal's points, and
wrongful passes (SPT-11, BAL-5) when the game record is given."""

from __future__ import annotations

import argparse
import json
import logging
import sys

HELP = "count the hands laid out in a photo"
log = logging.getLogger("dominocam.recount")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from dominocam.commands.read import add_set_argument

    parser.add_argument("photo", metavar="PHOTO", help="overhead photo with each hand laid face up in front of its seat")
    parser.add_argument("--variant", default="bykovo", help="rule set (ignored with --record, which names it)")
    parser.add_argument("--players", help="names in clockwise seat order from the south (bottom) edge, "
                                          "e.g. Anna,Boris,Vera,Gleb (default: from --record, else South,West,North,East)")
    parser.add_argument("--seats", help="seats of those players, e.g. south,north (default clockwise from south)")
    parser.add_argument("--record", metavar="FILE", help="the game record (JSON Lines): the hands are appended as "
                                                         "reveals of its last deal and earlier passes audited")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--annotate", metavar="OUT", help="write the annotated photo here")
    parser.add_argument("--model", help="detector ONNX file (default models/tiles-obb.onnx)")
    parser.add_argument("--truth-boxes", action="store_true", help="testing aid for rendered photos (see `read`)")
    add_set_argument(parser)
    parser.add_argument("--lang", choices=("ru", "en"), default=None,
                        help="language of the text output (default ru; DOMINOCAM_LANG=en changes the default)")


def run(args) -> int:
    from dominocam.commands.read import load_set, make_detector
    from engine.errors import RecordError
    from engine.record import read_record
    from vision.read.imageio import ImageError, load_image
    from vision.read.reader import read_frame

    if not load_set(args, "recount"):
        return 2
    record = None
    variant = args.variant
    players = None
    if args.record:
        try:
            record = read_record(args.record)
        except (RecordError, OSError) as exc:
            print(f"dominocam recount: {exc}", file=sys.stderr)
            return 2
        players, variant = list(record[0]["players"]), record[0]["variant"]
    if args.players:
        named = [p.strip() for p in args.players.split(",") if p.strip()]
        if players is not None and sorted(named) != sorted(players):
            print(f"dominocam recount: --players {named} differ from the record's {players}", file=sys.stderr)
            return 2
        players = named
    if players is None:
        players = ["South", "West", "North", "East"]
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    if seats is not None and len(seats) != len(players):
        print(f"dominocam recount: {len(seats)} seats for {len(players)} players", file=sys.stderr)
        return 2
    try:
        frame = load_image(args.photo)
        detect = make_detector(args)
        detections, doubtful = detect(frame, args.photo)
        reading = read_frame(frame, detections, doubtful=doubtful, profile=args.profile)
    except (ImageError, FileNotFoundError) as exc:
        print(f"dominocam recount: {args.photo}: {exc}", file=sys.stderr)
        return 2
    from vision.read.recount import recount

    try:
        rc = recount(reading, players, variant, record, seats)
    except (ValueError, RecordError) as exc:
        print(f"dominocam recount: {exc}", file=sys.stderr)
        return 2
    if args.annotate:
        import cv2

        from vision.read.picture import draw_reading

        cv2.imwrite(args.annotate, draw_reading(frame, reading))
    from webui.recount_text import recount_report

    report = recount_report(rc, variant, players, record, len(reading.tiles), lang=args.lang or default_lang())
    if args.json:
        print(json.dumps({
            "image": args.photo, "variant": variant,
            "hands": {h.player: {"seat": h.seat, "tiles": [str(t) for t in h.tiles],
                                 "pips": None if h.player in report.waiting else h.pips,
                                 "unread": h.unread, "face_down": h.face_down,
                                 "unsure": [str(t) for t in h.unsure]} for h in rc.hands},
            "boneyard": len(rc.boneyard), "deal": rc.deal, "totals": rc.result.get("totals"),
            "wrongful_passes": rc.flags, "warnings": rc.warnings,
            "waiting": report.waiting, "impossible": report.problems, "final": report.final}))
    else:
        print("\n".join(report.lines))
    return 0 if not report.problems else 1


def default_lang() -> str:
    """Russian unless DOMINOCAM_LANG asks for English (en)."""
    import os

    return "en" if os.environ.get("DOMINOCAM_LANG", "").lower().startswith("en") else "ru"
