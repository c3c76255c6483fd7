"""Loading the images a user names: folders expand, bad files say what is wrong with them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class ImageError(ValueError):
    """An input that is not a readable image; the message says why."""


def expand(paths: list[str]) -> list[str]:
    """Files as given; folders replaced by their image files (sorted, not recursive)."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(str(f) for f in path.iterdir() if f.suffix.lower() in IMAGE_EXTS and f.is_file())
            out.extend(found or [p])  # an empty folder becomes an error entry of its own
        else:
            out.append(p)
    return out


def load_image(path: str) -> np.ndarray:
    """BGR frame as OpenCV loads it (EXIF rotation applied). Raises ImageError."""
    p = Path(path)
    if not p.exists():
        raise ImageError("file not found")
    if p.is_dir():
        raise ImageError("is a folder with no images")
    data = p.read_bytes()
    if not data:
        raise ImageError("empty file")
    if p.suffix.lower() not in IMAGE_EXTS:
        raise ImageError(f"unsupported file type '{p.suffix or '(none)'}': use one of {', '.join(IMAGE_EXTS)}")
    if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-4096:]:
        raise ImageError("corrupt JPEG: the file is truncated (no end marker)")
    # imread (not imdecode) so the EXIF orientation is applied
    frame = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if frame is None or frame.size == 0:
        raise ImageError("corrupt or unreadable image: OpenCV could not decode it")
    return frame
