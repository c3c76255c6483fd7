"""Frame sources: a webcam, a video file, an RTSP stream, a folder of images, the looping demo.

Every source gives `(frame, t)`: a BGR image and its time in seconds (the camera's clock for live
sources, the frame's place in the file for recorded ones, so a recording replays the same however
fast the machine is). `ReconnectingSource` wraps one and turns losses into statuses and retries
with exponential back-off; nothing downstream is reset by a reconnect.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v"}


class SourceError(ValueError):
    """The source cannot be opened or was lost; the message says what to check.

    A ValueError, as the web side reports those to the user (`dominocam serve: <message>`)."""


class SourceMissing(SourceError):
    """No device at that address at all (`/dev/video9` that does not exist): not a lost camera.
    The message is `no camera at /dev/video9`; the source keeps looking, with back-off."""


def missing_device(target: int | str) -> str | None:
    """The device path of a camera index or /dev/videoN when it does not exist (Linux), else None."""
    path = f"/dev/video{target}" if isinstance(target, int) else target
    if isinstance(path, str) and path.startswith("/dev/") and os.path.isdir("/dev") and not os.path.exists(path):
        return path
    return None


class SourceEnded(Exception):  # noqa: N818 - a signal like StopIteration, not an error
    """A recording reached its end (and does not loop)."""


class CorruptFrame(ValueError):  # noqa: N818
    """One frame could not be decoded; the next may be fine."""


class FrameSource(Protocol):
    name: str
    live: bool  # a camera or stream (wall clock) rather than a recording

    def open(self) -> None: ...

    def read(self) -> tuple[np.ndarray, float]: ...

    def close(self) -> None: ...


def check_frame(frame, where: str) -> np.ndarray:
    """A usable BGR frame or CorruptFrame."""
    if frame is None or not isinstance(frame, np.ndarray) or frame.size == 0:
        raise CorruptFrame(f"{where}: empty or undecodable frame")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4) or min(frame.shape[:2]) < 16:
        raise CorruptFrame(f"{where}: unexpected frame shape {frame.shape}")
    if frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


class CaptureSource:
    """OpenCV VideoCapture: a webcam index, /dev/videoN, a video file or an rtsp:// URL."""

    def __init__(self, target: int | str, *, loop: bool = False, timeout_s: float = 5.0) -> None:
        self.target = target
        self.loop = loop
        self.timeout_s = timeout_s
        self.live = not (isinstance(target, str) and Path(target).suffix.lower() in VIDEO_SUFFIXES)
        self.name = f"camera {target}" if isinstance(target, int) else str(target)
        self._cap: cv2.VideoCapture | None = None
        self.fps = 0.0
        self._index = 0
        self._offset = 0.0

    def open(self) -> None:
        missing = missing_device(self.target) if self.live else None
        if missing:
            raise SourceMissing(f"no camera at {missing}")
        ms = int(self.timeout_s * 1000)
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        try:
            cap = cv2.VideoCapture(self.target, cv2.CAP_ANY, params)
        except cv2.error:
            cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            hint = (
                "check that the camera is plugged in and not used by another program"
                if self.live and not str(self.target).startswith("rtsp")
                else "check the address and that the stream is up" if self.live
                else "check the path"
            )
            raise SourceError(f"cannot open {self.name}: {hint}")
        self._cap = cap
        self.fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        if not 1.0 <= self.fps <= 240.0:
            self.fps = 25.0

    def read(self) -> tuple[np.ndarray, float]:
        if self._cap is None:
            raise SourceError(f"{self.name} is not open")
        ok, frame = self._cap.read()
        if not ok:
            if not self.live:
                if self.loop and self._index > 0:
                    self._offset += self._index / self.fps + 1.0 / self.fps
                    self._index = 0
                    self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                    ok, frame = self._cap.read()
                if not ok:
                    raise SourceEnded(self.name)
            else:
                raise SourceError(f"{self.name} stopped sending frames")
        t = time.monotonic() if self.live else self._offset + self._index / self.fps
        self._index += 1
        return check_frame(frame, self.name), t

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class FolderSource:
    """The images of a folder in name order, at `fps`, optionally in a loop."""

    def __init__(self, folder: str | Path, *, fps: float = 10.0, loop: bool = False) -> None:
        self.folder = Path(folder)
        self.fps = fps
        self.loop = loop
        self.live = False
        self.name = str(folder)
        self._files: list[Path] = []
        self._i = 0
        self._n = 0  # frames given so far, across loops: the clock

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"no folder {self.folder}: give a folder of images")
        self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise SourceError(f"{self.folder} holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")

    def read(self) -> tuple[np.ndarray, float]:
        if self._i >= len(self._files):
            if not self.loop:
                raise SourceEnded(self.name)
            self._i = 0
        path = self._files[self._i]
        self._i += 1
        t = self._n / self.fps
        self._n += 1
        return check_frame(cv2.imread(str(path), cv2.IMREAD_COLOR), str(path)), t

    def close(self) -> None:
        self._files = []


