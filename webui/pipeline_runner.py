"""Runs a pipeline (the interface of `vision.live.protocol`) on a thread for the web side: frames
to the broadcaster, the camera's state to the hub, and a watchdog that reports a pipeline that
stopped yielding as `stalled`."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import numpy as np

from vision.live.protocol import (
    ENDED,
    LIVE,
    LOST,
    MISSING,
    MISSING_PREFIX,
    RECONNECTING,
    STALLED,
    STARTING,
    Pipeline,
    SourceStatus,
)

log = logging.getLogger(__name__)

MESSAGE_EVERY_S = 5.0


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
