"""Errors of the engine. Syntax (a record that cannot be read) is split from rules (an event the
rules forbid, raised only in strict mode); both are `ValueError`s."""

from __future__ import annotations


class TileError(ValueError):
    """A tile that is not written `a-b` with 0 <= a, b <= 6."""


class RecordError(ValueError):
    """A record that cannot be read: bad JSON, an unknown key, tile, player or variant.

    `str(err)` is one line naming the file and the 1-based line, e.g.
    `game.jsonl:4: unknown tile '7-2' (tiles are a-b with 0 <= a, b <= 6)`.
    """

    def __init__(self, message: str, *, path: str | None = None, lineno: int | None = None):
        self.message = message
        self.path = path
        self.lineno = lineno  # 0-based event index, printed 1-based
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path or "<events>"
        if self.lineno is not None:
            where = f"{where}:{self.lineno + 1}"
        return f"{where}: {self.message}"

    def at(self, path: str | None = None, lineno: int | None = None) -> RecordError:
        """The same error located in a file and line."""
        return RecordError(
            self.message,
            path=path if path is not None else self.path,
            lineno=lineno if lineno is not None else self.lineno,
        )


class IllegalEventError(ValueError):
    """Strict mode: an event that breaks a rule. `flag` is the verdict that would have been kept."""

    def __init__(self, flag):
        self.flag = flag
        super().__init__(f"event {flag.event}: {flag.rule}: {flag.message}")
