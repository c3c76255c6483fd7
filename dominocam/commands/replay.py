"""`dominocam replay FILE`: validate and score a game record; print one JSON object.

Exit 0 with the JSON on stdout (broken rules are flags in it); exit 2 with one stderr line naming
the file and line for bad input; with --strict, exit 1 at the first broken rule.
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "validate and score a game record (JSON Lines)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="game record, one JSON event per line")
    parser.add_argument("--strict", action="store_true", help="reject the first event that breaks a rule (exit 1)")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")


def replay_file(path: str, *, strict: bool = False) -> dict:
    from engine.record import read_events
    from engine.replay import replay_events

    return replay_events(read_events(path), strict=strict, path=path, checked=True)


def run(args) -> int:
    from engine.errors import IllegalEventError, RecordError

    try:
        result = replay_file(args.file, strict=args.strict)
    except RecordError as exc:
        print(f"dominocam replay: {exc}", file=sys.stderr)
        return 2
    except IllegalEventError as exc:
        flag = exc.flag
        print(f"dominocam replay: {args.file}:{flag.event + 1}: {flag.rule}: {flag.message}", file=sys.stderr)
        return 1
    json.dump(result, sys.stdout, ensure_ascii=False, indent=args.indent)
    sys.stdout.write("\n")
    return 0