def open_source(spec: str | int, *, fps: float = 10.0, loop: bool = False) -> FrameSource:
    """`0`, `/dev/video2`, `game.mp4`, `rtsp://...`, `frames/` -> a source (not yet opened)."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return CaptureSource(int(spec))
    spec = os.path.expanduser(spec)
    if spec.startswith(("rtsp://", "rtsps://", "http://", "https://")) or spec.startswith("/dev/video"):
        return CaptureSource(spec)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, fps=fps, loop=loop)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        if not path.exists():
            raise SourceError(f"no video file {path}")
        return CaptureSource(str(path), loop=loop)
    raise SourceError(
        f"unknown source {spec!r}: use demo, a camera index (0), /dev/videoN, a video file, "
        "rtsp://... or a folder of images"
    )


# --- reconnecting ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Backoff:
    first_s: float = 0.5
    factor: float = 2.0
    max_s: float = 30.0

    def delay(self, attempt: int) -> float:
        """Seconds to wait before retry number `attempt` (1-based)."""
        return min(self.max_s, self.first_s * self.factor ** max(0, attempt - 1))


@dataclass(frozen=True)
class SourceEvent:
    """What a ReconnectingSource yields: a frame, or a status change without one."""

    frame: np.ndarray | None
    t: float
    state: str  # "live", "reconnecting", "ended", "lost"
    message: str = ""
    retry_in: float | None = None


class ReconnectingSource:
    """Wraps a source factory: frames while it works, statuses and back-off retries when it fails.

    `max_corrupt` consecutive undecodable frames count as a lost source. `max_attempts` (None:
    forever) bounds the retries. `sleep` is injectable for tests; `stop()` interrupts a wait.
    """

    def __init__(
        self,
        factory: Callable[[], FrameSource],
        *,
        backoff: Backoff | None = None,
        max_attempts: int | None = None,
        max_corrupt: int = 25,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.factory = factory
        self.backoff = backoff or Backoff()
        self.max_attempts = max_attempts
        self.max_corrupt = max_corrupt
        self._stopped = False
        self._sleep = sleep or self._interruptible_sleep
        self.corrupt_frames = 0
        self.reconnects = 0
        self.name = "source"
        self.live = False

    def stop(self) -> None:
        self._stopped = True

    def _interruptible_sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self._stopped and time.monotonic() < end:
            time.sleep(min(0.1, max(0.0, end - time.monotonic())))

    def events(self) -> Iterator[SourceEvent]:
        attempt = 0
        while not self._stopped:
            try:
                source = self.factory()
                self.name, self.live = source.name, source.live
                source.open()
            except SourceError as exc:
                attempt += 1
                if self.max_attempts is not None and attempt > self.max_attempts:
                    yield SourceEvent(None, time.monotonic(), "lost", f"{exc}; gave up")
                    return
                delay = self.backoff.delay(attempt)
                log.warning("%s; retrying in %.1f s", exc, delay)
                # a SourceMissing's message says so ("no camera at /dev/video9"): the pages show it as
                # a camera that is not there, still looked for, rather than one that was lost
                yield SourceEvent(None, time.monotonic(), "reconnecting", str(exc), delay)
                self._sleep(delay)
                continue
            if attempt:
                self.reconnects += 1
                log.info("%s is back after %d attempt(s)", source.name, attempt)
            attempt = 0
            corrupt = 0
            try:
                while not self._stopped:
                    try:
                        frame, t = source.read()
                    except CorruptFrame as exc:
                        corrupt += 1
                        self.corrupt_frames += 1
                        log.warning("skipping a corrupt frame: %s", exc)
                        if corrupt >= self.max_corrupt:
                            raise SourceError(
                                f"{source.name}: {corrupt} corrupt frames in a row"
                            ) from exc
                        continue
                    corrupt = 0
                    yield SourceEvent(frame, t, "live")
            except SourceEnded:
                yield SourceEvent(None, time.monotonic(), "ended", f"{source.name} ended")
                return
            except SourceError as exc:
                attempt += 1
                delay = self.backoff.delay(attempt)
                log.warning("%s; reconnecting in %.1f s", exc, delay)
                yield SourceEvent(None, time.monotonic(), "reconnecting", str(exc), delay)
                self._sleep(delay)
            except cv2.error as exc:  # a driver error mid-stream: same as a loss
                attempt += 1
                delay = self.backoff.delay(attempt)
                yield SourceEvent(None, time.monotonic(), "reconnecting", f"{source.name}: {exc}",
                                  delay)
                self._sleep(delay)
            finally:
                source.close()
