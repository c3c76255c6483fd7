"""Frame readers for the live pipeline: `reader(frame, t) -> Observation`.

- `ModelReader`: the real path, pixels only: the ONNX tile detector (vision/detect), the pip reader
  and the layout (vision/read). Built lazily so importing this module loads no model.
- `TruthReader`: the renderer's truth for each frame of a rendered video, for the demo and tests
  when no detector model is there yet. It never looks at the pixels.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.detect.detector import TileDetector, live_model
from vision.detect.rows import DOWN
from vision.live.observation import Observation, from_reading, from_truth, from_video_truth
from vision.read.reader import read_frame
from vision.read.truthdet import BoxNoise, truth_detections
from vision.read.workers import reading_pool

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray, float], Observation]


class ReaderUnavailable(ValueError):  # noqa: N818
    """No way to read frames here; the message says what is missing (a ValueError, as the web
    side reports those to the user)."""


RELOOK_EVERY = 30  # frames read at a remembered detection scale between two whole-frame looks


class ModelReader:
    """Detector + pip reader + layout on each frame (about 50-100 ms per 1080p frame here)."""

    def __init__(self, model_path: str | Path | None = None, detector=None, processes: bool = True) -> None:
        """`detector`: a TileDetector-like object to use instead of loading `model_path`."""
        self.last_ms = 0.0
        self.scale: float | None = None  # the detection scale the last whole-frame look chose
        self.reads_since_look = 0
        self.pool = None
        self.processes = processes  # read in worker processes (one per core) from the first frame on
        self.backs = None  # the backs' colour of the last frame whose face-down tiles agreed on one
        if detector is not None:
            self.detector = detector
            return
        path = Path(model_path) if model_path else live_model()
        if not path.is_file():
            raise ReaderUnavailable(
                f"no detector model at {path}: train one with `dominocam train` (see models/README.md)"
            )
        self.detector = TileDetector(path)

    def __call__(self, frame: np.ndarray, t: float) -> Observation:
        t0 = time.perf_counter()
        # The camera is fixed: the tiles' size in the frame, and so the detection scale, stays.
        # The whole-frame look that measures it runs on the first frame and then now and then.
        if self.scale is None or self.reads_since_look >= RELOOK_EVERY:
            detections = self.detector.detect(frame)
            self.scale, self.reads_since_look = self.detector.last.scale, 0
        else:
            detections = self.detector.detect(frame, scale=self.scale)
            self.reads_since_look += 1
        if self.pool is None and self.processes:
            self.pool, self.processes = reading_pool(), False  # started once, on the first frame
        reading = read_frame(frame, detections, pool=self.pool, doubtful=self.detector.last.doubtful,
                             backs=self.backs)
        if reading.backs is not None:
            self.backs = reading.backs
        obs = replace(from_reading(reading), faint=faint_backs(self.detector.last.doubtful))
        self.last_ms = (time.perf_counter() - t0) * 1000
        return obs


FAINT_CONF = 0.1  # a back scored this much (under the detector's threshold) witnesses a tile


def faint_backs(doubtful) -> tuple[tuple[float, float], ...]:
    """Centres of the face-down boxes the detector scored from FAINT_CONF up to its threshold."""
    if doubtful is None or not len(doubtful):
        return ()
    keep = (np.asarray(doubtful.class_id) == DOWN) & (np.asarray(doubtful.confidence) >= FAINT_CONF)
    centres = np.asarray(doubtful.corners, float)[keep].mean(axis=1)
    return tuple((float(x), float(y)) for x, y in centres)


class BoxesReader:
    """The real reader on the pixels, fed the renderer's tile boxes instead of the detector's
    (moved by a few pixels and degrees, as a detector's are): every value comes from counting
    pips on the frame, joins and hands from the reader's layout. The whole pixel path but the
    detector, for checks before a model exists."""

    def __init__(self, truths: list[dict], fps: float, noise: bool = True) -> None:
        if not truths:
            raise ReaderUnavailable("the rendered video has no per-frame truth")
        self.truths = truths
        self.fps = fps
        self.noise = noise
        self.last_ms = 0.0

    @classmethod
    def from_folder(cls, folder: str | Path, fps: float, noise: bool = True) -> BoxesReader:
        files = sorted(Path(folder).glob("*.json"))
        if not files:
            raise ReaderUnavailable(f"no per-frame truth JSON in {folder}")
        return cls([json.loads(p.read_text()) for p in files], fps, noise)

    def __call__(self, frame: np.ndarray, t: float) -> Observation:
        t0 = time.perf_counter()
        index = round(t * self.fps) % len(self.truths)
        truth = self.truths[index]
        seen = {**truth, "tiles": [d for d in truth.get("tiles", [])
                                   if d.get("visible", 1.0) >= 0.5 and d.get("in_frame", 1.0) >= 0.5]}
        detections, _ = truth_detections(seen, BoxNoise() if self.noise else None, seed=index)
        reading = read_frame(frame, detections)
        obs = from_reading(reading)
        self.last_ms = (time.perf_counter() - t0) * 1000
        return obs


class TruthReader:
    """The truth of the frame at time `t` of a rendered video (frame index = round(t * fps)).

    `truths` is a list of per-frame truth dicts (the renderer's per-image truth format), looped
    like the video itself.
    """

    def __init__(self, truths: list[dict], fps: float) -> None:
        if not truths:
            raise ReaderUnavailable("the rendered video has no per-frame truth")
        self.observations = [from_truth(t) for t in truths]
        self.fps = fps
        self.last_ms = 0.0

    @classmethod
    def from_jsonl(cls, path: str | Path, fps: float) -> TruthReader:
        """A rendered video's `truth.jsonl` (one line per frame, no parent links)."""
        reader = cls.__new__(cls)
        lines = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
        if not lines:
            raise ReaderUnavailable(f"{path} holds no frames")
        reader.observations = [from_video_truth(x) for x in lines]
        reader.fps = fps
        reader.last_ms = 0.0
        return reader

    @classmethod
    def from_folder(cls, folder: str | Path, fps: float) -> TruthReader:
        files = sorted(Path(folder).glob("*.json"))
        if not files:
            raise ReaderUnavailable(f"no per-frame truth JSON in {folder}")
        return cls([json.loads(p.read_text()) for p in files], fps)

    def __call__(self, frame: np.ndarray, t: float) -> Observation:
        index = round(t * self.fps) % len(self.observations)
        return self.observations[index]
