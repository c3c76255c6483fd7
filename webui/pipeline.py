"""The interface between the live pipeline (vision/live/) and the web side.

A pipeline turns a video source into annotated frames and engine events. The web side runs it on
one thread (`PipelineRunner`), broadcasts its frames, journals its events before showing them, and
reports the camera's state to every page.

A pipeline is any object with these methods (duck-typed; `Pipeline` below is the Protocol):

- `frames() -> Iterator[FrameUpdate]`: blocking iterator, called once on the runner thread. Yields an
  annotated BGR frame (or `frame=None` while the camera is gone) with a `SourceStatus`. It should
  yield at least every second or two even with no picture (status updates), but the web side copes
  with a pipeline that blocks: after `STALL_AFTER_S` without an update it reports `stalled`.
  It ends when the source ends for good or after `close()`.
- `on_events(sink)`: called once before `frames()`. The pipeline calls `sink(event)` for each new
  engine event (a dict in the game record format of docs/CONTRACTS.md: `play`, `pass`, `deal`,
  `reveal`...), from any thread. `sink` returns the journal entry (`.id`) only after the event is
  on disk; it raises
  `ValueError` (with the reason) for an event the journal refuses.
- `close()`: stop soon; `frames()` then returns.

Optional methods, used when present:
- `game_event() -> dict | None`: the `game` event when the source knows the game (a recorded
  video with its record); used when the journal is empty.
- `resume(record: list[dict])`: the current game's effective record (corrections and undos
  applied), called before `frames()` and after every operator change, so move inference starts
  from what the referee says is on the table.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)

# Camera states shown on every page.
STARTING = "starting"
LIVE = "live"
RECONNECTING = "reconnecting"  # the source was lost; the pipeline is retrying with back-off
LOST = "lost"  # gave up (or no retry possible)
STALLED = "stalled"  # set by the web side: no update for STALL_AFTER_S
ENDED = "ended"  # a file or recording reached its end
NO_CAMERA = "none"  # served without a source
MISSING = "missing"  # no device at that address at all (vision.live.sources.SourceMissing); looked for again
MISSING_PREFIX = "no camera at "

MESSAGE_EVERY_S = 5.0


@dataclass(frozen=True)
class SourceStatus:
    state: str
    message: str = ""
    retry_in: float | None = None  # seconds to the next reconnect attempt

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class FrameUpdate:
    frame: np.ndarray | None  # annotated BGR image, None when there is no picture
    status: SourceStatus


EventSink = Callable[[dict[str, Any]], Any]


@runtime_checkable
class Pipeline(Protocol):
    def frames(self) -> Iterator[FrameUpdate]: ...

    def on_events(self, sink: EventSink) -> None: ...

    def close(self) -> None: ...


class PipelineRunner:
    """Runs a pipeline on a thread: frames to the broadcaster, status to the hub, a stall watchdog.

    `on_frame(frame)` and `on_status(status, fps)` are callbacks into the app.
    """

    def __init__(
        self,
        pipeline: Pipeline,
        on_frame: Callable[[np.ndarray], None],
        on_status: Callable[[SourceStatus, float], None],
        stall_after_s: float = 3.0,
    ):
        self.pipeline = pipeline
        self._on_frame = on_frame
        self._on_status = on_status
        self._stall_after_s = stall_after_s
        self._stop = threading.Event()
        self._last_update = time.monotonic()
        self._status = SourceStatus(STARTING, "starting the camera")
        self._stalled = False
        self._published_at = 0.0
        self._frame_times: list[float] = []
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._run, name="pipeline", daemon=True),
            threading.Thread(target=self._watch, name="pipeline-watchdog", daemon=True),
        ]

    @property
    def fps(self) -> float:
        with self._lock:
            times = [t for t in self._frame_times if t > time.monotonic() - 2.0]
        if len(times) < 2:
            return 0.0
        return (len(times) - 1) / max(times[-1] - times[0], 1e-6)

    def start(self) -> None:
        for t in self._threads:
            t.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        try:
            self.pipeline.close()
        except Exception:  # a broken close must not keep the server from stopping
            log.exception("pipeline close failed")
        for t in self._threads:
            t.join(timeout)

    def _status_changed(self, status, now: float) -> bool:
        """A new state goes out at once; a new message within the same state (an fps counter)
        at most every MESSAGE_EVERY_S, so pages are not woken on every frame."""
        old = self._status
        if getattr(status, "state", None) != old.state or getattr(status, "retry_in", None) != old.retry_in:
            return True
        return getattr(status, "message", "") != old.message and now - self._published_at >= MESSAGE_EVERY_S

    def _publish(self, status) -> None:
        if getattr(status, "state", None) == RECONNECTING and str(getattr(status, "message", "")).startswith(MISSING_PREFIX):
            status = SourceStatus(MISSING, status.message, getattr(status, "retry_in", None))
        self._status = status
        self._published_at = time.monotonic()
        self._on_status(status, self.fps)

    def _run(self) -> None:
        self._on_status(self._status, 0.0)
        try:
            for update in self.pipeline.frames():
                now = time.monotonic()
                self._last_update = now
                if update.frame is not None:
                    with self._lock:
                        self._frame_times.append(now)
                        if len(self._frame_times) > 200:
                            del self._frame_times[:100]
                    self._on_frame(update.frame)
                if self._stalled or self._status_changed(update.status, now):
                    self._stalled = False
                    self._publish(update.status)
                if self._stop.is_set():
                    break
        except Exception as exc:  # the page must say the camera died, not hang on "live"
            log.exception("the live pipeline failed")
            self._publish(SourceStatus(LOST, f"the live pipeline failed: {exc}"))
            return
        if not self._stop.is_set():
            self._publish(SourceStatus(ENDED, "the source ended"))

    def _watch(self) -> None:
        while not self._stop.wait(0.5):
            idle = time.monotonic() - self._last_update
            if idle > self._stall_after_s and not self._stalled and self._status.state in (LIVE, STARTING):
                self._stalled = True
                self._on_status(
                    SourceStatus(STALLED, f"no picture for {idle:.0f} s: check the camera cable or stream"),
                    0.0,
                )
