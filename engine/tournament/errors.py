"""The one error a tournament record can raise, with the file and line it comes from."""

from __future__ import annotations


class TournamentError(ValueError):
    """Bad tournament input: malformed line, unknown player, wrong table, a result not due.

    `str(err)` is one line, `FILE:LINE: message` when both are known, ready for stderr.
    """

    def __init__(self, message: str, *, lineno: int | None = None, path: str | None = None):
        super().__init__(message)
        self.message = message
        self.lineno = lineno
        self.path = path

    def at(self, *, lineno: int | None = None, path: str | None = None) -> TournamentError:
        """Return a copy that also names the line and/or file (keeps what is already known)."""
        return TournamentError(
            self.message,
            lineno=self.lineno if self.lineno is not None else lineno,
            path=self.path if self.path is not None else path,
        )

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.lineno}: " if self.lineno is not None else f"{self.path}: "
        elif self.lineno is not None:
            where = f"line {self.lineno}: "
        return where + self.message
