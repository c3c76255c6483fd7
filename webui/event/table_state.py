"""What a table says about itself on its retained `…/state` topic (small: a big screen of 16
tables reads all of them): players, scores, whose turn, the last moves, the open ends, flags, the
banner, and a small JPEG thumbnail of the camera picture."""

from __future__ import annotations

import base64
from typing import Any

import cv2
import numpy as np

THUMB_WIDTH = 240
THUMB_QUALITY = 60
LAST_MOVES = 5


def thumbnail(frame: np.ndarray | None, width: int = THUMB_WIDTH, quality: int = THUMB_QUALITY) -> str | None:
    """A base64 JPEG of the frame scaled to `width` pixels (None without a frame)."""
    if frame is None or getattr(frame, "ndim", 0) < 2 or frame.shape[1] == 0:
        return None
    h, w = frame.shape[:2]
    scale = min(1.0, width / w)
    small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return base64.b64encode(buf.tobytes()).decode("ascii") if ok else None


def compact_state(state: dict[str, Any], *, table: int, url: str | None, thumb: str | None,
                  now: float, thumb_ts: float | None = None) -> dict[str, Any]:
    """The retained state message from a table's full /api/state."""
    moves = state.get("moves") or []
    deals = state.get("deals") or []
    return {
        "table": table,
        "online": True,
        "url": url,
        "ts": now,
        "last_id": state.get("last_event_id", 0),
        "variant": (state.get("game") or {}).get("variant"),
        "players": state.get("players") or [],
        "totals": state.get("totals") or {},
        "to_move": state.get("to_move"),
        "deal": deals[-1].get("number") if deals else None,
        "finished": bool(state.get("finished")),
        "open_ends": state.get("open_ends") or [],
        "last_moves": [m.get("event") for m in moves[-LAST_MOVES:]],
        "flags": [{k: f.get(k) for k in ("rule", "message")} for f in (state.get("flags") or [])[-3:]],
        "banner": state.get("banner"),
        "camera": {k: (state.get("camera") or {}).get(k) for k in ("state", "message")},
        "thumbnail": thumb,
        "thumbnail_ts": thumb_ts,  # when the thumbnail was taken
    }
