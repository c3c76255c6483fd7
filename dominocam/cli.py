"""The `dominocam` console script: a thin dispatcher over one module per sub-command.

Sub-command modules are imported only when chosen, so `dominocam replay` never pays for OpenCV
and the runtime path never imports torch.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

# name -> (module, one-line help). Modules live in dominocam/commands/.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("dominocam.commands.demo", "run the main job on its embedded default"),
    "replay": ("dominocam.commands.replay", "validate and score a game record (JSON Lines)"),
    "tournament": ("dominocam.commands.tournament", "replay a tournament record"),
    "synth": ("dominocam.commands.synth", "render synthetic table photos and deal videos"),
    "read": ("dominocam.commands.read", "read the tiles and the layout from images"),
    "recount": ("dominocam.commands.recount", "count the hands laid out in a photo"),
    "enrol": ("dominocam.commands.enrol", "learn a set from a photo of its 28 tiles laid face up"),
    "serve": ("dominocam.commands.serve", "run the live assistant and its web pages"),
    "hub": ("dominocam.commands.hub", "run the hub of an event of many tables (MQTT)"),
    "train": ("dominocam.commands.train", "train the tile detector on rendered scenes"),
    "eval": ("dominocam.commands.eval", "measure the reader on rendered or real photos"),
    "bench": ("dominocam.commands.bench", "time detection, reading and layout per frame"),
}


def _load(name: str):
    return importlib.import_module(COMMANDS[name][0])


class PlainFormatter(logging.Formatter):
    """One plain line per message: `dominocam: empty.jpg: empty file` for a warning or an error,
    the message alone for information (timestamps and logger names only under --verbose)."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        return f"dominocam: {text}" if record.levelno >= logging.WARNING else text


def setup_logging(verbose: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s") if verbose
                         else PlainFormatter())
    handler.dominocam = True  # type: ignore[attr-defined]  # ours: replaced on the next call, others kept
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "dominocam", False)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="dominocam", add_help=False)
    parser.add_argument("-v", "--verbose", action="store_true")
    pre, rest = parser.parse_known_args(argv)
    setup_logging(pre.verbose)
    full = argparse.ArgumentParser(prog="dominocam", description="A camera assistant for a domino table.")
    full.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    subs = full.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((a for a in rest if not a.startswith("-")), None)
    for name, (_, help_text) in COMMANDS.items():
        sub = subs.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = _load(name)
            module.add_arguments(sub)
            sub.set_defaults(_run=module.run)
    args = full.parse_args(argv)
    if not getattr(args, "_run", None):
        full.print_help()
        return 0 if args.command is None else 2
    return int(args._run(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
