"""The operator's token, kept with the journal so the referee's link survives a restart.

`dominocam serve` asks `operator_token(store, given, new)`: `--token` wins (and is kept),
`--new-token` makes a fresh one (the old link stops working), otherwise the kept one, or a fresh
one the first time. The token lives in the journal file's settings, beside the calibration.
"""

from __future__ import annotations

import secrets

from webui.store import EventStore

SETTING = "operator_token"


def operator_token(store: EventStore, given: str | None = None, new: bool = False) -> str:
    if given:
        token = given
    else:
        kept = store.get_setting(SETTING)
        token = kept if isinstance(kept, str) and kept and not new else secrets.token_urlsafe(16)
    if store.get_setting(SETTING) != token:
        store.set_setting(SETTING, token)
    return token
