"""A pipeline that plays a recorded game back as if a camera watched it.

Used by `dominocam serve --source game.jsonl` (show a past game), by the demo until the live
camera pipeline is available, and by the tests. It draws a plain picture of the chain (not a
photo) with the time on it, so the video visibly runs, and emits the record's events at a steady
pace through the same sink the camera uses.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.live.protocol import ENDED, LIVE, FrameUpdate, SourceStatus

log = logging.getLogger(__name__)

FELT = (58, 110, 35)
IVORY = (225, 240, 248)


class RecordPipeline:
    def __init__(
        self,
        record: list[dict[str, Any]],
        *,
        pace_s: float = 1.0,
        fps: float = 10.0,
        moves: int | None = None,
        size: tuple[int, int] = (960, 540),
        name: str = "recorded game",
        loop: bool = False,
    ):
        if not record or record[0].get("event") != "game":
            raise ValueError("a recorded game starts with its game event")
        self.record = record
        self.pace_s = pace_s
        self.fps = fps
        self.limit = len(record) if moves is None else min(len(record), 1 + moves)
        self.size = size
        self.name = name
        self.loop = loop
        self._next = 1
        self._sink = None
        self._stop = threading.Event()
        self._resumed = False
        self._emitted: list[dict[str, Any]] = []

    # -- the Pipeline interface (vision/live/protocol.py)
    def game_event(self) -> dict[str, Any]:
        return dict(self.record[0])

    def resume(self, record: list[dict[str, Any]]) -> None:
        if self._resumed:  # later operator changes do not move the script
            return
        self._resumed = True
        if record and record[0] == self.record[0]:
            self._next = min(len(record), self.limit)
            self._emitted = list(record[1:])
            log.info("resuming the recorded game at event %d", self._next)

    def on_events(self, sink) -> None:
        self._sink = sink

    def close(self) -> None:
        self._stop.set()

    def frames(self) -> Iterator[FrameUpdate]:
        period = 1.0 / self.fps
        next_move = time.monotonic() + self.pace_s
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= next_move and self._next < self.limit:
                self._emit(self.record[self._next])
                self._next += 1
                next_move = now + self.pace_s
            done = self._next >= len(self.record)
            if done and self.loop and now >= next_move:
                self._next = 1  # the record's own deal event starts the next deal
                self._emitted = []
            status = (SourceStatus(ENDED, f"{self.name}: all moves played") if done and not self.loop
                      else SourceStatus(LIVE, f"replaying {self.name}"))
            yield FrameUpdate(self.draw(), status)
            self._stop.wait(max(0.0, period - (time.monotonic() - now)))

    def _emit(self, event: dict[str, Any]) -> None:
        if self._sink is None:
            return
        try:
            self._sink(dict(event))
            self._emitted.append(event)
        except ValueError as exc:
            log.warning("the journal refused replayed event %s: %s", event, exc)

    # -- drawing
    def draw(self) -> np.ndarray:
        w, h = self.size
        img = np.empty((h, w, 3), np.uint8)
        img[:] = FELT
        deal_start = max((i for i, e in enumerate(self._emitted) if e.get("event") == "deal"), default=-1)
        plays = [e for e in self._emitted[deal_start + 1 :] if e.get("event") == "play"]
        tw, th, gap = 88, 44, 12
        per_row = max(1, (w - 40) // (tw + gap))
        for i, e in enumerate(plays):
            row, col = divmod(i, per_row)
            if row % 2:
                col = per_row - 1 - col  # a snake, as chains bend at the table edge
            x, y = 20 + col * (tw + gap), 30 + row * (th + 2 * gap)
            down = e.get("face") == "down"
            cv2.rectangle(img, (x + 3, y + 3), (x + tw + 3, y + th + 3), (20, 50, 15), -1)
            cv2.rectangle(img, (x, y), (x + tw, y + th), (40, 40, 40) if down else IVORY, -1)
            cv2.line(img, (x + tw // 2, y + 3), (x + tw // 2, y + th - 3), (60, 60, 60), 2)
            if not down:
                for k, v in enumerate(Tile.parse(e["tile"]).values):
                    cv2.putText(img, str(v), (x + 12 + k * tw // 2, y + th - 11), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                                (20, 20, 20), 2, cv2.LINE_AA)
        last = self._emitted[-1] if self._emitted else None
        caption = f"{self.name}  {time.strftime('%H:%M:%S')}"
        if last and last.get("player"):
            caption += f"   last: {last['player']} {last.get('event')} {last.get('tile', '')}"
        cv2.putText(img, caption, (20, h - 20), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2, cv2.LINE_AA)
        return img
