"""`dominocam demo`: replay the bundled sample bykovo record and print the result."""

from __future__ import annotations

import argparse
from importlib import resources

HELP = "replay the bundled sample game record and print the result"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--indent", type=int, default=2, help="indent of the printed JSON")


def run(args) -> int:
    from dominocam.commands import replay

    sample = resources.files("dominocam") / "data" / "sample-bykovo.jsonl"
    with resources.as_file(sample) as path:
        args.file, args.strict = str(path), False
        return replay.run(args)
