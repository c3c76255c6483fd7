"""Every configuration key of the web side, in one place, with its default.

`create_app(config)` starts from DEFAULTS and applies the caller's overrides; unknown keys are
rejected so a typo never silently falls back to a default.
"""

from __future__ import annotations

from typing import Any

# The engine's nine variants (docs/CONTRACTS.md), offered on /operator.
VARIANTS = ["bykovo", "sport", "traditional", "blitz", "blitz-blind", "dark", "sevastopol", "spider", "baltic"]

DEFAULTS: dict[str, Any] = {
    # Storage: the SQLite journal (WAL, synchronous=FULL). Every event lands here before it is shown.
    "DB_PATH": "dominocam.db",
    # The game started when the journal is empty (operator can start another from /operator).
    "VARIANT": "bykovo",
    "PLAYERS": ["North", "East", "South", "West"],
    # Operator token: every write needs it (plus a CSRF token). Required off loopback.
    "OPERATOR_TOKEN": None,
    # Where the server listens; used for the Host-header allow-list and the QR code.
    "BIND_HOST": "127.0.0.1",
    "PORT": 8000,
    # Extra host names accepted in the Host header (e.g. a DNS name of the club PC).
    "ALLOWED_HOSTS": [],
    # The URL spectators should open (QR code); None = worked out from BIND_HOST / LAN address.
    "PUBLIC_URL": None,
    # The live source: an object implementing vision.live.protocol.Pipeline, or None (no camera).
    "PIPELINE": None,
    # MJPEG broadcast: one encoder for all viewers.
    "STREAM_MAX_FPS": 15.0,
    "STREAM_RESEND_S": 1.5,  # re-send the last frame so a still table is painted
    "STREAM_JPEG_QUALITY": 75,
    "STREAM_MAX_VIEWERS": 64,
    "STREAM_SLOW_VIEWER_S": 5.0,  # a viewer that takes longer than this to accept a frame is dropped
    # Server-Sent Events.
    "SSE_KEEPALIVE_S": 10.0,
    "SSE_RETRY_MS": 1000,
    "SSE_MAX_CLIENTS": 128,
    # No frame for this long: the camera is reported as stalled.
    "STALL_AFTER_S": 3.0,
    # Tournament records for the pages of webui/tournament_views.py (None: beside the journal).
    "TOURNAMENT_DIR": None,
    # The pages' language when neither ?lang= nor the lang cookie says (ru or en; webui/i18n.py).
    "LANG": "ru",
    # Photo uploads on /operator (recount).
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,
}


def make_config(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """DEFAULTS with `overrides` applied. Raises ValueError naming an unknown key."""
    config = dict(DEFAULTS)
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS and key not in ("TESTING", "SECRET_KEY"):
            raise ValueError(f"unknown web config key {key!r}; known keys: {', '.join(sorted(DEFAULTS))}")
        config[key] = value
    return config
