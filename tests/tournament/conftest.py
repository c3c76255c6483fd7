from __future__ import annotations

import json
from pathlib import Path

import pytest

from dominocam.cli import main


def _write_record(path: Path, lines: list[dict | str]) -> Path:
    path.write_text("".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines), encoding="utf-8")
    return path


@pytest.fixture
def write_record():
    """Write dicts (as JSON) or raw strings as the lines of a record file."""
    return _write_record


@pytest.fixture
def cli(capsys):
    """Run `dominocam ARGS`; return (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run
