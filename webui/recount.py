"""The recount photo: hand the picture to the reader (vision/read/) and get tiles per seat back.

The reader owns the vision; this module only decodes the upload and adapts the call, so the
operator page works the day vision/read/ grows its recount function and says so clearly before.
"""

from __future__ import annotations

import importlib
from typing import Any

import cv2
import numpy as np


class RecountUnavailable(RuntimeError):
    pass


def decode_photo(data: bytes) -> np.ndarray:
    """BGR image from uploaded bytes. Raises ValueError for anything that is not an image."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:
        raise ValueError("the upload is not a JPEG or PNG photo")
    return image


def _reader():
    for module_name, func in (("vision.read.recount", "recount_image"), ("vision.read.recount", "recount")):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        if hasattr(module, func):
            return getattr(module, func)
    raise RecountUnavailable(
        "reading hands from a photo needs the reader (vision/read/recount.py), not in this build: "
        "type each player's tiles on /operator instead"
    )


def read_hands(data: bytes, players: list[str], variant: str | None) -> dict[str, Any]:
    """{"hands": {player: ["a-b", ...]}, "pips": {player: n}} read from the photo."""
    image = decode_photo(data)
    result = _reader()(image, players=players, variant=variant)
    if hasattr(result, "as_dict"):
        result = result.as_dict()
    hands = {p: [str(t) for t in tiles] for p, tiles in dict(result.get("hands", {})).items()}
    pips = {p: sum(int(c) for t in tiles for c in t.split("-")) for p, tiles in hands.items()}
    return {"hands": hands, "pips": result.get("pips", pips)}
