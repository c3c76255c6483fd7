"""MJPEG broadcast: one encoder, any number of viewers, nothing queued without bound.

The pipeline hands raw frames to `publish`; one encoder thread turns the newest into JPEG (at most
`max_fps`, and only while someone watches) and wakes every viewer through one condition variable.
Each viewer always gets the newest JPEG: a slow viewer skips frames instead of queueing them, and a
viewer that takes longer than `slow_viewer_s` to accept one is dropped. With no new frame the last
one is re-sent every `resend_s`, so a still table is painted on pages that join late.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

import cv2
import numpy as np

log = logging.getLogger(__name__)

BOUNDARY = "frame"


class TooManyViewers(RuntimeError):
    pass


class FrameBroadcaster:
    def __init__(
        self,
        max_fps: float = 15.0,
        resend_s: float = 1.5,
        jpeg_quality: int = 75,
        max_viewers: int = 64,
        slow_viewer_s: float = 5.0,
    ):
        self.max_fps = max_fps
        self.resend_s = resend_s
        self.jpeg_quality = jpeg_quality
        self.max_viewers = max_viewers
        self.slow_viewer_s = slow_viewer_s
        self._cond = threading.Condition()
        self._raw: np.ndarray | None = None
        self._raw_seq = 0
        self._jpeg: bytes | None = None
        self._jpeg_seq = 0
        self._viewers = 0
        self._closed = False
        self.encoded = 0  # frames encoded, for tests and benchmarks
        self.dropped_viewers = 0
        self._thread = threading.Thread(target=self._encode_loop, name="mjpeg-encoder", daemon=True)
        self._thread.start()

    @property
    def viewers(self) -> int:
        with self._cond:
            return self._viewers

    def publish(self, frame: np.ndarray) -> None:
        """Offer the newest frame (BGR). Never blocks on viewers; older unencoded frames are dropped."""
        with self._cond:
            self._raw = frame
            self._raw_seq += 1
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(2.0)

    def latest_frame(self) -> np.ndarray | None:
        """The newest raw frame offered (BGR), encoded or not (the event's thumbnail reads it)."""
        with self._cond:
            return self._raw

    def latest_jpeg(self) -> bytes | None:
        with self._cond:
            return self._jpeg

    def _encode_loop(self) -> None:
        done_seq = 0
        next_at = 0.0
        while True:
            with self._cond:
                while not self._closed and (self._raw_seq == done_seq or (self._viewers == 0 and self._jpeg)):
                    self._cond.wait()
                if self._closed:
                    return
                frame, seq = self._raw, self._raw_seq
            wait = next_at - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # cap the encode rate; the newest frame is taken after the pause
                with self._cond:
                    frame, seq = self._raw, self._raw_seq
            next_at = time.monotonic() + 1.0 / self.max_fps
            done_seq = seq
            try:
                ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
            except (cv2.error, TypeError, ValueError):  # an empty or malformed frame: keep the stream
                ok = False
            if not ok:
                log.warning("could not encode a frame of shape %s; skipped", getattr(frame, "shape", None))
                continue
            with self._cond:
                self._jpeg = buf.tobytes()
                self._jpeg_seq += 1
                self.encoded += 1
                self._cond.notify_all()

    def viewer(self) -> Iterator[bytes]:
        """multipart/x-mixed-replace chunks for one viewer. Raises TooManyViewers when full."""
        with self._cond:
            if self._viewers >= self.max_viewers:
                raise TooManyViewers(f"{self._viewers} viewers already watch the stream")
        return self._serve()

    def _serve(self) -> Iterator[bytes]:
        # Counted only once the server starts iterating, so an abandoned response leaks no slot.
        with self._cond:
            self._viewers += 1
            self._cond.notify_all()  # wake the encoder if it idled with no viewers
        sent_seq = -1
        try:
            while True:
                with self._cond:
                    if self._jpeg_seq == sent_seq or self._jpeg is None:
                        self._cond.wait(self.resend_s)
                    if self._closed:
                        return
                    jpeg, seq = self._jpeg, self._jpeg_seq
                if jpeg is None:
                    continue
                t0 = time.monotonic()
                yield (
                    b"--" + BOUNDARY.encode() + b"\r\nContent-Type: image/jpeg\r\nContent-Length: "
                    + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n"
                )
                # The server's write blocks while this viewer's socket buffer is full.
                if time.monotonic() - t0 > self.slow_viewer_s:
                    with self._cond:
                        self.dropped_viewers += 1
                    log.info("dropped a slow stream viewer")
                    return
                sent_seq = seq
        finally:
            with self._cond:
                self._viewers -= 1
