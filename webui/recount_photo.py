"""The recount photo: hand the picture to the reader (vision/read/) and get tiles per seat back.

The reader owns the vision (`vision.read.recount.recount` over `vision.read.reader.read_frame` and
the tile detector); this module only decodes the upload and adapts the call. Nothing is stored
here: the operator checks the tiles and confirms, which appends the `reveal` events.
"""

from __future__ import annotations

import threading
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.reader import read_frame
from vision.read.recount import recount
from webui.i18n import gettext as _
from webui.i18n import request_lang
from webui.recount_text import recount_report

# Image edge -> the reader's compass seat (vision/live/calibration.py: COMPASS).
EDGE_TO_SEAT = {"bottom": "south", "left": "west", "top": "north", "right": "east"}

_detector_lock = threading.Lock()
_detector = None


class RecountUnavailable(RuntimeError):
    pass


def decode_photo(data: bytes) -> np.ndarray:
    """BGR image from uploaded bytes. Raises ValueError for anything that is not an image."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:
        raise ValueError(_("That file is not a photo: send a JPEG or PNG picture of the hands."))
    return image


def _detect(image: np.ndarray):
    """The detector's boxes and its doubtful ones (read under the lock: `last` is per call)."""
    global _detector
    with _detector_lock:
        if _detector is None:
            try:
                _detector = TileDetector(DEFAULT_MODEL)
            except (FileNotFoundError, OSError) as exc:
                raise RecountUnavailable(
                    _("No tile detector to read the photo here: type each player's tiles instead.")
                ) from exc
        return _detector.detect(image), _detector.last.doubtful


def _read_with_vision(image: np.ndarray, players: list[str], variant: str | None,
                      record: list[dict] | None = None, seats: list[str] | None = None) -> dict[str, Any]:
    detections, doubtful = _detect(image)
    reading = read_frame(image, detections, doubtful=doubtful)
    rc = recount(reading, players, variant or "bykovo", record, seats)
    # the referee's notes in the page's language: hands not fully seen, impossible counts, unsure tiles
    report = recount_report(rc, variant or "bykovo", players, record, len(reading.tiles), request_lang())
    return {
        "hands": {h.player: [str(t) for t in h.tiles] for h in rc.hands},
        "pips": {h.player: h.pips for h in rc.hands},
        "warnings": report.notes,
        "boneyard": len(rc.boneyard),  # face-down tiles in a heap, counted in no hand
        "flags": list(rc.flags),
        "deal": rc.deal,
    }


def _reader():
    """The photo reader (the tests put a stand-in here)."""
    return _read_with_vision


def seats_for(players: list[str], calibration: dict | None) -> list[str] | None:
    """The reader's seat of each player from the table calibration (edge -> player), if complete."""
    if not calibration:
        return None
    by_player = {p: EDGE_TO_SEAT.get(edge) for edge, p in (calibration.get("seats") or {}).items()}
    seats = [by_player.get(p) for p in players]
    return seats if all(seats) else None


def read_hands(data: bytes, players: list[str], variant: str | None, record: list[dict] | None = None,
               calibration: dict | None = None) -> dict[str, Any]:
    """{"hands": {player: ["a-b", ...]}, "pips": {player: n}, "warnings": [...], "boneyard": n}
    from the photo (boneyard: face-down tiles in a heap, counted in no hand). Raises ValueError
    for a bad upload, RecountUnavailable when the reader cannot run here."""
    image = decode_photo(data)
    kwargs: dict[str, Any] = {}
    if record is not None:
        kwargs["record"] = record
    seats = seats_for(players, calibration)
    if seats is not None:
        kwargs["seats"] = seats
    result = _reader()(image, players=players, variant=variant, **kwargs)
    hands = {p: [str(t) for t in tiles] for p, tiles in dict(result.get("hands", {})).items()}
    pips = {p: sum(Tile.parse(t).pips for t in tiles) for p, tiles in hands.items()}
    return {"hands": hands, "pips": result.get("pips", pips), "warnings": result.get("warnings", []),
            "boneyard": int(result.get("boneyard", 0))}
