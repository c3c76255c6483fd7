"""`dominocam tournament`: replay a tournament record, or drive an event from the command line.

  dominocam tournament replay FILE          print the event's JSON (exit 2 on bad input)
  dominocam tournament start FILE JSON      write the declaration line of a new event
  dominocam tournament add FILE JSON        validate and append one line (result, no-show, turn)

Formats: bykovo-micro (BYK-2.x), baltic-rally (BAL-T), sport-pairs (SPT); see the README.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time

from engine.tournament import TournamentError, replay_file, replay_state, store
from engine.tournament.records import read_lines

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    rp = subs.add_parser("replay", help="validate a tournament record and print its JSON")
    rp.add_argument("file", help="JSON Lines record: a tournament line, then one line per result")
    rp.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    rp.add_argument("--now", type=float, default=None,
                    help="sport-pairs: include each table's move timer at this time (seconds; "
                         "'0' means the current clock)")
    st = subs.add_parser("start", help="create a new record with its declaration line")
    st.add_argument("file")
    st.add_argument("declaration", help='JSON, e.g. {"event": "tournament", "format": "bykovo-micro", ...}')
    ad = subs.add_parser("add", help="validate one record line against the event and append it")
    ad.add_argument("file")
    ad.add_argument("record", help='JSON, e.g. {"event": "result", "points": {...}}')


def _json_arg(text: str, what: str) -> dict:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TournamentError(f"the {what} is not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise TournamentError(f"the {what} must be a JSON object")
    return obj


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "replay":
            if args.now is not None:
                now = time.time() if args.now == 0 else args.now
                state = replay_state(read_lines(args.file))
                result = state.to_json(now=now) if hasattr(state, "move_seconds") else state.to_json()
            else:
                result = replay_file(args.file)
        elif args.action == "start":
            result = store.create(args.file, _json_arg(args.declaration, "declaration"))
            log.info("started %s (%s)", args.file, result["format"])
        else:
            result = store.append(args.file, _json_arg(args.record, "record"))
            log.info("appended to %s", args.file)
    except TournamentError as exc:
        if exc.path is None and args.action == "replay":
            exc = exc.at(path=args.file)
        print(f"dominocam tournament: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, indent=getattr(args, "indent", None))
    sys.stdout.write("\n")
    return 0
