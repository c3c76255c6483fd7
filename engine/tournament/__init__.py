"""Tournaments and protocols: Bykovo micro-tournament (BYK-2.x), Baltic Rally bracket (BAL-T),
sport pairs protocol (SPT). Standard library only; the web and the CLI drive the same functions.

`replay_file(path)` / `replay_lines(lines)` return the JSON of `dominocam tournament replay`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.tournament.errors import TournamentError
from engine.tournament.records import FORMATS, Line, parse_lines, read_lines

__all__ = ["FORMATS", "TournamentError", "replay_file", "replay_lines", "replay_state", "parse_lines"]


def replay_state(lines: Sequence[Line]):
    """Replay a parsed record into its format's state object (Bykovo, Baltic or Sport)."""
    from engine.tournament import baltic, bykovo, sport

    module = {"bykovo-micro": bykovo, "baltic-rally": baltic, "sport-pairs": sport}[lines[0][1]["format"]]
    return module.replay(lines)


def replay_lines(lines: Sequence[Line]) -> dict:
    return replay_state(lines).to_json()


def replay_file(path: str | Path) -> dict:
    """Read, validate and replay a record file. Raises TournamentError naming file and line."""
    lines = read_lines(path)
    try:
        return replay_lines(lines)
    except TournamentError as exc:
        raise exc.at(path=str(path)) from None
