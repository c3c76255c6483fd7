"""The light made even across a photo: a shadow over part of the table taken out.

A lamp or a player's body shades part of the table; a white tile in that shade is grey, and the
detector and the body colour of `vision.read.loose` both miss it (enrolment photo groove 13 of
`lab.benchmarks.measure_enrol`: one tile in a shadow band, boxed by nothing). The light over the
table changes slowly and the tiles lying apart are small, so the light at a pixel is the median
brightness of the table round it (a window a few tile lengths wide, where tiles are a minority);
each pixel times the photo's typical light over its own light is the photo lit evenly.
"""

from __future__ import annotations

import cv2
import numpy as np

SMALL = 8  # the light is measured on a copy this many times smaller (it changes slowly)
WINDOW = 2.0  # tile lengths: the median's window (tiles lying apart cover under half of it)
GAIN = (0.5, 4.0)  # how far a pixel may be lightened or darkened


def even_light(frame: np.ndarray, tile_length: float) -> np.ndarray:
    """`frame` (BGR uint8) with its light made even; `tile_length` in pixels sets the window."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    small = cv2.resize(grey, (max(1, w // SMALL), max(1, h // SMALL)), interpolation=cv2.INTER_AREA)
    k = int(WINDOW * tile_length / SMALL) | 1
    light = cv2.medianBlur(small, min(max(k, 3), 255)).astype(np.float32)
    light = cv2.GaussianBlur(light, (0, 0), max(k / 4, 1.0))
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    gain = np.clip(float(np.median(light)) / np.maximum(light, 1.0), *GAIN)
    return np.clip(frame.astype(np.float32) * gain[:, :, None], 0, 255).astype(np.uint8)
