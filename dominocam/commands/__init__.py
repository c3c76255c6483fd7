"""One module per sub-command. Each exposes `HELP`, `add_arguments(parser)` and `run(args) -> int`."""
