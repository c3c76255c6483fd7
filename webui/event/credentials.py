"""The broker's user name and password, from a password file or the environment, never argv.

`--event-user NAME` with `--event-password-file FILE` (the first line of FILE is the password) or
the environment variable DOMINOCAM_EVENT_PASSWORD. A password on the command line would show in
`ps` and in shell history, so there is no option for one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PASSWORD_ENV = "DOMINOCAM_EVENT_PASSWORD"


class CredentialsError(ValueError):
    """Credentials that cannot be used; the message says what to pass instead."""


@dataclass(frozen=True)
class Credentials:
    user: str | None = None
    password: str | None = None

    def __repr__(self) -> str:  # never print a password into a log
        return f"Credentials(user={self.user!r}, password={'***' if self.password else None})"


def load_credentials(user: str | None, password_file: str | None,
                     environ: dict[str, str] | None = None) -> Credentials:
    """Raises CredentialsError for a password without a user, or an unreadable / empty file."""
    env = os.environ if environ is None else environ
    password = None
    if password_file:
        path = Path(password_file)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise CredentialsError(f"cannot read the broker password file {path} ({exc.strerror}); "
                                   "pass --event-password-file FILE with the password on its first line") from None
        password = lines[0].strip() if lines else ""
        if not password:
            raise CredentialsError(f"the broker password file {path} is empty: put the password on its first line")
    elif env.get(PASSWORD_ENV):
        password = env[PASSWORD_ENV]
    if password and not user:
        raise CredentialsError("a broker password needs its user name: pass --event-user NAME")
    return Credentials(user or None, password)
